import { assignRoleResponseSchema, type AssignRoleInput } from '@carteirinha/shared/contracts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';

export type AssignRoleResponse = z.infer<typeof assignRoleResponseSchema>;

/**
 * POST /api/admin/user-roles: gives a role to an existing user (by e-mail or id), or invites a new e-mail — the
 * answer says which (`invited`).
 */
export function assignRole(input: AssignRoleInput, idempotencyKey?: string): Promise<AssignRoleResponse> {
  return apiRequest('/api/admin/user-roles', assignRoleResponseSchema, { method: 'POST', body: input, idempotencyKey });
}

/**
 * 'Novo Usuário'; the list, the counts and every other admin figure are reloaded afterwards (specification §4). A
 * retry of the same values after a lost answer carries the same idempotency key (one invitation, not two).
 */
export function useAssignRole() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: AssignRoleInput) => assignRole(input, keys.keyFor(input)),
    onSuccess: () => {
      keys.settle();
      return invalidateAdminData(queryClient);
    },
  });
}
