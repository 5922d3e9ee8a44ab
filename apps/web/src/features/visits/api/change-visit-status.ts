import { visitSchema, type Visit, type VisitStatusChange } from '@carteirinha/shared/contracts/visits';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { CLINIC_DASHBOARD_QUERY_ROOT } from '@/features/dashboard/api/clinic-dashboard-key';
import { VISITS_QUERY_ROOT } from './list-visits';

/** PATCH /api/clinic/visits/:id/status: aguardando → em andamento → concluído, or cancelado with its reason. */
export function changeVisitStatus(visitId: string, change: VisitStatusChange): Promise<Visit> {
  return apiRequest(`/api/clinic/visits/${encodeURIComponent(visitId)}/status`, visitSchema, { method: 'PATCH', body: change });
}

/** Iniciar, Concluir and Cancelar of Atendimentos; the lists and the Dashboard's figures reload after it. */
export function useChangeVisitStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ visitId, change }: { visitId: string; change: VisitStatusChange }) => changeVisitStatus(visitId, change),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [VISITS_QUERY_ROOT] }),
        queryClient.invalidateQueries({ queryKey: [CLINIC_DASHBOARD_QUERY_ROOT] }),
      ]),
  });
}
