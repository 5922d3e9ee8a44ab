import { and, desc, eq } from 'drizzle-orm';
import type { Subscription } from '@carteirinha/shared/contracts/subscriptions';
import type { Database } from '../../db/client.ts';
import { subscriptionPlans, subscriptions } from '../../db/schema.ts';
import { toSubscriptionPlan } from '../subscription-plans/repository.ts';

/** The patient's newest subscription in their clinic, with its plan (specification §7), or null. */
export async function findLatestSubscription(db: Database, scope: { clinicId: string; userId: string }): Promise<Subscription | null> {
  const [row] = await db
    .select({ subscription: subscriptions, plan: subscriptionPlans })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(and(eq(subscriptions.userId, scope.userId), eq(subscriptions.clinicId, scope.clinicId)))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row ? toSubscription(row.subscription, row.plan) : null;
}

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
