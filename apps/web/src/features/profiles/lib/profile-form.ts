import type { PatientProfile, PatientProfileFormInput } from '@carteirinha/shared/contracts/profiles';
import { formatPhone } from '@carteirinha/shared/format';

/** The saved profile as the form's values: the phone masked as people read it, absent values empty. */
export function profileFormValuesOf(profile: PatientProfile): PatientProfileFormInput {
  return {
    fullName: profile.fullName,
    email: profile.email,
    cpf: '',
    phone: profile.phone ? formatPhone(profile.phone) : '',
    birthDate: profile.birthDate ?? '',
  };
}
