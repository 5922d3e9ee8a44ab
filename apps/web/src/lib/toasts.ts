import { messages } from '@carteirinha/shared/messages';
import { useEffect, useRef } from 'react';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import { toast } from 'sonner';

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
