import { useRef, useSyncExternalStore } from 'react';

/*
 * Two things every modal layer (dialog, confirmation, drawer) of the app shares:
 *
 * 1. Where focus goes when it closes. Radix returns focus to the element focused when the layer opened; a layer opened
 *    from a row menu's item opens as the menu closes, when nothing is focused, so focus fell to <body> and the next
 *    Tab started over at the sidebar. A menu item now names its menu's button as the place to come back to, and the
 *    layer that opens right after claims it.
 * 2. Whether a modal layer is open, so that toasts can move out of its way on a phone.
 */

/** The menu button a layer opened from a menu item should return focus to; until the user's next interaction. */
let returnTarget: HTMLElement | null = null;

/** The button that opened the menu `item` belongs to (Radix labels the menu by its trigger). */
function menuTriggerOf(item: Element): HTMLElement | null {
  const triggerId = item.closest('[role="menu"]')?.getAttribute('aria-labelledby');
  const trigger = triggerId ? document.getElementById(triggerId) : null;
  return trigger instanceof HTMLElement ? trigger : null;
}

/**
 * Called when a menu item is chosen: a layer that opens now returns focus to the menu's button when it closes. The
 * user's next pointer or key press ends the offer, so a layer opened later for another reason does not take it.
 */
export function offerMenuReturnFocus(item: Element): void {
  const trigger = menuTriggerOf(item);
  returnTarget = trigger;
  if (!trigger) return;
  const listening = new AbortController();
  const withdraw = () => {
    if (returnTarget === trigger) returnTarget = null;
    listening.abort();
  };
  // Added while the choosing event is dispatched: it has passed the document already, so only the next one counts.
  document.addEventListener('pointerdown', withdraw, { capture: true, signal: listening.signal });
  document.addEventListener('keydown', withdraw, { capture: true, signal: listening.signal });
}

function claimReturnTarget(): HTMLElement | null {
  const target = returnTarget;
  returnTarget = null;
  return target;
}

/** The element that had focus when a layer opened (it still has it while the layer's open event runs). */
function focusedBeforeOpening(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

/** Where focus goes when the element to return to is gone (the row was deleted): the page's main content. */
function focusMainContent(): void {
  const main = document.querySelector<HTMLElement>('main');
  if (!main) return;
  if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
  main.focus({ preventScroll: true });
}

type AutoFocusHandlers = {
  onOpenAutoFocus?: (event: Event) => void;
  onCloseAutoFocus?: (event: Event) => void;
};

/**
 * The open/close focus handlers of a modal layer's content, composed with the caller's own: returns focus to the menu
 * button it was opened from (or to the main content when that button went away with its row).
 */
export function useMenuReturnFocus({ onOpenAutoFocus, onCloseAutoFocus }: AutoFocusHandlers): Required<AutoFocusHandlers> {
  const claimed = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event) => {
      // Radix returns focus only to a DialogTrigger; a layer opened by state (a row's button, a plan card, a blocked
      // navigation) would leave focus on <body>. The element focused as it opens is where focus goes back.
      claimed.current = claimReturnTarget() ?? focusedBeforeOpening();
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event) => {
      onCloseAutoFocus?.(event);
      const target = claimed.current;
      claimed.current = null;
      if (!target || event.defaultPrevented) return;
      event.preventDefault();
      if (target.isConnected) target.focus();
      else focusMainContent();
    },
  };
}

let openLayers = 0;
const layerListeners = new Set<() => void>();

function notifyLayers(): void {
  for (const listener of layerListeners) listener();
}

/** Counts an open modal layer while the calling component is mounted (call it inside the layer's content). */
export function registerOpenLayer(): () => void {
  openLayers += 1;
  notifyLayers();
  return () => {
    openLayers -= 1;
    notifyLayers();
  };
}

function subscribeLayers(listener: () => void): () => void {
  layerListeners.add(listener);
  return () => layerListeners.delete(listener);
}

/** Whether a dialog, confirmation or drawer is open. */
export function useModalLayerOpen(): boolean {
  return useSyncExternalStore(
    subscribeLayers,
    () => openLayers > 0,
    () => false,
  );
}
