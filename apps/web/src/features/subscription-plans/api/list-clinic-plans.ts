import { subscriptionPlanListSchema, type SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { CLINIC_PLANS_QUERY_ROOT } from './clinic-plans-queries';

/** GET /api/clinic/subscription-plans: every plan of the clinic, active or not. */
export async function listClinicPlans(signal?: AbortSignal): Promise<SubscriptionPlan[]> {
  const { items } = await apiRequest('/api/clinic/subscription-plans', subscriptionPlanListSchema, { signal });
  return items;
}

export const clinicPlansQueryOptions = queryOptions({
  queryKey: [CLINIC_PLANS_QUERY_ROOT, 'list'],
  queryFn: ({ signal }) => listClinicPlans(signal),
});

export function useClinicPlans() {
  return useQuery(clinicPlansQueryOptions);
}
