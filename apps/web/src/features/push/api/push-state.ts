import { pushStateSchema, type PushState } from '@carteirinha/shared/contracts/push';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

export const PUSH_STATE_QUERY_KEY = ['push', 'state'] as const;

/** GET /api/patient/push: the VAPID public key and the patient's browsers that receive notifications. */
export function getPushState(signal?: AbortSignal): Promise<PushState> {
  return apiRequest('/api/patient/push', pushStateSchema, { signal });
}

export const pushStateQueryOptions = queryOptions({ queryKey: PUSH_STATE_QUERY_KEY, queryFn: ({ signal }) => getPushState(signal) });

export function usePushState() {
  return useQuery(pushStateQueryOptions);
}
