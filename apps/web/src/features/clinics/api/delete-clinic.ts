import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** DELETE /api/admin/clinics/:id → 204; 409 when the clinic has patients or payments (it must be suspended instead). */
export async function deleteClinic(id: string): Promise<void> {
  await apiRequest(`/api/admin/clinics/${encodeURIComponent(id)}`, z.null(), { method: 'DELETE' });
}

export function useDeleteClinic() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteClinic, onSuccess: () => invalidateAdminData(queryClient) });
}
