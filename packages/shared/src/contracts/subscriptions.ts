import { z } from 'zod';
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

export const subscriptionSchema = z.object({
  id: z.uuid(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  plan: subscriptionPlanSchema,
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** GET /api/patient/subscription: the newest subscription of the signed-in patient, or null. */
export const mySubscriptionResponseSchema = z.object({ subscription: subscriptionSchema.nullable() });
