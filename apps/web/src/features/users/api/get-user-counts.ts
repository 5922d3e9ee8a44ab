import { userCountsSchema, type UserCounts } from '@carteirinha/shared/contracts/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** GET /api/admin/users/counts: the five count cards of /admin/usuarios. */
export function getUserCounts(signal?: AbortSignal): Promise<UserCounts> {
  return apiRequest('/api/admin/users/counts', userCountsSchema, { signal });
}

export const userCountsQueryOptions = queryOptions({
  queryKey: [ADMIN_QUERY_ROOT, 'users', 'counts'],
  queryFn: ({ signal }) => getUserCounts(signal),
});

export function useUserCounts() {
  return useQuery(userCountsQueryOptions);
}
