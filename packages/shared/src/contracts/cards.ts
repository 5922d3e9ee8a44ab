import { z } from 'zod';
import { SUBSCRIPTION_STATUSES } from './subscriptions.ts';

/** How a card reached the validation: its rotating QR token, the printed number, or the holder's CPF. */
export const CARD_LOOKUP_METHODS = ['token', 'number', 'cpf'] as const;
export type CardLookupMethod = (typeof CARD_LOOKUP_METHODS)[number];

/** The outcome written to `card_validations` for every attempt (DESIGN.md §2: never deleted). */
export const CARD_VALIDATION_RESULTS = ['valid', 'inactive', 'expired', 'not_found'] as const;
export type CardValidationResult = (typeof CARD_VALIDATION_RESULTS)[number];


const isoInstant = z.iso.datetime({ offset: true });
const discountsSchema = z.object({ consultas: z.number().int(), exames: z.number().int(), procedimentos: z.number().int() });

/** One digital card as its holder sees it (/paciente/cartao): the holder's or a dependent's. */
export const patientCardSchema = z.object({
  id: z.uuid(),
  /** Printed number, digits only (the last one is a check digit); shown grouped. */
  number: z.string(),
  holderName: z.string(),
  /** The person this card covers: the holder or one of the dependents. */
  personName: z.string(),
  /** The person's photo (Meu Perfil), shown on the card: the holder's on the holder's card; none for a dependent yet. */
  photoUrl: z.string().nullable(),
  isDependent: z.boolean(),
  /** The dependent this card covers (null: the holder's), so Meu Perfil can open that person's card. */
  dependentId: z.uuid().nullable(),
  planName: z.string(),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES),
  validUntil: isoInstant.nullable(),
  /** Whether the card validates now; when not, `inactiveReason` says why in pt-BR and no QR token is issued. */
  active: z.boolean(),
  inactiveReason: z.string().nullable(),
  discounts: discountsSchema,
  maxMembers: z.number().int(),
});
export type PatientCard = z.infer<typeof patientCardSchema>;
export const patientCardListSchema = z.object({ items: z.array(patientCardSchema) });

/** GET /api/patient/cards/:id/token: the QR's current token and when the next one replaces it. */
export const cardTokenSchema = z.object({
  token: z.string(),
  /** The end of the token's own window; the QR refreshes then (at most every 60 s). */
  refreshAt: isoInstant,
  periodSeconds: z.number().int(),
});
export type CardToken = z.infer<typeof cardTokenSchema>;

/**
 * POST /api/clinic/card-validations (specification §7 validate-qrcode: card_token). `cardToken` takes the QR's token
 * or the printed card number; `/clinica/validar` also sends the holder's CPF in it.
 */
export const validateCardRequestSchema = z.object({
  cardToken: z.string().max(200),
  /** Where the code was typed or scanned: 'qrcode' (token or number) or 'manual' (number or CPF). */
  source: z.enum(['qrcode', 'manual']).default('qrcode'),
});
export type ValidateCardRequest = z.infer<typeof validateCardRequestSchema>;

/**
 * The answer (specification §7: valid, message, subscription). What the clinic needs and nothing more (LGPD): no CPF,
 * no payment details, no reason beyond 'assinatura inativa'.
 */
/**
 * What the answer means for the desk: 'valid' (apply the discount), 'inactive' (a real card of this clinic whose
 * subscription is not active), 'expired' (a real code of this clinic's card from a step gone by: ask for the card again)
 * and 'not_found' (anything else, with no hint of why).
 */
export const VALIDATION_OUTCOMES = ['valid', 'inactive', 'expired', 'not_found'] as const;
export type ValidationOutcome = (typeof VALIDATION_OUTCOMES)[number];

export const validateCardResponseSchema = z.object({
  valid: z.boolean(),
  outcome: z.enum(VALIDATION_OUTCOMES),
  message: z.string(),
  subscription: z
    .object({ planName: z.string(), status: z.enum(SUBSCRIPTION_STATUSES), expiresAt: isoInstant.nullable(), maxMembers: z.number().int() })
    .optional(),
  card: z.object({ id: z.uuid(), number: z.string() }).optional(),
  person: z.object({ name: z.string(), photoUrl: z.string().nullable(), isDependent: z.boolean() }).optional(),
  discounts: discountsSchema.optional(),
});
export type ValidateCardResponse = z.infer<typeof validateCardResponseSchema>;
