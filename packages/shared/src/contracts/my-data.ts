import { z } from 'zod';
import { CARD_LOOKUP_METHODS, CARD_VALIDATION_RESULTS } from './cards.ts';
import { pageOf } from './pagination.ts';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.ts';
import { messages } from '../messages.ts';

/**
 * Meus dados (issue 27, LGPD; ADR 027): everything the platform holds about the signed-in patient in their clinic,
 * the log of who at the clinic looked up their cards, and the deletion (anonymisation) of the account.
 */
const instant = z.string();
const row = z.record(z.string(), z.unknown());

export const myDataExportSchema = z.object({
  generatedAt: instant,
  clinic: z.object({ name: z.string() }),
  account: z.object({ id: z.uuid(), name: z.string(), email: z.string(), createdAt: instant, lastSignInAt: instant.nullable(), twoFactorEnabled: z.boolean() }),
  profile: z.object({ fullName: z.string(), cpf: z.string().nullable(), phone: z.string().nullable(), birthDate: z.string().nullable(), photoUrl: z.string().nullable() }).nullable(),
  subscriptions: z.array(row),
  charges: z.array(row),
  /** The printed numbers and their dates; never the secret that derives the QR token. */
  cards: z.array(row),
  /** The devices enrolled for the offline card (issue 29): names and dates; never their secrets. */
  cardDevices: z.array(row),
  dependents: z.array(row),
  visits: z.array(row),
  cardValidations: z.array(row),
  termsAcceptances: z.array(row),
  auditEntries: z.array(row),
});
export type MyDataExport = z.infer<typeof myDataExportSchema>;

export const cardAccessQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type CardAccessQuery = z.infer<typeof cardAccessQuerySchema>;

export const cardAccessEntrySchema = z.object({
  id: z.uuid(),
  at: instant,
  /** Whose card: the holder's own (null) or a dependent's name. */
  dependentName: z.string().nullable(),
  cardNumber: z.string().nullable(),
  /** The clinic person who looked it up (name and role, never the e-mail); null if that account is gone. */
  userName: z.string().nullable(),
  userRole: z.enum(['clinic_admin', 'clinic_staff']).nullable(),
  method: z.enum(CARD_LOOKUP_METHODS),
  result: z.enum(CARD_VALIDATION_RESULTS),
});
export type CardAccessEntry = z.infer<typeof cardAccessEntrySchema>;
export const cardAccessPageSchema = pageOf(cardAccessEntrySchema);
export type CardAccessPage = z.infer<typeof cardAccessPageSchema>;

/** The confirmation the patient types: the deletion cannot be undone, so a click alone is not enough. */
export const DELETION_CONFIRMATION = 'EXCLUIR';
export const accountDeletionRequestSchema = z.object({ confirmation: z.literal(DELETION_CONFIRMATION, { error: messages.myData.confirmationMismatch }) });
export type AccountDeletionRequest = z.infer<typeof accountDeletionRequestSchema>;

export const accountDeletionResponseSchema = z.object({
  deletedAt: instant,
  /** The subscription cancelled with the account, if one was open: its protocol and the refund asked for. */
  cancellation: z.object({ protocol: z.string(), refundCents: z.number().int() }).nullable(),
  keptCharges: z.number().int(),
  keptValidations: z.number().int(),
});
export type AccountDeletionResponse = z.infer<typeof accountDeletionResponseSchema>;
