import { platformPlanSchema, type PlanFormOutput, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';

/** POST /api/admin/plans → 201 with the new plan (price sent in reais, stored in cents by the server). */
export function createPlan(input: PlanFormOutput, idempotencyKey?: string): Promise<PlatformPlanRecord> {
  return apiRequest('/api/admin/plans', platformPlanSchema, { method: 'POST', body: input, idempotencyKey });
}

/** 'Novo Plano'; a retry of the same values after a lost answer carries the same idempotency key. */
export function useCreatePlan() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: PlanFormOutput) => createPlan(input, keys.keyFor(input)),
    onSuccess: () => {
      keys.settle();
      return invalidateAdminData(queryClient);
    },
  });
}
