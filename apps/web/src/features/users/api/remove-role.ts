import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** DELETE /api/admin/user-roles/:userId: removes the role (the user becomes 'Desativado') and ends their sessions. */
export async function removeRole(userId: string): Promise<void> {
  await apiRequest(`/api/admin/user-roles/${encodeURIComponent(userId)}`, z.null(), { method: 'DELETE' });
}

/** 'Desativar'; the list, the counts and every other admin figure are reloaded afterwards (specification §4). */
export function useRemoveRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeRole,
    onSuccess: () => invalidateAdminData(queryClient),
  });
}
