import { platformPlanSchema, type PlanFormOutput, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** POST /api/admin/plans → 201 with the new plan (price sent in reais, stored in cents by the server). */
export function createPlan(input: PlanFormOutput): Promise<PlatformPlanRecord> {
  return apiRequest('/api/admin/plans', platformPlanSchema, { method: 'POST', body: input });
}

export function useCreatePlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createPlan, onSuccess: () => invalidateAdminData(queryClient) });
}
