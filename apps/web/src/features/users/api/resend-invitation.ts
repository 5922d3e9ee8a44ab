import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** POST /api/admin/users/:id/invitation: a new 7-day set-password link for an invited user who has not used theirs. */
export async function resendInvitation(userId: string): Promise<void> {
  await apiRequest(`/api/admin/users/${encodeURIComponent(userId)}/invitation`, z.null(), { method: 'POST' });
}

/** 'Reenviar convite'; the list is reloaded afterwards, as after every change on the admin screens. */
export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    onSuccess: () => invalidateAdminData(queryClient),
  });
}
