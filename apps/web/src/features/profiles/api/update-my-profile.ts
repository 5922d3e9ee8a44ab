import { patientProfileSchema, type PatientProfile, type PatientProfileChanges } from '@carteirinha/shared/contracts/profiles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, apiUpload } from '@/lib/api';
import { authClient } from '@/lib/auth-client';
import { authServerMessage } from '@/features/auth/lib/auth-errors';
import { myProfileQueryOptions } from './get-my-profile';

/** PATCH /api/patient/profile ('Salvar Alterações') → the profile as saved. */
export function updateMyProfile(changes: PatientProfileChanges): Promise<PatientProfile> {
  return apiRequest('/api/patient/profile', patientProfileSchema, { method: 'PATCH', body: changes });
}

/** POST /api/patient/profile/photo (multipart, field `file`): the server sniffs and re-encodes it. */
export function uploadMyPhoto(file: File): Promise<PatientProfile> {
  const body = new FormData();
  body.append('file', file);
  return apiUpload('/api/patient/profile/photo', patientProfileSchema, body);
}

/**
 * better-auth's change-email: the link goes to the new address (on the clinic's host), and the e-mail changes only
 * when it is opened there. Nothing tells whether another account has the address (better-auth answers alike).
 */
export async function askEmailChange(newEmail: string): Promise<void> {
  const { error } = await authClient.changeEmail({ newEmail, callbackURL: '/paciente/perfil' });
  if (error) throw new Error(authServerMessage(error));
}

/**
 * The answer replaces the cached profile at once; the card shows the name and the photo, and the session the name,
 * so those are asked again.
 */
function useApplyProfile() {
  const queryClient = useQueryClient();
  return (profile: PatientProfile) => {
    queryClient.setQueryData(myProfileQueryOptions.queryKey, profile);
    return Promise.all([queryClient.invalidateQueries({ queryKey: ['cards', 'mine'] }), queryClient.invalidateQueries({ queryKey: ['me'] })]);
  };
}

export function useUpdateMyProfile() {
  const apply = useApplyProfile();
  return useMutation({ mutationFn: updateMyProfile, onSuccess: apply });
}

export function useUploadMyPhoto() {
  const apply = useApplyProfile();
  return useMutation({ mutationFn: uploadMyPhoto, onSuccess: apply });
}
