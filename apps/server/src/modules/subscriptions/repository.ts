import { and, desc, eq } from 'drizzle-orm';
import type { Subscription } from '@carteirinha/shared/contracts/subscriptions';
import type { Database } from '../../db/client.ts';
import { subscriptionPlans, subscriptions } from '../../db/schema.ts';
import { toSubscription } from './subscription-view.ts';

type PatientScope = { clinicId: string; userId: string };
export type SubscriptionWithPlan = { subscription: typeof subscriptions.$inferSelect; plan: typeof subscriptionPlans.$inferSelect };

/**
 * The patient's newest subscription in their clinic with its plan row (specification §7: the one the portal shows and
 * checkout acts on), or null; with `lock`, the subscription row stays locked for the rest of the transaction.
 */
export async function findLatestSubscriptionRow(db: Database, scope: PatientScope, options: { lock: boolean } = { lock: false }): Promise<SubscriptionWithPlan | null> {
  const query = db
    .select({ subscription: subscriptions, plan: subscriptionPlans })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(and(eq(subscriptions.userId, scope.userId), eq(subscriptions.clinicId, scope.clinicId)))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  const [row] = options.lock ? await query.for('update', { of: subscriptions }) : await query;
  return row ?? null;
}

/** The patient's newest subscription in their clinic, as the contract shows it, or null. */
export async function findLatestSubscription(db: Database, scope: PatientScope): Promise<Subscription | null> {
  const row = await findLatestSubscriptionRow(db, scope);
  return row ? toSubscription(row.subscription, row.plan) : null;
}
