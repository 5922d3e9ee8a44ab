import type { QueryClient } from '@tanstack/react-query';
import { PROFILE_QUERY_ROOT } from '@/features/profiles/api/get-my-profile';

/** Every query of the patient's subscription, plans, terms and charges starts with this key. */
export const SUBSCRIPTION_QUERY_ROOT = 'subscriptions';

/**
 * After a checkout, a payment, a change of method or a cancellation, the subscription and its charges are read again
 * (specification §7: create-subscription invalidates my-subscription and the patient's data). The profile is reset,
 * not just marked stale: the first checkout records its CPF and phone, and the next checkout form starts from them.
 */
export async function invalidateSubscriptionData(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: [SUBSCRIPTION_QUERY_ROOT] }), queryClient.resetQueries({ queryKey: [PROFILE_QUERY_ROOT] })]);
}
