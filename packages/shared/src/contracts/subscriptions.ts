import { z } from 'zod';
import { messages } from '../messages.ts';
import { FULL_NAME_MAX_LENGTH, FULL_NAME_MIN_LENGTH } from '../constants.ts';
import { emailSchema } from './auth.ts';
import { PAYMENT_METHODS, paymentSchema } from './payments.ts';
import { subscriptionPlanSchema } from './subscription-plans.ts';

export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'overdue', 'canceled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** pt-BR label of each subscription status (specification §4). */
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: 'Ativa',
  pending: 'Pendente',
  overdue: 'Atrasada',
  canceled: 'Cancelada',
  expired: 'Expirada',
};

const isoInstant = z.iso.datetime({ offset: true });

export const subscriptionSchema = z.object({
  id: z.uuid(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** Paid through: the benefits last until then. */
  expiresAt: isoInstant.nullable(),
  createdAt: isoInstant,
  startedAt: isoInstant.nullable(),
  /** When the carência ends and the discounts apply; null before the first payment. */
  benefitsStartAt: isoInstant.nullable(),
  /** When the patient cancelled; with status 'active' the cancellation takes effect at `expiresAt`. */
  canceledAt: isoInstant.nullable(),
  /** Price of each cycle as contracted (holder + dependents). */
  amountCents: z.number().int().nullable(),
  paymentMethod: z.enum(PAYMENT_METHODS).nullable(),
  plan: subscriptionPlanSchema,
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** GET /api/patient/subscription: the newest subscription of the signed-in patient, or null. */
export const mySubscriptionResponseSchema = z.object({ subscription: subscriptionSchema.nullable() });

/**
 * Checkout's customer data (specification §3: name, email, cpfCnpj, phone). The CPF or CNPJ is checked by its digits;
 * stored and sent to the provider as digits (a CNPJ may carry letters from July 2026).
 */
export const customerDataSchema = z.object({
  name: z.string().trim().min(FULL_NAME_MIN_LENGTH, messages.validation.fullNameMin).max(FULL_NAME_MAX_LENGTH, messages.validation.fullNameMax),
  email: emailSchema,
  cpfCnpj: z.string().max(32),
  phone: z.string().max(32).optional(),
});
export type CustomerData = z.infer<typeof customerDataSchema>;

/**
 * The card, for 'cartão de crédito' only: it is passed to the provider in the same request and never stored or logged
 * (issue 14). The holder's CEP and address number are what the provider's anti-fraud asks for.
 */
export const creditCardSchema = z.object({
  holderName: z.string().trim().min(3).max(120),
  number: z.string().max(32),
  expiryMonth: z.string().max(2),
  expiryYear: z.string().max(4),
  ccv: z.string().max(4),
  postalCode: z.string().max(16),
  addressNumber: z.string().trim().min(1).max(16),
});
export type CreditCardInput = z.infer<typeof creditCardSchema>;

/**
 * POST /api/patient/subscriptions (specification §7 create-subscription: plan_id, payment_method, customer_data),
 * with the terms version the patient accepted. Sent with an Idempotency-Key: a retry never charges twice.
 */
export const createSubscriptionRequestSchema = z.object({
  planId: z.uuid(),
  paymentMethod: z.enum(PAYMENT_METHODS),
  customerData: customerDataSchema,
  /** The id of the terms version shown at checkout; accepting it is required. */
  termsId: z.uuid(),
  acceptTerms: z.literal(true),
  creditCard: creditCardSchema.optional(),
});
export type CreateSubscriptionRequest = z.infer<typeof createSubscriptionRequestSchema>;

export const createSubscriptionResponseSchema = z.object({ subscription: subscriptionSchema, payment: paymentSchema });
export type CreateSubscriptionResponse = z.infer<typeof createSubscriptionResponseSchema>;

/** The clinic's current contract terms, shown at checkout (always stating the card is not a health plan). */
export const contractTermsSchema = z.object({
  id: z.uuid(),
  version: z.number().int(),
  body: z.string(),
  createdAt: isoInstant,
});
export type ContractTerms = z.infer<typeof contractTermsSchema>;
