import { z } from 'zod';

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
});
export type SubscriptionPlan = z.infer<typeof subscriptionPlanSchema>;

export const subscriptionPlanListSchema = z.object({ items: z.array(subscriptionPlanSchema) });
