import { messages } from '@carteirinha/shared/messages';
import { useEffect, useRef } from 'react';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import type { ExternalToast, toast as sonnerToast, ToastT, ToastToDismiss } from 'sonner';

/*
 * The app's toasts, shown by sonner. Sonner itself (8 KiB gzipped) is not part of a page's first load: the toaster
 * (app/toaster.tsx) loads once the browser is idle after the first page has drawn, or with the first toast asked for,
 * whichever comes first. Toasts asked for before it listens wait here and are shown as it arrives.
 */

type Sonner = typeof sonnerToast;
type ToastId = string | number;
type PendingToast = { id: ToastId; show: (sonner: Sonner) => void };

let sonner: Sonner | null = null;
let pending: PendingToast[] = [];
let lastId = 0;
let wanted = false;
const wantedListeners = new Set<() => void>();

function show(kind: 'success' | 'error' | 'info', title: string, options: ExternalToast = {}): ToastId {
  // An id of our own, so that a toast can be dismissed before sonner has given it one.
  const id = options.id ?? `toast-${(lastId += 1)}`;
  const display = (ready: Sonner) => void ready[kind](title, { ...options, id });
  if (sonner) {
    display(sonner);
  } else {
    pending.push({ id, show: display });
    if (!wanted) {
      wanted = true;
      for (const listener of wantedListeners) listener();
    }
  }
  return id;
}

/** sonner's `toast`, for what the app uses of it. */
export const toast = {
  success: (title: string, options?: ExternalToast): ToastId => show('success', title, options),
  error: (title: string, options?: ExternalToast): ToastId => show('error', title, options),
  info: (title: string, options?: ExternalToast): ToastId => show('info', title, options),
  /** One toast by id, or all of them. */
  dismiss(id?: ToastId): void {
    if (sonner) {
      sonner.dismiss(id);
      return;
    }
    pending = id === undefined ? [] : pending.filter((queued) => queued.id !== id);
  },
  /** The toasts on screen (none before the toaster has arrived: those waiting are not shown yet). */
  getToasts(): (ToastT | ToastToDismiss)[] {
    return sonner?.getToasts() ?? [];
  },
};

/** Called by the toaster once it listens: the toasts asked for until now are shown. */
export function toasterReady(ready: Sonner): void {
  sonner = ready;
  const queued = pending;
  pending = [];
  for (const waiting of queued) waiting.show(ready);
}

/** Whether a toast has been asked for before the toaster arrived (for `useSyncExternalStore`). */
export function isToasterWanted(): boolean {
  return wanted;
}

export function subscribeToasterWanted(listener: () => void): () => void {
  wantedListeners.add(listener);
  return () => wantedListeners.delete(listener);
}

/*
 * How long a toast lives: toasts belong to the page they were shown on. When the page changes, the old page's toasts
 * go (a 'Cadastro realizado!' must not sit over the next page), except one shown on purpose for the next page, with an
 * id made by `acrossPageChange` — it survives that one change. A form keeps at most one validation toast, which goes
 * as soon as the form is valid.
 */

const ACROSS_PAGE_CHANGE = 'across-page-change:';

/** The id of a toast meant for the page being navigated to, e.g. "your session ended" on the way to /auth. */
export function acrossPageChange(id: string): string {
  return `${ACROSS_PAGE_CHANGE}${id}`;
}

/** Kept toasts that already survived one page change: the next one takes them too. */
const survivedOnce = new Set<string | number>();

function dismissPageToasts(): void {
  for (const shown of toast.getToasts()) {
    const keep = typeof shown.id === 'string' && shown.id.startsWith(ACROSS_PAGE_CHANGE) && !survivedOnce.has(shown.id);
    if (keep) {
      survivedOnce.add(shown.id);
    } else {
      survivedOnce.delete(shown.id);
      toast.dismiss(shown.id);
    }
  }
}

type RouterLike = { state: { location: { pathname: string } }; subscribe: (listener: (state: { location: { pathname: string } }) => void) => () => void };

/**
 * Dismisses the page's toasts when the router moves to another path (a query-string change, such as a filter, is the
 * same page). The router tells before the new page renders, so toasts the new page shows as it opens stay.
 */
export function dismissToastsOnPageChange(router: RouterLike): () => void {
  let pathname = router.state.location.pathname;
  return router.subscribe((state) => {
    if (state.location.pathname === pathname) return;
    pathname = state.location.pathname;
    dismissPageToasts();
  });
}

/**
 * The validation toast on screen, if any. Each gets an id of its own: sonner would merge a toast re-using an id it is
 * still animating away into the one leaving, so that it never shows.
 */
let validationToast: string | number | null = null;

function dismissValidationToast(): void {
  if (validationToast !== null) toast.dismiss(validationToast);
  validationToast = null;
}

/** Specification §5's 'Erro de validação' toast with the first error: it replaces the previous one, never piles up. */
export function showValidationToast(description: string): void {
  dismissValidationToast();
  validationToast = toast.error(messages.validation.title, { description });
}

/** Dismisses the form's validation toast once the errors that caused it are fixed. */
export function useDismissValidationToastWhenValid<T extends FieldValues>(errors: FieldErrors<T>): void {
  const hasErrors = Object.keys(errors).length > 0;
  const hadErrors = useRef(false);
  useEffect(() => {
    if (hasErrors) {
      hadErrors.current = true;
      return;
    }
    if (!hadErrors.current) return;
    hadErrors.current = false;
    dismissValidationToast();
  }, [hasErrors]);
}
