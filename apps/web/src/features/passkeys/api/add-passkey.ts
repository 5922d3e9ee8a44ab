import { passkeySchema, registrationOptionsSchema, type Passkey } from '@carteirinha/shared/contracts/passkeys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { createCredential } from '../lib/webauthn';
import { PASSKEYS_QUERY_KEY } from './list-passkeys';

/** GET the registration options, let the device make the passkey, POST it with its name: 201 with the passkey. */
export async function addPasskey(name: string): Promise<Passkey> {
  const options = await apiRequest('/api/passkeys/registration-options', registrationOptionsSchema);
  const response = await createCredential(options);
  return apiRequest('/api/passkeys', passkeySchema, { method: 'POST', body: { name, response } });
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addPasskey, onSuccess: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY }) });
}
