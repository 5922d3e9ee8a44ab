import type { QueryClient } from '@tanstack/react-query';

/** Every query of the patient's subscription, plans, terms and charges starts with this key. */
export const SUBSCRIPTION_QUERY_ROOT = 'subscriptions';

/**
 * After a checkout, a payment, a change of method or a cancellation, the subscription and its charges are read again
 * (specification §7: create-subscription invalidates my-subscription and the patient's data).
 */
export function invalidateSubscriptionData(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [SUBSCRIPTION_QUERY_ROOT] });
}
