import { z } from 'zod';
import { cpfSchema } from '../validators.ts';
import { emailSchema } from './auth.ts';

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

/**
 * POST /api/clinic/cpf-claims (issue 22): a CPF belongs to one person per clinic. After checking a document, the
 * clinic admin gives it to its real owner — the patient account with this e-mail — taking it from whoever had it.
 */
export const reassignCpfRequestSchema = z.object({
  cpf: cpfSchema,
  email: emailSchema,
});
export type ReassignCpfRequest = z.infer<typeof reassignCpfRequestSchema>;

export const reassignCpfResponseSchema = z.object({
  /** Digits only. */
  cpf: z.string(),
  patientName: z.string(),
  /** Whether the CPF was taken from another person of the clinic (false: nobody had it, or it was already theirs). */
  movedFromAnother: z.boolean(),
});
export type ReassignCpfResponse = z.infer<typeof reassignCpfResponseSchema>;
