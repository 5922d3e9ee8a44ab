import { adminDashboardSchema, type AdminDashboard } from '@carteirinha/shared/contracts/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** GET /api/admin/dashboard: the KPIs, the newest clinics and the alerts of the admin's home page. */
export function getAdminDashboard(signal?: AbortSignal): Promise<AdminDashboard> {
  return apiRequest('/api/admin/dashboard', adminDashboardSchema, { signal });
}

export const adminDashboardQueryOptions = queryOptions({
  queryKey: [ADMIN_QUERY_ROOT, 'dashboard'],
  queryFn: ({ signal }) => getAdminDashboard(signal),
});

export function useAdminDashboard() {
  return useQuery(adminDashboardQueryOptions);
}
