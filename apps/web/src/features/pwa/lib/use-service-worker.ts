import { useEffect } from 'react';

/** Calls `run` once the browser has nothing more urgent to do (at the latest after `timeoutMs`). */
function whenIdle(run: () => void, timeoutMs = 3000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(run, 1);
  return () => window.clearTimeout(handle);
}

/**
 * Registers the service worker (issue 29) once the browser is idle after the patient portal's first paint: its code
 * is in no page's first load (the JavaScript budgets), and installing it never competes with the page asked for.
 */
export function useServiceWorker(): void {
  useEffect(
    () =>
      whenIdle(() => {
        void import('./register-service-worker').then(({ registerServiceWorker }) => registerServiceWorker());
      }),
    [],
  );
}
