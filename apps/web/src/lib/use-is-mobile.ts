import { MOBILE_BREAKPOINT_PX } from '@carteirinha/shared/constants';
import { useSyncExternalStore } from 'react';

const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(MOBILE_QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

function isMobileNow(): boolean {
  return window.matchMedia(MOBILE_QUERY).matches;
}

/** Whether the viewport is narrower than the mobile breakpoint (specification §9: 768px); follows resizes. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, isMobileNow);
}
