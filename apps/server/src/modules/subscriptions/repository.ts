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
  if (!row) return null;
  return {
    id: row.subscription.id,
    status: row.subscription.status,
    expiresAt: row.subscription.expiresAt?.toISOString() ?? null,
    createdAt: row.subscription.createdAt.toISOString(),
    plan: toSubscriptionPlan(row.plan),
  };
}
