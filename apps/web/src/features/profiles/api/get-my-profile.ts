import { patientProfileSchema, type PatientProfile } from '@carteirinha/shared/contracts/profiles';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** Every query of the patient's own profile starts with this key (a checkout fills its CPF and phone). */
export const PROFILE_QUERY_ROOT = 'profile';

/** GET /api/patient/profile: the signed-in patient's name, e-mail, CPF and phone. */
export async function getMyProfile(signal?: AbortSignal): Promise<PatientProfile> {
  return apiRequest('/api/patient/profile', patientProfileSchema, { signal });
}

export const myProfileQueryOptions = queryOptions({
  queryKey: [PROFILE_QUERY_ROOT, 'mine'],
  queryFn: ({ signal }) => getMyProfile(signal),
});

export function useMyProfile(enabled = true) {
  return useQuery({ ...myProfileQueryOptions, enabled });
}
