import { visitSchema, type CreateVisitRequest, type Visit } from '@carteirinha/shared/contracts/visits';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';
import { CLINIC_DASHBOARD_QUERY_ROOT } from '@/features/dashboard/api/clinic-dashboard-key';
import { VISITS_QUERY_ROOT } from './list-visits';

/** POST /api/clinic/visits → 201 with the visit; the discount is the card's plan's, computed on the server. */
export function createVisit(input: CreateVisitRequest, idempotencyKey?: string): Promise<Visit> {
  return apiRequest('/api/clinic/visits', visitSchema, { method: 'POST', body: input, idempotencyKey });
}

/** 'Registrar Atendimento'; a retry of the same values after a lost answer carries the same idempotency key. */
export function useCreateVisit() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: CreateVisitRequest) => createVisit(input, keys.keyFor(input)),
    onSuccess: () => {
      keys.settle();
      // The Dashboard's counts (Atendimentos hoje, the first validated card's step) move with each visit too.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: [VISITS_QUERY_ROOT] }),
        queryClient.invalidateQueries({ queryKey: [CLINIC_DASHBOARD_QUERY_ROOT] }),
      ]);
    },
  });
}
