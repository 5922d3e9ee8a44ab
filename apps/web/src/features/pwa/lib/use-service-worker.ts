import { useEffect } from 'react';
import { whenIdle } from '@/lib/when-idle';

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
