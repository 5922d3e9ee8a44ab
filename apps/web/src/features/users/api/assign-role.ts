import { assignRoleResponseSchema, type AssignRoleInput } from '@carteirinha/shared/contracts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

export type AssignRoleResponse = z.infer<typeof assignRoleResponseSchema>;

/**
 * POST /api/admin/user-roles: gives a role to an existing user (by e-mail or id), or invites a new e-mail — the
 * answer says which (`invited`).
 */
export function assignRole(input: AssignRoleInput): Promise<AssignRoleResponse> {
  return apiRequest('/api/admin/user-roles', assignRoleResponseSchema, { method: 'POST', body: input });
}

/** 'Novo Usuário'; the list, the counts and every other admin figure are reloaded afterwards (specification §4). */
export function useAssignRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignRole,
    onSuccess: () => invalidateAdminData(queryClient),
  });
}
