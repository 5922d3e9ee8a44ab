import { platformPlanListSchema, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** GET /api/admin/plans: every plan the platform sells to clinics, cheapest first ("sob consulta" last). */
export async function listPlans(signal?: AbortSignal): Promise<PlatformPlanRecord[]> {
  const { items } = await apiRequest('/api/admin/plans', platformPlanListSchema, { signal });
  return items;
}

export const plansQueryOptions = queryOptions({
  queryKey: [ADMIN_QUERY_ROOT, 'plans', 'list'],
  queryFn: ({ signal }) => listPlans(signal),
});

export function usePlans() {
  return useQuery(plansQueryOptions);
}
