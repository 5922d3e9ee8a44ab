import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { PASSKEYS_QUERY_KEY } from './list-passkeys';

/** DELETE /api/passkeys/:id → 204; 409 when it is the account's last way in. The sessions it opened end with it. */
export async function removePasskey(id: string): Promise<void> {
  await apiRequest(`/api/passkeys/${encodeURIComponent(id)}`, z.null(), { method: 'DELETE' });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removePasskey, onSuccess: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY }) });
}
