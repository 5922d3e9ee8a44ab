import {
  adminPayoutPageSchema,
  clinicPayoutListSchema,
  payoutDetailSchema,
  payoutSchema,
  type AdminPayoutListQuery,
  type Payout,
  type PayoutStatusChange,
} from '@carteirinha/shared/contracts/payouts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** The first key of every payouts query: paying one reloads the admin's list and the clinic's Financeiro alike. */
export const PAYOUTS_QUERY_ROOT = 'payouts';

/** GET /api/clinic/payouts: Financeiro's four cards and the clinic's payouts. */
export function useClinicPayouts() {
  return useQuery({
    queryKey: [PAYOUTS_QUERY_ROOT, 'clinic'],
    queryFn: ({ signal }) => apiRequest('/api/clinic/payouts', clinicPayoutListSchema, { signal }),
  });
}

/** GET /api/clinic/payouts/:id: one payout's lines, while its 'Detalhes' are open. */
export function useClinicPayoutDetail(payoutId: string | null) {
  return useQuery({
    queryKey: [PAYOUTS_QUERY_ROOT, 'detail', payoutId],
    queryFn: ({ signal }) => apiRequest(`/api/clinic/payouts/${encodeURIComponent(payoutId ?? '')}`, payoutDetailSchema, { signal }),
    enabled: payoutId !== null,
  });
}

/** GET /api/admin/payouts: every clinic's payouts, a page at a time, by status. */
export function useAdminPayouts(query: Pick<AdminPayoutListQuery, 'page' | 'pageSize' | 'status'>) {
  const search = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
  if (query.status) search.set('status', query.status);
  return useQuery({
    queryKey: [PAYOUTS_QUERY_ROOT, 'admin', query],
    queryFn: ({ signal }) => apiRequest(`/api/admin/payouts?${search.toString()}`, adminPayoutPageSchema, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** 'Marcar como processando' / 'Marcar como pago'. */
export function useChangePayoutStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: PayoutStatusChange }): Promise<Payout> =>
      apiRequest(`/api/admin/payouts/${encodeURIComponent(id)}/status`, payoutSchema, { method: 'POST', body: change }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [PAYOUTS_QUERY_ROOT] }),
  });
}
