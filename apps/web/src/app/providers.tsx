import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { lazyComponent } from '@/lib/lazy-component';
import { queryClient } from '@/lib/query-client';
import { isToasterWanted, subscribeToasterWanted } from '@/lib/toasts';

const AppToaster = lazyComponent(() => import('./toaster'), (m) => m.AppToaster);

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
 * The toaster, out of the page's first load (lib/toasts.ts): it arrives when the browser is idle after the first
 * paint — so that a toast later, even offline, shows at once — or with the first toast asked for, if sooner.
 */
function DeferredToaster() {
  const wanted = useSyncExternalStore(subscribeToasterWanted, isToasterWanted, () => false);
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  if (!wanted && !idle) return null;
  return (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  );
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <DeferredToaster />
    </QueryClientProvider>
  );
}
