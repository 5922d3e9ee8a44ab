import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { browserEndpoint } from '../lib/browser-push';

export const BROWSER_PUSH_QUERY_KEY = ['push', 'browser'] as const;

/**
 * This browser's push subscription endpoint (null: none), read again once the app's service worker is ready — on a
 * first visit it registers after the page has drawn.
 */
export function useBrowserEndpoint(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    void navigator.serviceWorker.ready.then(() => queryClient.invalidateQueries({ queryKey: BROWSER_PUSH_QUERY_KEY }));
  }, [enabled, queryClient]);
  return useQuery({ queryKey: BROWSER_PUSH_QUERY_KEY, queryFn: browserEndpoint, enabled, staleTime: Infinity });
}
