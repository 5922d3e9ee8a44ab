import { planSummarySchema, type PlanSummary } from '@carteirinha/shared/contracts/plans';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** GET /api/admin/plans/summary: plan count, active subscriptions and MRR, computed by the server. */
export function getPlanSummary(signal?: AbortSignal): Promise<PlanSummary> {
  return apiRequest('/api/admin/plans/summary', planSummarySchema, { signal });
}

export const planSummaryQueryOptions = queryOptions({
  queryKey: [ADMIN_QUERY_ROOT, 'plans', 'summary'],
  queryFn: ({ signal }) => getPlanSummary(signal),
});

export function usePlanSummary() {
  return useQuery(planSummaryQueryOptions);
}
