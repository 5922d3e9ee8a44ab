import type { Subscription } from '@carteirinha/shared/contracts/subscriptions';
import type { subscriptionPlans, subscriptions } from '../../db/schema.ts';
import { toSubscriptionPlan } from '../subscription-plans/plan-view.ts';

/** A subscription's row with its plan's, as the contract shows it (the portal, checkout's answers). */
export function toSubscription(subscription: typeof subscriptions.$inferSelect, plan: typeof subscriptionPlans.$inferSelect): Subscription {
  return {
    id: subscription.id,
    status: subscription.status,
    expiresAt: subscription.expiresAt?.toISOString() ?? null,
    createdAt: subscription.createdAt.toISOString(),
    startedAt: subscription.startedAt?.toISOString() ?? null,
    benefitsStartAt: subscription.benefitsStartAt?.toISOString() ?? null,
    canceledAt: subscription.canceledAt?.toISOString() ?? null,
    amountCents: subscription.amountCents,
    paymentMethod: subscription.paymentMethod,
    plan: toSubscriptionPlan(plan),
  };
}
