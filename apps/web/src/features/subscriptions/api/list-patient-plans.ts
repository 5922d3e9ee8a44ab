import { subscriptionPlanListSchema, type SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { SUBSCRIPTION_QUERY_ROOT } from './subscription-queries';

/** GET /api/patient/subscription-plans: the active plans of the patient's clinic, cheapest first. */
export async function listPatientPlans(signal?: AbortSignal): Promise<SubscriptionPlan[]> {
  const { items } = await apiRequest('/api/patient/subscription-plans', subscriptionPlanListSchema, { signal });
  return items;
}

export const patientPlansQueryOptions = queryOptions({
  queryKey: [SUBSCRIPTION_QUERY_ROOT, 'plans'],
  queryFn: ({ signal }) => listPatientPlans(signal),
});

export function usePatientPlans() {
  return useQuery(patientPlansQueryOptions);
}
