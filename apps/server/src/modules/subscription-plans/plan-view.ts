import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import type { subscriptionPlans } from '../../db/schema.ts';

type PlanRow = typeof subscriptionPlans.$inferSelect;

/** A plan's row as the contract shows it: the plans module's own answers, and a subscription's plan (subscriptions). */
export function toSubscriptionPlan(row: PlanRow): SubscriptionPlan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priceCents: row.priceCents,
    dependentPriceCents: row.dependentPriceCents,
    adhesionFeeCents: row.adhesionFeeCents,
    billingCycle: row.billingCycle,
    features: row.features,
    maxMembers: row.maxMembers,
    waitingDays: row.waitingDays,
    discounts: { consultas: row.discountConsultas, exames: row.discountExames, procedimentos: row.discountProcedimentos },
    isActive: row.isActive,
    awaitingReview: row.awaitingReview,
  };
}
