import { publicPlatformPlanListSchema, type PublicPlatformPlan } from '@carteirinha/shared/contracts/plans';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** GET /api/public/plans: the plans the platform sells now, as the admin keeps them in /admin/planos. */
export async function getPublicPlans(signal?: AbortSignal): Promise<PublicPlatformPlan[]> {
  const { items } = await apiRequest('/api/public/plans', publicPlatformPlanListSchema, { signal });
  return items;
}

export const publicPlansQueryOptions = queryOptions({
  queryKey: ['public', 'plans'],
  queryFn: ({ signal }) => getPublicPlans(signal),
});

export function usePublicPlans() {
  return useQuery(publicPlansQueryOptions);
}
