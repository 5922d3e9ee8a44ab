import { and, desc, eq, sql, sum } from 'drizzle-orm';
import type { CancellationSummary } from '@carteirinha/shared/contracts/subscriptions';
import type { Database } from '../../db/client.ts';
import { auditLog, companyMemberships, payments, subscriptionPlans, subscriptions } from '../../db/schema.ts';

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


/**
 * A patient's cancellation as the lifecycle recorded it (the 'subscription.canceled' audit: protocol, refund decided)
 * and the refunds the provider has confirmed so far on the subscription's charges; null when the patient did not
 * cancel it themself.
 */
export async function findCancellationSummary(db: Database, subscriptionId: string): Promise<CancellationSummary | null> {
  const [record] = await db
    .select({ details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'subscription'), eq(auditLog.entityId, subscriptionId), eq(auditLog.action, 'subscription.canceled')))
    .orderBy(desc(auditLog.createdAt))
    .limit(1);
  const protocol = record?.details?.['protocol'];
  const decided = record?.details?.['refundCents'];
  if (typeof protocol !== 'string') return null;
  const refundCents = typeof decided === 'number' ? decided : 0;
  // A charge refunded in full keeps refunded_cents empty (its amount came back); a partial refund records its part.
  const [refunded] = await db
    .select({ total: sum(sql<number>`case when ${payments.status} = 'refunded' then coalesce(${payments.refundedCents}, ${payments.amountCents}) else 0 end`).mapWith(Number) })
    .from(payments)
    .where(eq(payments.subscriptionId, subscriptionId));
  const refundedCents = refunded?.total ?? 0;
  const refundStatus = refundCents === 0 ? 'none' : refundedCents >= refundCents ? 'done' : 'processing';
  return { protocol, refundCents, refundedCents, refundStatus };
}

/** The company that pays a company-paid membership (issue 26), as the patient reads it. */
export async function findPayingCompany(db: Database, companyMembershipId: string): Promise<{ name: string } | null> {
  const [row] = await db.select({ name: companyMemberships.companyName }).from(companyMemberships).where(eq(companyMemberships.id, companyMembershipId)).limit(1);
  return row ?? null;
}
