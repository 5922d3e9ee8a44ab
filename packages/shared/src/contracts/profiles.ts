import { z } from 'zod';
import { FULL_NAME_MAX_LENGTH, FULL_NAME_MIN_LENGTH } from '../constants.ts';
import { messages } from '../messages.ts';
import { cpfSchema, phoneSchema } from '../validators.ts';
import { emailSchema } from './auth.ts';

const m = messages.patientProfile;

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
  /** yyyy-MM-dd. */
  birthDate: z.string().nullable(),
  /** The photo's public path (re-encoded WebP under an unguessable name), or null. */
  photoUrl: z.string().nullable(),
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

/** The earliest birth date a person of the programme can have. */
export const BIRTH_DATE_MIN = '1900-01-01';

/** yyyy-MM-dd, a real day between BIRTH_DATE_MIN and today (a string comparison: both are ISO days). */
export const birthDateSchema = z
  .string()
  .trim()
  .pipe(z.iso.date(m.invalidBirthDate))
  .refine((day) => day >= BIRTH_DATE_MIN && day <= new Date().toISOString().slice(0, 10), m.invalidBirthDate);

/**
 * PATCH /api/patient/profile ('Salvar Alterações' in Meu Perfil): the whole form. The CPF may be given only while the
 * profile has none (it is read-only once set); an empty phone or birth date clears it. A new e-mail is not here: it
 * changes only when the link sent to the new address is opened (POST /api/auth/change-email).
 */
export const patientProfileUpdateSchema = z.object({
  fullName: z.string().trim().min(FULL_NAME_MIN_LENGTH, messages.validation.fullNameMin).max(FULL_NAME_MAX_LENGTH, messages.validation.fullNameMax),
  cpf: cpfSchema.nullable().optional(),
  phone: z.union([z.literal('').transform(() => null), phoneSchema]).nullable(),
  birthDate: z.union([z.literal('').transform(() => null), birthDateSchema]).nullable(),
});
export type PatientProfileUpdate = z.input<typeof patientProfileUpdateSchema>;
export type PatientProfileChanges = z.output<typeof patientProfileUpdateSchema>;

/**
 * Meu Perfil's form: the update plus the e-mail, which goes its own way (a link to the new address). An empty CPF is
 * none given (the field shows only while the profile has none).
 */
export const patientProfileFormSchema = patientProfileUpdateSchema.extend({
  email: emailSchema,
  cpf: z.union([z.literal('').transform(() => undefined), cpfSchema]).optional(),
});
export type PatientProfileFormInput = z.input<typeof patientProfileFormSchema>;
export type PatientProfileFormValues = z.output<typeof patientProfileFormSchema>;
