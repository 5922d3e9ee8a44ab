import { z } from 'zod';
import { AUTO_RENEWAL_STATES } from './auto-renewal.ts';
import { messages } from '../messages.ts';
import { FULL_NAME_MAX_LENGTH, FULL_NAME_MIN_LENGTH } from '../constants.ts';
import { emailSchema } from './auth.ts';
import { PAYMENT_METHODS, paymentSchema, type PaymentMethod } from './payments.ts';
import { cardExpiryOf, cepSchema, cpfCnpjSchema, isCardExpired, passesLuhn, phoneSchema } from '../validators.ts';
import { digitsOnly } from '../format.ts';
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
const cc = messages.checkoutRules;

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

/** How a cancellation's refund stands: none was due; asked of the payment provider; given back in full. */
export const REFUND_STATUSES = ['none', 'processing', 'done'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * What a patient's cancellation decided and where its refund stands (issue 23): the protocol the receipt carries, the
 * refund decided (a withdrawal's: what was paid less the discounts received), how much of it came back so far.
 */
export const cancellationSummarySchema = z.object({
  protocol: z.string(),
  refundCents: z.number().int(),
  refundedCents: z.number().int(),
  refundStatus: z.enum(REFUND_STATUSES),
});
export type CancellationSummary = z.infer<typeof cancellationSummarySchema>;

/** The patient's own subscription, with its cancellation when they cancelled it. */
export const mySubscriptionSchema = subscriptionSchema.extend({
  cancellation: cancellationSummarySchema.nullable(),
  /** A company pays it directly (issue 26, 'Importar CSV'): nothing is charged through the platform until its date. */
  company: z.object({ name: z.string() }).nullable(),
  autoRenewal: z.enum(AUTO_RENEWAL_STATES),
});
export type MySubscription = z.infer<typeof mySubscriptionSchema>;

/** GET /api/patient/subscription: the newest subscription of the signed-in patient, or null. */
export const mySubscriptionResponseSchema = z.object({ subscription: mySubscriptionSchema.nullable() });

/**
 * Checkout's customer data (specification §3: name, email, cpfCnpj, phone). The CPF or CNPJ is checked by its digits;
 * stored and sent to the provider as digits (a CNPJ may carry letters from July 2026).
 */
export const customerDataSchema = z.object({
  name: z.string().trim().min(FULL_NAME_MIN_LENGTH, messages.validation.fullNameMin).max(FULL_NAME_MAX_LENGTH, messages.validation.fullNameMax),
  email: emailSchema,
  cpfCnpj: cpfCnpjSchema,
  /** Optional: an empty field is no phone. */
  phone: z.union([z.literal('').transform(() => undefined), phoneSchema]).optional(),
});
export type CustomerData = z.infer<typeof customerDataSchema>;

/**
 * The card, for 'cartão de crédito' only: it is passed to the provider in the same request and never stored or logged
 * (issue 14). The holder's CEP and address number are what the provider's anti-fraud asks for.
 */
export const creditCardSchema = z
  .object({
    holderName: z.string(cc.cardHolderInvalid).trim().min(3, cc.cardHolderInvalid).max(120, cc.cardHolderInvalid),
    number: z.string(cc.cardNumberInvalid).max(32, cc.cardNumberInvalid).transform(digitsOnly).refine(passesLuhn, cc.cardNumberInvalid),
    expiryMonth: z.string(cc.cardExpiryInvalid).max(2, cc.cardExpiryInvalid),
    expiryYear: z.string(cc.cardExpiryInvalid).max(4, cc.cardExpiryInvalid),
    ccv: z.string(cc.cardCvvInvalid).regex(/^\d{3,4}$/, cc.cardCvvInvalid),
    postalCode: cepSchema,
    addressNumber: z.string(cc.cardAddressNumberRequired).trim().min(1, cc.cardAddressNumberRequired).max(16, cc.cardAddressNumberRequired),
  })
  .superRefine((card, context) => {
    // The expiry is checked against the clock of whoever parses: the browser before sending, the server again.
    const expiry = cardExpiryOf(card.expiryMonth, card.expiryYear);
    if (!expiry) context.addIssue({ code: 'custom', path: ['expiryMonth'], message: cc.cardExpiryInvalid });
    else if (isCardExpired(expiry, new Date())) context.addIssue({ code: 'custom', path: ['expiryYear'], message: cc.cardExpired });
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
  acceptTerms: z.literal(true, messages.contractTerms.mustAccept),
  creditCard: creditCardSchema.optional(),
});
export type CreateSubscriptionRequest = z.infer<typeof createSubscriptionRequestSchema>;

/** Card data goes with 'cartão de crédito' only: required there, refused with Pix or boleto (never carried along). */
function cardOnlyForCards(body: { paymentMethod: PaymentMethod; creditCard?: unknown }, context: z.RefinementCtx): void {
  if (body.paymentMethod === 'credit_card' && body.creditCard === undefined) {
    context.addIssue({ code: 'custom', path: ['creditCard'], message: cc.cardRequired });
  }
  if (body.paymentMethod !== 'credit_card' && body.creditCard !== undefined) {
    context.addIssue({ code: 'custom', path: ['creditCard'], message: cc.cardNotAllowed });
  }
}

/**
 * The checkout body as the server takes it (and the dialog may validate with): `createSubscriptionRequestSchema` plus
 * the card-only-for-cards rule. Kept apart so the plain object schema can still be picked and extended.
 */
export const checkoutRequestSchema = createSubscriptionRequestSchema.superRefine(cardOnlyForCards);

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

/** PUT /api/clinic/terms: a new version of the clinic's terms, which must say the card is not a health plan. */
export const contractTermsUpdateSchema = z.object({
  body: z
    .string(messages.contractTerms.bodyMin)
    .trim()
    .min(200, messages.contractTerms.bodyMin)
    .max(20_000, messages.contractTerms.bodyMax)
    .refine((body) => /não é plano de saúde/i.test(body), messages.contractTerms.mustSayNotHealthPlan),
});
export type ContractTermsUpdate = z.infer<typeof contractTermsUpdateSchema>;

/** PUT /api/patient/subscription/payment-method: how the next charges (and the open one) are paid. */
export const changePaymentMethodRequestSchema = z
  .object({ paymentMethod: z.enum(PAYMENT_METHODS), creditCard: creditCardSchema.optional() })
  .superRefine(cardOnlyForCards);
export type ChangePaymentMethodRequest = z.infer<typeof changePaymentMethodRequestSchema>;

/** The answer of a method change: the subscription and the charge to pay now, if one is open. */
export const changePaymentMethodResponseSchema = z.object({ subscription: subscriptionSchema, payment: paymentSchema.nullable() });

/** Which rule a cancellation follows (the rules are in the terms; the screen shows the one that applies). */
export const CANCELLATION_KINDS = ['freeWithdrawal', 'endOfPaidPeriod', 'unpaid'] as const;
export type CancellationKind = (typeof CANCELLATION_KINDS)[number];

/**
 * GET /api/patient/subscription/cancellation: what cancelling now would do. Within 7 days of contracting (CDC art. 49)
 * the subscription ends at once and what was paid comes back minus the discounts already received on visits (never
 * below zero); later, nothing more is charged and the benefits last until `benefitsUntil`.
 */
export const cancellationPreviewSchema = z.object({
  kind: z.enum(CANCELLATION_KINDS),
  freeWithdrawal: z.boolean(),
  /** The last instant of the free-withdrawal period. */
  withdrawalEndsAt: isoInstant,
  /** What the paid charges came to. */
  paidCents: z.number().int(),
  /** The discounts the cards gave on visits (visits called off excepted), kept back from a withdrawal's refund. */
  discountsCents: z.number().int(),
  refundCents: z.number().int(),
  /** Until when the card keeps working; null when it ends at once. */
  benefitsUntil: isoInstant.nullable(),
  /** The rule in pt-BR, as the terms word it. */
  rule: z.string(),
});
export type CancellationPreview = z.infer<typeof cancellationPreviewSchema>;

/** POST /api/patient/subscription/cancel. */
export const cancelSubscriptionResponseSchema = z.object({
  subscription: subscriptionSchema,
  refundCents: z.number().int(),
  /** The protocol number the receipt e-mail carries. */
  protocol: z.string(),
});
export type CancelSubscriptionResponse = z.infer<typeof cancelSubscriptionResponseSchema>;

/**
 * PUT /api/patient/subscription/auto-renewal (Meu Perfil's 'Renovação automática'): off ends the plan at the date paid
 * for, with no refund and nothing more charged; on again, while that date has not come, renews it as before. Turning it
 * on for a card charged by a gateway asks the card again (it was never stored).
 */
export const autoRenewalRequestSchema = z.object({
  enabled: z.boolean(messages.autoRenewal.choiceRequired),
  creditCard: creditCardSchema.optional(),
});
export type AutoRenewalRequest = z.input<typeof autoRenewalRequestSchema>;
