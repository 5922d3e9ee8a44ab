import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api';

/** POST /api/admin/users/:id/invitation: a new 7-day set-password link for an invited user who has not used theirs. */
export async function resendInvitation(userId: string): Promise<void> {
  await apiRequest(`/api/admin/users/${encodeURIComponent(userId)}/invitation`, z.null(), { method: 'POST' });
}

/**
 * 'Reenviar convite'. Only the link changes (the invitation stays pending), so no figure on the admin screens moves
 * and nothing is reloaded.
 */
export function useResendInvitation() {
  return useMutation({ mutationFn: resendInvitation });
}
