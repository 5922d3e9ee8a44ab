import { z } from 'zod';
import { keysetListQuerySchema } from './pagination.ts';
import { CARD_LOOKUP_METHODS, CARD_VALIDATION_RESULTS } from './cards.ts';
import { PAYMENT_METHODS, PAYMENT_STATUSES } from './payments.ts';
import { SUBSCRIPTION_STATUSES } from './subscriptions.ts';
import { visitSchema } from './visits.ts';

const isoInstant = z.iso.datetime({ offset: true });

/** 'Pacientes' filters by the member's subscription status, or 'none' for a patient who never subscribed. */
export const MEMBER_STATUS_FILTERS = [...SUBSCRIPTION_STATUSES, 'none'] as const;
export type MemberStatusFilter = (typeof MEMBER_STATUS_FILTERS)[number];

/** GET /api/clinic/members: the programme's patients, newest first; `q` searches name, e-mail, CPF and card number. */
export const memberListQuerySchema = keysetListQuerySchema.extend({ status: z.enum(MEMBER_STATUS_FILTERS).optional() });
export type MemberListQuery = z.infer<typeof memberListQuerySchema>;

/** One patient of the programme, as 'Pacientes' lists them: their latest subscription, if any. */
export const memberSchema = z.object({
  userId: z.uuid(),
  fullName: z.string(),
  email: z.string(),
  /** Digits only; null until the patient gives it (at checkout or in the profile). */
  cpf: z.string().nullable(),
  /** When they joined the clinic's programme (signed up on its site, or were enrolled). */
  joinedAt: isoInstant,
  subscription: z
    .object({
      id: z.uuid(),
      planName: z.string(),
      status: z.enum(SUBSCRIPTION_STATUSES),
      expiresAt: isoInstant.nullable(),
    })
    .nullable(),
  /** The holder's own card number (digits), once a card was issued. */
  cardNumber: z.string().nullable(),
  /** Dependents covered now (not removed). */
  dependents: z.number().int(),
});
export type Member = z.infer<typeof memberSchema>;

/** Everything the clinic holds of one member: their subscriptions, cards, dependents, charges, visits, validations. */
export const memberDetailSchema = memberSchema.extend({
  phone: z.string().nullable(),
  birthDate: z.string().nullable(),
  subscriptions: z.array(
    z.object({
      id: z.uuid(),
      planName: z.string(),
      status: z.enum(SUBSCRIPTION_STATUSES),
      amountCents: z.number().int().nullable(),
      paymentMethod: z.enum(PAYMENT_METHODS).nullable(),
      startedAt: isoInstant.nullable(),
      expiresAt: isoInstant.nullable(),
      canceledAt: isoInstant.nullable(),
    }),
  ),
  cards: z.array(
    z.object({
      id: z.uuid(),
      number: z.string(),
      personName: z.string(),
      isDependent: z.boolean(),
      issuedAt: isoInstant,
      revokedAt: isoInstant.nullable(),
    }),
  ),
  dependentList: z.array(
    z.object({
      id: z.uuid(),
      fullName: z.string(),
      cpf: z.string().nullable(),
      relationship: z.string().nullable(),
      birthDate: z.string().nullable(),
      removedAt: isoInstant.nullable(),
    }),
  ),
  /** The latest charges, newest first (at most MEMBER_DETAIL_ROWS). */
  charges: z.array(
    z.object({
      id: z.uuid(),
      dueDate: z.string(),
      amountCents: z.number().int(),
      method: z.enum(PAYMENT_METHODS),
      status: z.enum(PAYMENT_STATUSES),
      paidAt: isoInstant.nullable(),
    }),
  ),
  /** The latest visits of the member and their dependents, newest first (at most MEMBER_DETAIL_ROWS). */
  visits: z.array(visitSchema),
  /** The latest validations of their cards, newest first (at most MEMBER_DETAIL_ROWS). */
  validations: z.array(
    z.object({
      at: isoInstant,
      cardNumber: z.string().nullable(),
      result: z.enum(CARD_VALIDATION_RESULTS),
      method: z.enum(CARD_LOOKUP_METHODS),
      by: z.string().nullable(),
    }),
  ),
});
export type MemberDetail = z.infer<typeof memberDetailSchema>;

/** How many of each kind of row the detail shows: the latest; the full lists are their own screens. */
export const MEMBER_DETAIL_ROWS = 20;

export const memberParamsSchema = z.object({ userId: z.uuid() });
