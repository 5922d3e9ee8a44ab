import { useQuery } from '@tanstack/react-query';
import { browserPush } from '../lib/browser-push';

export const BROWSER_PUSH_QUERY_KEY = ['push', 'browser'] as const;

/** Whether this browser's service worker is there, and its push subscription's endpoint (null: none). */
export function useBrowserPush(enabled: boolean) {
  return useQuery({ queryKey: BROWSER_PUSH_QUERY_KEY, queryFn: browserPush, enabled, staleTime: Infinity });
}
