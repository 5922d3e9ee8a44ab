import { adminUserSchema, type AdminUser, type UpdateRoleInput } from '@carteirinha/shared/contracts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

export type UpdateRoleVariables = { userId: string; input: UpdateRoleInput };

/** PUT /api/admin/user-roles/:userId: changes the role and clinic; the user stays the same. */
export function updateRole({ userId, input }: UpdateRoleVariables): Promise<AdminUser> {
  return apiRequest(`/api/admin/user-roles/${encodeURIComponent(userId)}`, adminUserSchema, { method: 'PUT', body: input });
}

/** 'Alterar Permissões'; the list, the counts and every other admin figure are reloaded afterwards (specification §4). */
export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRole,
    onSuccess: () => invalidateAdminData(queryClient),
  });
}
