import { useQuery } from '@tanstack/react-query';
import { browserEndpoint } from '../lib/browser-push';

export const BROWSER_PUSH_QUERY_KEY = ['push', 'browser'] as const;

/** This browser's push subscription endpoint (null: none), read from its service worker. */
export function useBrowserEndpoint(enabled: boolean) {
  return useQuery({ queryKey: BROWSER_PUSH_QUERY_KEY, queryFn: browserEndpoint, enabled, staleTime: Infinity });
}
