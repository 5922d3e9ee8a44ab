import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** DELETE /api/admin/plans/:id → 204; 409 while clinics are on the plan (it must be deactivated instead). */
export async function deletePlan(id: string): Promise<void> {
  await apiRequest(`/api/admin/plans/${encodeURIComponent(id)}`, z.null(), { method: 'DELETE' });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deletePlan, onSuccess: () => invalidateAdminData(queryClient) });
}
