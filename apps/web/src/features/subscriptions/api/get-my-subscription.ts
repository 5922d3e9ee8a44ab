import { mySubscriptionResponseSchema, type MySubscription } from '@carteirinha/shared/contracts/subscriptions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** GET /api/patient/subscription: the signed-in patient's newest subscription, or null when they have none. */
export async function getMySubscription(signal?: AbortSignal): Promise<MySubscription | null> {
  const { subscription } = await apiRequest('/api/patient/subscription', mySubscriptionResponseSchema, { signal });
  return subscription;
}

export const mySubscriptionQueryOptions = queryOptions({
  queryKey: ['subscriptions', 'mine'],
  queryFn: ({ signal }) => getMySubscription(signal),
});

export function useMySubscription() {
  return useQuery(mySubscriptionQueryOptions);
}
