import { z } from 'zod';

/**
 * GET /api/patient/profile: the patient's own personal data. The checkout starts from it, so a returning patient
 * checks rather than types (and cannot mistype the CPF, which is read-only once set: DESIGN.md §2 profiles).
 */
export const patientProfileSchema = z.object({
  fullName: z.string(),
  email: z.string(),
  /** Digits only; null until the first checkout (or the profile screen) records it. */
  cpf: z.string().nullable(),
  /** Digits only, with the area code. */
  phone: z.string().nullable(),
});
export type PatientProfile = z.infer<typeof patientProfileSchema>;
