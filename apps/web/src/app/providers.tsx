import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { lazyComponent } from '@/lib/lazy-component';
import { whenIdle } from '@/lib/when-idle';
import { queryClient } from '@/lib/query-client';
import { isToasterWanted, subscribeToasterWanted } from '@/lib/toasts';

const AppToaster = lazyComponent(() => import('./toaster'), (m) => m.AppToaster);

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
