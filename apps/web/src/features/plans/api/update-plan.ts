import { platformPlanSchema, type PlanFormOutput, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

export type UpdatePlanInput = { id: string; data: PlanFormOutput };

/** PUT /api/admin/plans/:id with the whole form. */
export function updatePlan({ id, data }: UpdatePlanInput): Promise<PlatformPlanRecord> {
  return apiRequest(`/api/admin/plans/${encodeURIComponent(id)}`, platformPlanSchema, { method: 'PUT', body: data });
}

export function useUpdatePlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updatePlan, onSuccess: () => invalidateAdminData(queryClient) });
}
