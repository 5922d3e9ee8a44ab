import { passkeyListSchema, type Passkey } from '@carteirinha/shared/contracts/passkeys';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

export const PASSKEYS_QUERY_KEY = ['passkeys', 'mine'] as const;

/** GET /api/passkeys: the signed-in user's passkeys (Segurança). */
export async function listPasskeys(signal?: AbortSignal): Promise<Passkey[]> {
  return (await apiRequest('/api/passkeys', passkeyListSchema, { signal })).passkeys;
}

export const passkeysQueryOptions = queryOptions({ queryKey: PASSKEYS_QUERY_KEY, queryFn: ({ signal }) => listPasskeys(signal) });

export function usePasskeys() {
  return useQuery(passkeysQueryOptions);
}
