import { mrrHistorySchema, type MrrHistory } from '@carteirinha/shared/contracts/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** GET /api/admin/dashboard/mrr-history: the platform's MRR at the end of each of the last 12 months (ADR 005). */
export function getMrrHistory(signal?: AbortSignal): Promise<MrrHistory> {
  return apiRequest('/api/admin/dashboard/mrr-history', mrrHistorySchema, { signal });
}

export function useMrrHistory() {
  return useQuery(queryOptions({ queryKey: [ADMIN_QUERY_ROOT, 'dashboard', 'mrr-history'], queryFn: ({ signal }) => getMrrHistory(signal) }));
}
