/**
 * The one owner of a subscription's lifecycle (ADR 013, "States and events"). Every change of a subscription's status
 * or paid-through date goes through a transition here: checkout's reservation, a payment settled (activation,
 * renewal, re-activation), a charge overdue, a deleted charge released, the grace ended, a refund or chargeback, the
 * provider ending it, the patient's withdrawal or cancellation, the expiry, a change of plan, a dependent added or
 * removed. Each transition runs inside the caller's transaction with the subscription's row locked (the lock is taken
 * here, before any charge's: one order, so concurrent events queue instead of deadlocking), writes its audit row, and
 * hands its follow-ups (cards, provider calls, e-mails) to their owners as durable jobs in the same transaction.
 */
import { and, count, eq, inArray, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm';
import { GRACE_DAYS_DEFAULT } from '@carteirinha/shared/contracts/payments';
import type { SubscriptionStatus } from '@carteirinha/shared/contracts/subscriptions';
import type { Database } from '../../db/client.ts';
import { auditLog, clinicSettings, dependents, payments, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import { saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { benefitsEndOf } from './benefits.ts';
import { CARD_WORK_QUEUE, enqueueFollowUps, PATIENT_NOTICE_QUEUE, PROVIDER_WORK_QUEUE, type FollowUp, type FollowUpQueue } from './follow-ups.ts';
import { addDaysToInstant, laterOf, shiftByCycles } from './periods.ts';
import { findLatestSubscriptionRow, type SubscriptionWithPlan } from './repository.ts';

export type { SubscriptionWithPlan };

export type SubscriptionRow = typeof subscriptions.$inferSelect;
type Plan = { id: string; name: string; billingCycle: 'monthly' | 'yearly'; waitingDays: number; priceCents: number; dependentPriceCents: number; maxMembers: number };

/** Where a transition runs: the caller's transaction, the runner that takes its follow-ups, its clock and its cause. */
export type LifecycleContext = {
  tx: Database;
  jobs: FollowUpQueue;
  now: Date;
  /** What caused it, for the audit trail: `asaas:<event id>`, `reconciliation:…`, `delinquency`, `checkout`, … */
  source: string;
  /** The person who acted (a patient cancelling, a clinic admin); null for a provider or a job. */
  actorUserId: string | null;
};

/** The audit entry every transition writes (who: the actor or the system; what: `subscription.*` or `payment.*`). */
async function audit(ctx: LifecycleContext, entry: { action: string; entity: 'subscription' | 'payment'; entityId: string; clinicId: string; details: Record<string, unknown> }): Promise<void> {
  await ctx.tx.insert(auditLog).values({ actorUserId: ctx.actorUserId, ...entry, details: { source: ctx.source, ...entry.details } });
}

async function handOver(ctx: LifecycleContext, followUps: FollowUp[]): Promise<FollowUp[]> {
  await enqueueFollowUps(ctx.jobs, ctx.tx, followUps);
  return followUps;
}

/**
 * Locks the subscription's row for the rest of the transaction. Every writer of a subscription or of its charges
 * takes this lock first (and a charge's row after it): two events about charges of one subscription then wait for
 * each other instead of each holding the charge's foreign-key share lock and asking for the other's (issue 22).
 */
export async function lockSubscription(tx: Database, subscriptionId: string): Promise<SubscriptionRow | null> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update').limit(1);
  return row ?? null;
}

/**
 * The patient's change of payment method ('Alterar forma de pagamento'): the method, and the provider's subscription
 * when checkout made a new one there. Not a change of status, but a write of the subscription like the others: its
 * row is locked here, before the caller touches any of its charges (the one lock order).
 */
export async function changePaymentMethod(
  tx: Database,
  subscription: Pick<SubscriptionRow, 'id' | 'clinicId'>,
  change: { paymentMethod: SubscriptionRow['paymentMethod']; provider?: string; providerSubscriptionId?: string },
): Promise<void> {
  await lockSubscription(tx, subscription.id);
  await tx
    .update(subscriptions)
    .set({ paymentMethod: change.paymentMethod, ...(change.provider ? { provider: change.provider } : {}), ...(change.providerSubscriptionId ? { providerSubscriptionId: change.providerSubscriptionId } : {}) })
    .where(and(eq(subscriptions.id, subscription.id), eq(subscriptions.clinicId, subscription.clinicId)));
}

/**
 * The patient's current subscription (their newest in the clinic) with its plan, as the transitions act on it; with
 * `lock`, its row is locked for the rest of the transaction, as a transition needs (checkout's cancellation, the
 * change of payment method).
 */
export function latestSubscriptionOf(db: Database, scope: { clinicId: string; userId: string }, options: { lock: boolean } = { lock: false }): Promise<SubscriptionWithPlan | null> {
  return findLatestSubscriptionRow(db, scope, options);
}

async function planOf(tx: Database, planId: string): Promise<Plan> {
  const [plan] = await tx
    .select({
      id: subscriptionPlans.id,
      name: subscriptionPlans.name,
      billingCycle: subscriptionPlans.billingCycle,
      waitingDays: subscriptionPlans.waitingDays,
      priceCents: subscriptionPlans.priceCents,
      dependentPriceCents: subscriptionPlans.dependentPriceCents,
      maxMembers: subscriptionPlans.maxMembers,
    })
    .from(subscriptionPlans)
    .where(eq(subscriptionPlans.id, planId))
    .limit(1);
  if (!plan) throw new Error(`plan ${planId} not found`);
  return plan;
}

export async function graceDaysOf(tx: Database, clinicId: string): Promise<number> {
  const [row] = await tx.select({ graceDays: clinicSettings.graceDays }).from(clinicSettings).where(eq(clinicSettings.clinicId, clinicId)).limit(1);
  return row?.graceDays ?? GRACE_DAYS_DEFAULT;
}

/** Other charges of the subscription still overdue: paying one charge does not clear another's debt. */
async function otherOverdueCharges(tx: Database, subscriptionId: string, exceptPaymentId: string): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(payments)
    .where(and(eq(payments.subscriptionId, subscriptionId), eq(payments.status, 'overdue'), ne(payments.id, exceptPaymentId)));
  return row?.total ?? 0;
}

function isEnded(subscription: SubscriptionRow): boolean {
  return subscription.status === 'canceled' || subscription.canceledAt !== null;
}

/** The charge a transition is about, as the ledger holds it. */
export type ChargeFacts = { id: string; clinicId: string; amountCents: number; dueDate: string; periodStart: string | null };

// ---------------------------------------------------------------------------------------------------------------
// Checkout
// ---------------------------------------------------------------------------------------------------------------

export type Reservation = { clinicId: string; userId: string; planId: string; amountCents: number; paymentMethod: SubscriptionRow['paymentMethod']; provider: string };

/** checkout: a `pending` subscription reserved before the provider is called (under the clinic's checkout lock). */
export async function reserve(ctx: LifecycleContext, reservation: Reservation): Promise<SubscriptionRow> {
  const [row] = await ctx.tx
    .insert(subscriptions)
    .values({ ...reservation, status: 'pending', createdAt: ctx.now })
    .returning();
  if (!row) throw new Error('subscription not reserved');
  return row;
}

/** checkout: the provider made the recurring subscription; its ids are recorded on the reservation. */
export async function attachProvider(ctx: LifecycleContext, subscription: Pick<SubscriptionRow, 'id' | 'clinicId'>, ids: { customerId: string; providerSubscriptionId: string }): Promise<void> {
  await ctx.tx
    .update(subscriptions)
    .set({ providerCustomerId: ids.customerId, providerSubscriptionId: ids.providerSubscriptionId, updatedAt: ctx.now })
    .where(and(eq(subscriptions.id, subscription.id), eq(subscriptions.clinicId, subscription.clinicId)));
}

/** checkout: a reservation whose charge never came to be is undone (the provider failed, or recording did). */
export async function release(ctx: LifecycleContext, subscription: Pick<SubscriptionRow, 'id' | 'clinicId'>): Promise<void> {
  await ctx.tx.delete(subscriptions).where(and(eq(subscriptions.id, subscription.id), eq(subscriptions.clinicId, subscription.clinicId), eq(subscriptions.status, 'pending')));
}

// ---------------------------------------------------------------------------------------------------------------
// A company pays (issue 26, 'Importar CSV')
// ---------------------------------------------------------------------------------------------------------------

export type CompanyEnrolment = { clinicId: string; planId: string; companyMembershipId: string; userIds: string[]; expiresAt: Date };

/**
 * company-paid membership: the clinic recorded that a company pays it directly for these people. Each gets an `active`
 * subscription at once — no charge through the platform (no provider, no amount), no carência — paid through the
 * company's valid-until date, where the benefits end exactly (benefits.ts) and the expiry job ends it (`expired`,
 * as any subscription with no renewal). Follow-ups: every person's card, as on any activation.
 */
export async function enrolByCompany(ctx: LifecycleContext, enrolment: CompanyEnrolment): Promise<SubscriptionRow[]> {
  if (enrolment.userIds.length === 0) return [];
  const rows = await ctx.tx
    .insert(subscriptions)
    .values(
      enrolment.userIds.map((userId) => ({
        clinicId: enrolment.clinicId,
        userId,
        planId: enrolment.planId,
        companyMembershipId: enrolment.companyMembershipId,
        status: 'active' as const,
        startedAt: ctx.now,
        benefitsStartAt: ctx.now,
        expiresAt: enrolment.expiresAt,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })),
    )
    .returning();
  await ctx.tx.insert(auditLog).values(
    rows.map((row) => ({
      actorUserId: ctx.actorUserId,
      action: 'subscription.company_paid',
      entity: 'subscription',
      entityId: row.id,
      clinicId: row.clinicId,
      details: { source: ctx.source, companyMembershipId: enrolment.companyMembershipId, expiresAt: enrolment.expiresAt.toISOString() },
    })),
  );
  await handOver(
    ctx,
    rows.map((row) => ({ queue: CARD_WORK_QUEUE, work: { kind: 'issue', subscriptionId: row.id } })),
  );
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// Money in: settlement (activation, renewal, re-activation)
// ---------------------------------------------------------------------------------------------------------------

export type SettlementOutcome =
  | { kind: 'paidAfterCancellation' }
  | { kind: 'activated' | 'renewed' | 'reactivated'; periodStart: string; periodEnd: string; expiresAt: Date };

/**
 * Where the cycle a payment buys starts: at the subscription's paid-through date (issue 22: a charge refunded before
 * it was paid never counts, so the next payment extends one cycle, not two). A subscription never paid, or one that
 * lapsed and expired, starts where the charge's own period starts (its due day), or the day it was paid.
 */
function cycleStartOf(subscription: SubscriptionRow, charge: ChargeFacts, paidAt: Date): Date {
  const chargeStart = charge.periodStart ? saoPauloMidnight(charge.periodStart) : paidAt;
  if (subscription.expiresAt === null) return chargeStart;
  if (subscription.status === 'expired') return laterOf(subscription.expiresAt, chargeStart);
  return subscription.expiresAt;
}

/**
 * payment settled: the first time a charge is paid (ADR 013 *Settlement*). The subscription becomes active
 * (overdue if another charge is still overdue) and is paid through one more cycle from its paid-through date; the
 * first payment starts it and its carência. Money for a subscription already ended extends nothing and is refunded.
 * Follow-ups: the cards of everyone covered (on activation and re-activation), the 'Pagamento confirmado' e-mail, or
 * the automatic refund.
 */
export async function settle(ctx: LifecycleContext, subscription: SubscriptionRow, charge: ChargeFacts, paidAt: Date): Promise<SettlementOutcome> {
  const plan = await planOf(ctx.tx, subscription.planId);
  if (isEnded(subscription)) {
    await audit(ctx, { action: 'payment.paid_after_cancellation', entity: 'payment', entityId: charge.id, clinicId: charge.clinicId, details: { subscriptionId: subscription.id, refund: 'automatic' } });
    await handOver(ctx, [{ queue: PROVIDER_WORK_QUEUE, work: { kind: 'refundCharge', paymentId: charge.id, amountCents: null, reason: 'paidAfterCancellation', source: ctx.source } }]);
    return { kind: 'paidAfterCancellation' };
  }
  const start = cycleStartOf(subscription, charge, paidAt);
  const expiresAt = shiftByCycles(start, plan.billingCycle, 1);
  const benefitsStartAt = subscription.benefitsStartAt ?? addDaysToInstant(paidAt, plan.waitingDays);
  const stillOwing = (await otherOverdueCharges(ctx.tx, subscription.id, charge.id)) > 0;
  const status: SubscriptionStatus = stillOwing ? 'overdue' : 'active';
  await ctx.tx
    .update(subscriptions)
    .set({ status, expiresAt, startedAt: subscription.startedAt ?? paidAt, benefitsStartAt, updatedAt: ctx.now })
    .where(eq(subscriptions.id, subscription.id));
  const kind = subscription.startedAt === null ? 'activated' : subscription.status === 'expired' ? 'reactivated' : 'renewed';
  await audit(ctx, {
    action: 'payment.settled',
    entity: 'payment',
    entityId: charge.id,
    clinicId: charge.clinicId,
    details: { subscriptionId: subscription.id, from: subscription.status, to: status, transition: kind, expiresAt: expiresAt.toISOString() },
  });
  const followUps: FollowUp[] = [
    {
      queue: PATIENT_NOTICE_QUEUE,
      notice: { kind: 'confirmed', userId: subscription.userId, planName: plan.name, amountCents: charge.amountCents, expiresAt, benefitsStartAt, now: ctx.now },
      key: `confirmed:${charge.id}`,
    },
  ];
  // Every person covered has their card (for life) pointed at this subscription; idempotent, so a renewal asks nothing.
  if (kind !== 'renewed') followUps.unshift({ queue: CARD_WORK_QUEUE, work: { kind: 'issue', subscriptionId: subscription.id } });
  await handOver(ctx, followUps);
  return { kind, periodStart: saoPauloDay(start), periodEnd: saoPauloDay(expiresAt), expiresAt };
}

// ---------------------------------------------------------------------------------------------------------------
// Delinquency
// ---------------------------------------------------------------------------------------------------------------

/** overdue: a charge went late. The subscription is overdue (the cards go on within the grace: benefits.ts). */
export async function markOverdue(ctx: LifecycleContext, subscription: SubscriptionRow, charge: ChargeFacts): Promise<void> {
  if (subscription.status !== 'active' && subscription.status !== 'pending' && subscription.status !== 'overdue') return;
  if (subscription.canceledAt !== null) return;
  if (subscription.status !== 'overdue') {
    await ctx.tx.update(subscriptions).set({ status: 'overdue', updatedAt: ctx.now }).where(eq(subscriptions.id, subscription.id));
    await audit(ctx, { action: 'subscription.overdue', entity: 'subscription', entityId: subscription.id, clinicId: subscription.clinicId, details: { paymentId: charge.id, from: subscription.status } });
  }
  const plan = await planOf(ctx.tx, subscription.planId);
  const benefitsUntil = subscription.expiresAt ? benefitsEndOf(subscription, await graceDaysOf(ctx.tx, subscription.clinicId)) : null;
  await handOver(ctx, [
    {
      queue: PATIENT_NOTICE_QUEUE,
      notice: { kind: 'overdue', userId: subscription.userId, planName: plan.name, amountCents: charge.amountCents, dueDate: charge.dueDate, benefitsUntil },
      key: `overdue:${charge.id}`,
    },
  ]);
}

/** charge deleted: it no longer owes anything; an overdue subscription with no other overdue charge is back. */
export async function releaseDeletedCharge(ctx: LifecycleContext, subscription: SubscriptionRow, charge: ChargeFacts): Promise<void> {
  if (subscription.status !== 'overdue') return;
  if ((await otherOverdueCharges(ctx.tx, subscription.id, charge.id)) > 0) return;
  const status: SubscriptionStatus = subscription.startedAt ? 'active' : 'pending';
  await ctx.tx.update(subscriptions).set({ status, updatedAt: ctx.now }).where(eq(subscriptions.id, subscription.id));
  await audit(ctx, { action: 'subscription.overdue_cleared', entity: 'subscription', entityId: subscription.id, clinicId: subscription.clinicId, details: { paymentId: charge.id, to: status } });
}

const SUSPENDED_ACTION = 'subscription.benefits_suspended';

/**
 * grace ended: an overdue subscription past its paid-through date plus the clinic's grace. No status is written (the
 * cards stop by the dates alone, so paying restores them at once); the patient is told once per unpaid period, the
 * audit row per paid-through date being the record. Answers whether it was this call that told them.
 */
export async function noticeGraceEnded(ctx: LifecycleContext, subscription: SubscriptionRow): Promise<boolean> {
  if (subscription.status !== 'overdue' || subscription.canceledAt !== null || !subscription.expiresAt) return false;
  const end = benefitsEndOf(subscription, await graceDaysOf(ctx.tx, subscription.clinicId));
  if (!end || end.getTime() > ctx.now.getTime()) return false;
  const period = subscription.expiresAt.toISOString();
  const [already] = await ctx.tx
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'subscription'), eq(auditLog.entityId, subscription.id), eq(auditLog.action, SUSPENDED_ACTION), sql`${auditLog.details}->>'expiresAt' = ${period}`))
    .limit(1);
  if (already) return false;
  const [charge] = await ctx.tx
    .select({ amountCents: payments.amountCents, dueDate: payments.dueDate })
    .from(payments)
    .where(and(eq(payments.subscriptionId, subscription.id), eq(payments.status, 'overdue')))
    .orderBy(payments.dueDate)
    .limit(1);
  await audit(ctx, { action: SUSPENDED_ACTION, entity: 'subscription', entityId: subscription.id, clinicId: subscription.clinicId, details: { expiresAt: period, benefitsEndedAt: end.toISOString() } });
  if (!charge) return false;
  const plan = await planOf(ctx.tx, subscription.planId);
  await handOver(ctx, [
    {
      queue: PATIENT_NOTICE_QUEUE,
      notice: { kind: 'suspended', userId: subscription.userId, planName: plan.name, amountCents: charge.amountCents, dueDate: charge.dueDate },
      key: `suspended:${subscription.id}:${period}`,
    },
  ]);
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Money back: refund and chargeback
// ---------------------------------------------------------------------------------------------------------------

/**
 * refund / chargeback of a paid charge: its cycle is taken back (paid-through one cycle earlier). If that leaves the
 * subscription unpaid now, a refund ends it ('canceled': the clinic gave the money back, and the provider's recurring
 * subscription is cancelled by a job) and a chargeback makes it overdue (the dispute may be reversed; paying again
 * restores it). A charge paid after cancellation never extended anything, so taking it back takes nothing back.
 */
export async function reverse(ctx: LifecycleContext, subscription: SubscriptionRow, charge: ChargeFacts, reason: 'refund' | 'chargeback', paidAfterCancellation: boolean): Promise<void> {
  const action = reason === 'refund' ? 'payment.refunded' : 'payment.charged_back';
  if (paidAfterCancellation) {
    await audit(ctx, { action, entity: 'payment', entityId: charge.id, clinicId: charge.clinicId, details: { subscriptionId: subscription.id, paidAfterCancellation: true } });
    return;
  }
  if (!subscription.expiresAt) return;
  const plan = await planOf(ctx.tx, subscription.planId);
  const expiresAt = shiftByCycles(subscription.expiresAt, plan.billingCycle, -1);
  const stillPaid = expiresAt.getTime() > ctx.now.getTime();
  const ended = subscription.status === 'canceled' || subscription.status === 'expired';
  let status: SubscriptionStatus = subscription.status;
  if (!ended && !stillPaid) status = reason === 'refund' ? 'canceled' : 'overdue';
  const endsHere = status === 'canceled' && subscription.status !== 'canceled';
  await ctx.tx
    .update(subscriptions)
    .set({
      expiresAt,
      status,
      ...(endsHere ? { canceledAt: subscription.canceledAt ?? ctx.now, cancelReason: subscription.cancelReason ?? 'refunded' } : {}),
      updatedAt: ctx.now,
    })
    .where(eq(subscriptions.id, subscription.id));
  // Not when it was already ended (the patient's cancellation or the provider itself stopped the charges).
  const cancelAtProvider = endsHere && subscription.canceledAt === null && subscription.providerSubscriptionId !== null;
  if (cancelAtProvider) await handOver(ctx, [{ queue: PROVIDER_WORK_QUEUE, work: { kind: 'cancelSubscription', subscriptionId: subscription.id, source: ctx.source } }]);
  await audit(ctx, {
    action,
    entity: 'payment',
    entityId: charge.id,
    clinicId: charge.clinicId,
    details: { subscriptionId: subscription.id, from: subscription.status, to: status, expiresAt: expiresAt.toISOString(), cancelAtProvider },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The end: the provider, the patient, the calendar
// ---------------------------------------------------------------------------------------------------------------

/**
 * ended by the provider (SUBSCRIPTION_INACTIVATED / _DELETED): no more charges. One paid through a future date runs
 * until then (canceled_at set; the expiry ends it); one never paid, or already unpaid, ends now.
 */
export async function endByProvider(ctx: LifecycleContext, subscription: SubscriptionRow): Promise<boolean> {
  if (subscription.status === 'canceled' || subscription.status === 'expired') return false;
  const runsOn = subscription.status === 'active' && subscription.expiresAt !== null && subscription.expiresAt.getTime() > ctx.now.getTime();
  await ctx.tx
    .update(subscriptions)
    .set({ canceledAt: subscription.canceledAt ?? ctx.now, cancelReason: subscription.cancelReason ?? 'provider', status: runsOn ? subscription.status : 'canceled', updatedAt: ctx.now })
    .where(eq(subscriptions.id, subscription.id));
  await audit(ctx, { action: 'subscription.ended_by_provider', entity: 'subscription', entityId: subscription.id, clinicId: subscription.clinicId, details: { runsUntil: runsOn ? subscription.expiresAt?.toISOString() : null } });
  return true;
}

/** How a patient's cancellation ends (the rules the terms state and the screen shows before confirming). */
export type CancellationDecision = {
  kind: 'unpaid' | 'freeWithdrawal' | 'endOfPaidPeriod';
  /** The refunds of the 7-day withdrawal, charge by charge (what was paid minus the discounts received). */
  refunds: { paymentId: string; amountCents: number }[];
  refundCents: number;
  /** Until when the benefits last; null: they end now. */
  benefitsUntil: Date | null;
  protocol: string;
  details: Record<string, unknown>;
};

/**
 * withdrawal / cancellation by the patient. Within 7 days (CDC art. 49) or never paid it ends now; later it stays
 * `active` with canceled_at set until the paid-through date (the expiry then ends it). Follow-ups: the provider stops
 * the recurring subscription, the withdrawal's refunds are made there, and the patient gets the receipt.
 */
export async function cancelByPatient(ctx: LifecycleContext, subscription: SubscriptionRow, decision: CancellationDecision): Promise<void> {
  const endsNow = decision.benefitsUntil === null;
  const reason = decision.kind === 'freeWithdrawal' ? 'withdrawal' : 'patient';
  await ctx.tx
    .update(subscriptions)
    .set({ canceledAt: ctx.now, cancelReason: reason, ...(endsNow ? { status: 'canceled' as const } : {}), updatedAt: ctx.now })
    .where(eq(subscriptions.id, subscription.id));
  await audit(ctx, {
    action: 'subscription.canceled',
    entity: 'subscription',
    entityId: subscription.id,
    clinicId: subscription.clinicId,
    details: { protocol: decision.protocol, kind: decision.kind, refundCents: decision.refundCents, benefitsUntil: decision.benefitsUntil?.toISOString() ?? null, ...decision.details },
  });
  const plan = await planOf(ctx.tx, subscription.planId);
  const followUps: FollowUp[] = [];
  if (subscription.providerSubscriptionId) followUps.push({ queue: PROVIDER_WORK_QUEUE, work: { kind: 'cancelSubscription', subscriptionId: subscription.id, source: ctx.source } });
  for (const refund of decision.refunds) {
    followUps.push({ queue: PROVIDER_WORK_QUEUE, work: { kind: 'refundCharge', paymentId: refund.paymentId, amountCents: refund.amountCents, reason: 'withdrawal', source: ctx.source } });
  }
  followUps.push({
    queue: PATIENT_NOTICE_QUEUE,
    notice: {
      kind: 'cancellationReceipt',
      userId: subscription.userId,
      planName: plan.name,
      amountCents: subscription.amountCents ?? plan.priceCents,
      protocol: decision.protocol,
      canceledAt: ctx.now,
      refundCents: decision.refundCents,
      benefitsUntil: decision.benefitsUntil,
    },
    key: `cancellation:${subscription.id}`,
  });
  await handOver(ctx, followUps);
}

/** A subscription that holds the patient's place: one at a time per patient (and what max_patients counts). */
export const OPEN_SUBSCRIPTION_STATUSES = ['pending', 'active', 'overdue'] as const;

/**
 * expiry (the hourly delinquency job): past their paid-through date, subscriptions cancelled earlier end
 * (`canceled`), and those with no charge open for the next cycle (no renewal was made) expire (`expired`). One with an
 * open renewal charge stays: that charge's due date and the grace decide.
 */
export async function expireDue(ctx: LifecycleContext): Promise<{ canceled: number; expired: number }> {
  const hasOpenCharge = sql`exists (select 1 from ${payments} where ${payments.subscriptionId} = ${subscriptions.id} and ${inArray(payments.status, ['pending', 'overdue'])})`;
  const canceled = await ctx.tx
    .update(subscriptions)
    .set({ status: 'canceled', updatedAt: ctx.now })
    .where(and(eq(subscriptions.status, 'active'), isNotNull(subscriptions.canceledAt), lte(subscriptions.expiresAt, ctx.now)))
    .returning({ id: subscriptions.id, clinicId: subscriptions.clinicId });
  const expired = await ctx.tx
    .update(subscriptions)
    .set({ status: 'expired', updatedAt: ctx.now })
    .where(and(eq(subscriptions.status, 'active'), isNull(subscriptions.canceledAt), lte(subscriptions.expiresAt, ctx.now), sql`not ${hasOpenCharge}`))
    .returning({ id: subscriptions.id, clinicId: subscriptions.clinicId });
  const ended = [...canceled.map((row) => ({ ...row, to: 'canceled' })), ...expired.map((row) => ({ ...row, to: 'expired' }))];
  if (ended.length > 0) {
    await ctx.tx.insert(auditLog).values(ended.map((row) => ({ actorUserId: null, action: `subscription.${row.to}`, entity: 'subscription', entityId: row.id, clinicId: row.clinicId, details: { source: ctx.source } })));
  }
  return { canceled: canceled.length, expired: expired.length };
}

// ---------------------------------------------------------------------------------------------------------------
// What the patient portal changes: the plan, the dependents
// ---------------------------------------------------------------------------------------------------------------

export class LifecycleRefusal extends Error {
  constructor(readonly reason: 'notLive' | 'sameOrUnknownPlan' | 'noRoomForDependent' | 'notDependentOfHolder') {
    super(reason);
    this.name = 'LifecycleRefusal';
  }
}

function isLive(subscription: SubscriptionRow): boolean {
  return (subscription.status === 'active' || subscription.status === 'overdue' || subscription.status === 'pending') && subscription.canceledAt === null;
}

async function coveredDependents(tx: Database, subscription: SubscriptionRow): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(dependents)
    .where(and(eq(dependents.holderUserId, subscription.userId), eq(dependents.clinicId, subscription.clinicId), isNull(dependents.removedAt)));
  return row?.total ?? 0;
}

/** The holder's own dependent in this clinic (another holder's, or another clinic's, is no dependent of theirs). */
async function ownDependent(tx: Database, subscription: SubscriptionRow, dependentId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: dependents.id })
    .from(dependents)
    .where(and(eq(dependents.id, dependentId), eq(dependents.holderUserId, subscription.userId), eq(dependents.clinicId, subscription.clinicId)))
    .limit(1);
  return row !== undefined;
}

/**
 * The price of each cycle for the holder and `dependentCount` dependents (those beyond the plan's room cost nothing:
 * they are not covered). Meu Perfil shows it before the patient confirms, from this same rule.
 */
export function cycleAmountOf(plan: Pick<Plan, 'priceCents' | 'dependentPriceCents' | 'maxMembers'>, dependentCount: number): number {
  return plan.priceCents + plan.dependentPriceCents * Math.min(dependentCount, Math.max(0, plan.maxMembers - 1));
}

/**
 * The price of each cycle once the covered dependents went from `before` to `after`: the contracted amount moves by
 * the plan's dependent price for each billable dependent gained or lost, so the holder's part keeps the price they
 * contracted when the clinic has changed the plan's price since (amount_cents is kept then: ADR 013). A plan a company
 * pays (issue 26) has no amount, and adding or removing a dependent gives it none.
 */
export function amountAfterDependents(contracted: number | null, plan: Pick<Plan, 'priceCents' | 'dependentPriceCents' | 'maxMembers'>, before: number, after: number): number | null {
  if (contracted === null) return null;
  const billable = (count: number) => Math.min(count, Math.max(0, plan.maxMembers - 1));
  return Math.max(0, contracted + plan.dependentPriceCents * (billable(after) - billable(before)));
}

async function repriced(ctx: LifecycleContext, subscription: SubscriptionRow, plan: Plan, amountCents: number | null, action: string, details: Record<string, unknown>): Promise<number | null> {
  await ctx.tx.update(subscriptions).set({ planId: plan.id, amountCents, updatedAt: ctx.now }).where(eq(subscriptions.id, subscription.id));
  await audit(ctx, { action, entity: 'subscription', entityId: subscription.id, clinicId: subscription.clinicId, details: { ...details, amountCents, from: subscription.amountCents } });
  const followUps: FollowUp[] = [{ queue: CARD_WORK_QUEUE, work: { kind: 'issue', subscriptionId: subscription.id } }];
  if (amountCents !== null && amountCents !== subscription.amountCents && amountCents > 0 && subscription.providerSubscriptionId) {
    followUps.push({ queue: PROVIDER_WORK_QUEUE, work: { kind: 'updateAmount', subscriptionId: subscription.id, amountCents, source: ctx.source } });
  }
  await handOver(ctx, followUps);
  return amountCents;
}

/**
 * change of plan (patient portal): a live subscription moves to another active plan of its clinic from the next
 * cycle; its price follows (the provider's next charges too) and the cards cover whom the new plan covers.
 */
export async function changePlan(ctx: LifecycleContext, subscription: SubscriptionRow, planId: string): Promise<number | null> {
  if (!isLive(subscription)) throw new LifecycleRefusal('notLive');
  const [target] = await ctx.tx
    .select({ id: subscriptionPlans.id })
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.id, planId), eq(subscriptionPlans.clinicId, subscription.clinicId), eq(subscriptionPlans.isActive, true)))
    .limit(1);
  if (!target || planId === subscription.planId) throw new LifecycleRefusal('sameOrUnknownPlan');
  const plan = await planOf(ctx.tx, planId);
  // A new plan is a new contract: its price now (a company-paid plan stays without an amount).
  const amountCents = subscription.amountCents === null ? null : cycleAmountOf(plan, await coveredDependents(ctx.tx, subscription));
  return repriced(ctx, subscription, plan, amountCents, 'subscription.plan_changed', { fromPlanId: subscription.planId, toPlanId: planId });
}

/**
 * dependent added (patient portal): the caller writes the dependent's row in this transaction (its CPF claimed first,
 * cpf-claims.ts), or names one taken off before; here the plan's room is checked, the price follows and the
 * dependent's card (for life) is issued or un-suspended.
 */
export async function addDependent(ctx: LifecycleContext, subscription: SubscriptionRow, dependentId: string): Promise<number | null> {
  if (!isLive(subscription)) throw new LifecycleRefusal('notLive');
  if (!(await ownDependent(ctx.tx, subscription, dependentId))) throw new LifecycleRefusal('notDependentOfHolder');
  const before = await coveredDependents(ctx.tx, subscription);
  await ctx.tx.update(dependents).set({ removedAt: null, updatedAt: ctx.now }).where(eq(dependents.id, dependentId));
  const plan = await planOf(ctx.tx, subscription.planId);
  const total = await coveredDependents(ctx.tx, subscription);
  if (total > plan.maxMembers - 1) throw new LifecycleRefusal('noRoomForDependent');
  return repriced(ctx, subscription, plan, amountAfterDependents(subscription.amountCents, plan, before, total), 'subscription.dependent_added', { dependentId });
}

/**
 * dependent removed (patient portal): the dependent is no longer covered (the row stays: their visits and their card
 * for life point at it), the price follows and their card is suspended.
 */
export async function removeDependent(ctx: LifecycleContext, subscription: SubscriptionRow, dependentId: string): Promise<number | null> {
  if (subscription.status === 'canceled' || subscription.status === 'expired') throw new LifecycleRefusal('notLive');
  if (!(await ownDependent(ctx.tx, subscription, dependentId))) throw new LifecycleRefusal('notDependentOfHolder');
  const before = await coveredDependents(ctx.tx, subscription);
  await ctx.tx.update(dependents).set({ removedAt: ctx.now, updatedAt: ctx.now }).where(eq(dependents.id, dependentId));
  const plan = await planOf(ctx.tx, subscription.planId);
  const after = await coveredDependents(ctx.tx, subscription);
  const amountCents = await repriced(ctx, subscription, plan, amountAfterDependents(subscription.amountCents, plan, before, after), 'subscription.dependent_removed', { dependentId });
  await handOver(ctx, [{ queue: CARD_WORK_QUEUE, work: { kind: 'suspend', subscriptionId: subscription.id, dependentId } }]);
  return amountCents;
}
