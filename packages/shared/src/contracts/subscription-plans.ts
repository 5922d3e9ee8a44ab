import { z } from 'zod';
import { messages } from '../messages.ts';

export const BILLING_CYCLES = ['monthly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** A clinic's plan for patients (DESIGN.md §2 `subscription_plans`). Money in integer cents. */
export const subscriptionPlanSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  /** The holder's price per cycle. */
  priceCents: z.number().int(),
  /** Added per covered dependent, per cycle. */
  dependentPriceCents: z.number().int(),
  /** Charged once, with the first charge; 0 = none. */
  adhesionFeeCents: z.number().int(),
  billingCycle: z.enum(BILLING_CYCLES),
  features: z.array(z.string()),
  /** Holder + dependents. */
  maxMembers: z.number().int(),
  /** Carência: days after the first payment before the discounts apply; 0 = at once. */
  waitingDays: z.number().int(),
  discounts: z.object({
    consultas: z.number().int(),
    exames: z.number().int(),
    procedimentos: z.number().int(),
  }),
  isActive: z.boolean(),
  /**
   * The starter plan a new clinic gets, until its owner has reviewed its price and saved it once (issue 25): it is not
   * on sale meanwhile. On sale = active and not awaiting review.
   */
  awaitingReview: z.boolean(),
});
export type SubscriptionPlan = z.infer<typeof subscriptionPlanSchema>;

export const subscriptionPlanListSchema = z.object({ items: z.array(subscriptionPlanSchema) });

/** A plan covers the holder and up to 19 dependents (issue 14). */
export const PLAN_MAX_MEMBERS_LIMIT = 20;
/** Carência longer than a year is not a discount card any more. */
export const PLAN_WAITING_DAYS_MAX = 365;
/** R$ 5,00: the smallest charge the providers take by Pix or boleto. */
export const PLAN_PRICE_MIN_CENTS = 500;
/** R$ 100.000,00: a typo guard, far above any real plan. */
export const PLAN_AMOUNT_MAX_CENTS = 10_000_000;

const m = messages.planForm;
const feeCents = z.number(m.feeInvalid).int(m.feeInvalid).min(0, m.feeInvalid).max(PLAN_AMOUNT_MAX_CENTS, m.feeMax);
const discountPercent = z.number(m.discountRange).int(m.discountRange).min(0, m.discountRange).max(100, m.discountRange);

/**
 * POST /api/clinic/subscription-plans and PUT /api/clinic/subscription-plans/:id: the plan form of /clinica/planos,
 * field by field with pt-BR messages; the web form validates with this same schema.
 */
export const subscriptionPlanFormSchema = z.object({
  name: z.string(m.nameRequired).trim().min(2, m.nameRequired).max(80, m.nameMax),
  /** Empty means none. */
  description: z.string().trim().max(500, m.descriptionMax),
  priceCents: z.number(m.priceInvalid).int(m.priceInvalid).min(PLAN_PRICE_MIN_CENTS, m.priceMin).max(PLAN_AMOUNT_MAX_CENTS, m.priceMax),
  dependentPriceCents: feeCents,
  adhesionFeeCents: feeCents,
  billingCycle: z.enum(BILLING_CYCLES),
  features: z.array(z.string().trim().min(1, m.featureRequired).max(120, m.featureMax)).max(20, m.featuresMax),
  maxMembers: z.number(m.maxMembersRange).int(m.maxMembersRange).min(1, m.maxMembersRange).max(PLAN_MAX_MEMBERS_LIMIT, m.maxMembersRange),
  discounts: z.object({ consultas: discountPercent, exames: discountPercent, procedimentos: discountPercent }),
  waitingDays: z.number(m.waitingDaysRange).int(m.waitingDaysRange).min(0, m.waitingDaysRange).max(PLAN_WAITING_DAYS_MAX, m.waitingDaysRange),
  isActive: z.boolean(),
});
export type SubscriptionPlanForm = z.input<typeof subscriptionPlanFormSchema>;
export type SubscriptionPlanFormOutput = z.output<typeof subscriptionPlanFormSchema>;
