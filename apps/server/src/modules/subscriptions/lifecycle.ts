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
import { PLAN_CHANGE_MIN_CHARGE_CENTS } from '@carteirinha/shared/constants';
import { GRACE_DAYS_DEFAULT } from '@carteirinha/shared/contracts/payments';
import type { PlanChangeBlock, PlanChangeKind } from '@carteirinha/shared/contracts/plan-changes';
import type { SubscriptionStatus } from '@carteirinha/shared/contracts/subscriptions';
import type { Database } from '../../db/client.ts';
import { auditLog, clinicSettings, dependents, payments, planChanges, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import { saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { benefitsEndOf } from './benefits.ts';
import { CARD_WORK_QUEUE, enqueueFollowUps, PATIENT_NOTICE_QUEUE, PROVIDER_WORK_QUEUE, type FollowUp, type FollowUpQueue } from './follow-ups.ts';
import { addDaysToInstant, laterOf, prorateUpgrade, shiftByCycles } from './periods.ts';
import { findLatestSubscriptionRow, type SubscriptionWithPlan } from './repository.ts';

export type { SubscriptionWithPlan };

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type Plan = { id: string; name: string; billingCycle: 'monthly' | 'yearly'; waitingDays: number; priceCents: number; dependentPriceCents: number; maxMembers: number };

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

const PLAN_COLUMNS = {
  id: subscriptionPlans.id,
  name: subscriptionPlans.name,
  billingCycle: subscriptionPlans.billingCycle,
  waitingDays: subscriptionPlans.waitingDays,
  priceCents: subscriptionPlans.priceCents,
  dependentPriceCents: subscriptionPlans.dependentPriceCents,
  maxMembers: subscriptionPlans.maxMembers,
};

async function planOf(tx: Database, planId: string): Promise<Plan> {
  const [plan] = await tx.select(PLAN_COLUMNS).from(subscriptionPlans).where(eq(subscriptionPlans.id, planId)).limit(1);
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
    .where(and(eq(payments.subscriptionId, subscriptionId), eq(payments.status, 'overdue'), ne(payments.id, exceptPaymentId), isNull(payments.planChangeId)));
  return row?.total ?? 0;
}

function isEnded(subscription: SubscriptionRow): boolean {
  return subscription.status === 'canceled' || subscription.canceledAt !== null;
}

/** The charge a transition is about, as the ledger holds it. */
export type ChargeFacts = { id: string; clinicId: string; amountCents: number; dueDate: string; periodStart: string | null; planChangeId: string | null };

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
  /** An upgrade's charge: it bought no cycle, it put the new plan in effect (ADR 028). */
  | { kind: 'planChanged' }
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
  if (charge.planChangeId) return settlePlanChange(ctx, subscription, charge, charge.planChangeId);
  const plan = await planOf(ctx.tx, subscription.planId);
  if (isEnded(subscription)) return refundUnwanted(ctx, subscription, charge);
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

/**
 * Money that buys nothing any more (a subscription already ended, an upgrade no longer wanted) is given back whole,
 * by a job; the audit row marks the charge so its refund later takes nothing back.
 */
async function refundUnwanted(ctx: LifecycleContext, subscription: SubscriptionRow, charge: ChargeFacts): Promise<SettlementOutcome> {
  await audit(ctx, { action: 'payment.paid_after_cancellation', entity: 'payment', entityId: charge.id, clinicId: charge.clinicId, details: { subscriptionId: subscription.id, refund: 'automatic', planChangeId: charge.planChangeId } });
  await handOver(ctx, [{ queue: PROVIDER_WORK_QUEUE, work: { kind: 'refundCharge', paymentId: charge.id, amountCents: null, reason: 'paidAfterCancellation', source: ctx.source } }]);
  return { kind: 'paidAfterCancellation' };
}

// ---------------------------------------------------------------------------------------------------------------
// Delinquency
// ---------------------------------------------------------------------------------------------------------------

/** overdue: a charge went late. The subscription is overdue (the cards go on within the grace: benefits.ts). */
export async function markOverdue(ctx: LifecycleContext, subscription: SubscriptionRow, charge: ChargeFacts): Promise<void> {
  // An upgrade's charge left unpaid only means the upgrade did not happen: the plan paid for goes on.
  if (charge.planChangeId) return endPlanChange(ctx, subscription, charge.planChangeId, 'lapsed');
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
  if (charge.planChangeId) return endPlanChange(ctx, subscription, charge.planChangeId, 'lapsed');
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
    .where(and(eq(payments.subscriptionId, subscription.id), eq(payments.status, 'overdue'), isNull(payments.planChangeId)))
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
  if (charge.planChangeId) return revertPlanChange(ctx, subscription, charge, action);
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
  if (cancelAtProvider) await handOver(ctx, [{ queue: PROVIDER_WORK_QUEUE, work: { kind: 'cancelSubscription', subscriptionId: subscription.id, source: ctx.source, ...(subscription.providerSubscriptionId ? { providerSubscriptionId: subscription.providerSubscriptionId } : {}) } }]);
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
  // A change of plan asked before ends with the subscription (an upgrade's charge paid later is given back).
  const pendingChange = await pendingPlanChangeOf(ctx.tx, subscription.id);
  if (pendingChange) await endPlanChange(ctx, subscription, pendingChange.id, 'canceled', { repriceProvider: false });
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
  if (subscription.providerSubscriptionId) followUps.push({ queue: PROVIDER_WORK_QUEUE, work: { kind: 'cancelSubscription', subscriptionId: subscription.id, source: ctx.source, ...(subscription.providerSubscriptionId ? { providerSubscriptionId: subscription.providerSubscriptionId } : {}) } });
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

/**
 * Whether the patient may turn the automatic renewal back on: they turned it off (a cancellation at the end of the
 * period paid for, not a withdrawal, a refund or the provider's), and that period is still running.
 */
export function canResumeRenewal(subscription: SubscriptionRow, now: Date): boolean {
  return (
    subscription.status === 'active' &&
    subscription.canceledAt !== null &&
    subscription.cancelReason === 'patient' &&
    subscription.companyMembershipId === null &&
    subscription.expiresAt !== null &&
    subscription.expiresAt.getTime() > now.getTime()
  );
}

/**
 * renewal resumed ('Renovação automática' back on): the cancellation at the end of the paid period is undone and the
 * subscription renews again — at the provider through the new recurring subscription the caller made there (the old
 * one was stopped), or from our own record for the embedded provider.
 */
export async function resumeRenewal(ctx: LifecycleContext, subscription: SubscriptionRow, atProvider: { providerSubscriptionId: string } | null): Promise<void> {
  if (!canResumeRenewal(subscription, ctx.now)) throw new LifecycleRefusal('notLive');
  await ctx.tx
    .update(subscriptions)
    .set({ canceledAt: null, cancelReason: null, ...(atProvider ? { providerSubscriptionId: atProvider.providerSubscriptionId } : {}), updatedAt: ctx.now })
    .where(eq(subscriptions.id, subscription.id));
  await audit(ctx, {
    action: 'subscription.renewal_resumed',
    entity: 'subscription',
    entityId: subscription.id,
    clinicId: subscription.clinicId,
    details: { canceledAt: subscription.canceledAt?.toISOString() ?? null, providerSubscriptionId: atProvider?.providerSubscriptionId ?? subscription.providerSubscriptionId },
  });
}

/** A subscription that holds the patient's place: one at a time per patient (and what max_patients counts). */
export const OPEN_SUBSCRIPTION_STATUSES = ['pending', 'active', 'overdue'] as const;

/**
 * expiry (the hourly delinquency job): past their paid-through date, subscriptions cancelled earlier end
 * (`canceled`), and those with no charge open for the next cycle (no renewal was made) expire (`expired`). One with an
 * open renewal charge stays: that charge's due date and the grace decide.
 */
export async function expireDue(ctx: LifecycleContext): Promise<{ canceled: number; expired: number }> {
  // An upgrade's open charge renews nothing: it does not keep a subscription from expiring.
  const hasOpenCharge = sql`exists (select 1 from ${payments} where ${payments.subscriptionId} = ${subscriptions.id} and ${inArray(payments.status, ['pending', 'overdue'])} and ${payments.planChangeId} is null)`;
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
  constructor(readonly reason: 'notLive' | 'sameOrUnknownPlan' | 'noRoomForDependent' | 'notDependentOfHolder' | PlanChangeRefusalReason) {
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

// ---------------------------------------------------------------------------------------------------------------
// Change of plan (issue 27, ADR 028)
// ---------------------------------------------------------------------------------------------------------------

export type PlanChangeRow = typeof planChanges.$inferSelect;
export type PlanChangeRefusalReason = PlanChangeBlock | 'samePlan' | 'unknownPlan' | 'otherCycle' | 'notYourDependent' | 'tooManyKept';

/** Why the subscription cannot change plan now (null: it can). A change needs a paid period to prorate. */
export function planChangeBlockOf(subscription: SubscriptionRow | null): PlanChangeBlock | null {
  if (!subscription || subscription.status === 'canceled' || subscription.status === 'expired') return 'noSubscription';
  if (subscription.companyMembershipId !== null || subscription.amountCents === null) return 'companyPaid';
  if (subscription.canceledAt !== null) return 'canceled';
  if (subscription.status === 'overdue') return 'overdue';
  if (subscription.status !== 'active' || subscription.expiresAt === null) return 'notPaidYet';
  return null;
}

/** The plans a subscription may move to: the clinic's other active plans billed on the same cycle. */
export async function plansToChangeTo(tx: Database, subscription: SubscriptionRow): Promise<Plan[]> {
  const current = await planOf(tx, subscription.planId);
  return tx
    .select(PLAN_COLUMNS)
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.clinicId, subscription.clinicId), eq(subscriptionPlans.isActive, true), ne(subscriptionPlans.id, subscription.planId), eq(subscriptionPlans.billingCycle, current.billingCycle)))
    .orderBy(subscriptionPlans.priceCents, subscriptionPlans.name);
}

export type PlanChangeQuote = { plan: Plan; kind: PlanChangeKind; amountCents: number; chargeCents: number; remainingDays: number; effectiveAt: Date | null };

/**
 * What moving to `plan` with `keptDependents` dependents does (ADR 028). Dearer each cycle: an upgrade, paid now for
 * the difference over the days left of the paid period (none below the smallest charge), in effect when paid. The
 * same price or less: a downgrade at the paid-through date, with nothing to pay or give back.
 */
export function quotePlanChange(subscription: { amountCents: number; expiresAt: Date }, plan: Plan, keptDependents: number, now: Date): PlanChangeQuote {
  const amountCents = cycleAmountOf(plan, keptDependents);
  if (amountCents <= subscription.amountCents) return { plan, kind: 'downgrade', amountCents, chargeCents: 0, remainingDays: 0, effectiveAt: subscription.expiresAt };
  const proration = prorateUpgrade({ fromAmountCents: subscription.amountCents, toAmountCents: amountCents, paidThrough: subscription.expiresAt, cycle: plan.billingCycle, now });
  const chargeCents = proration.cents < PLAN_CHANGE_MIN_CHARGE_CENTS ? 0 : proration.cents;
  return { plan, kind: 'upgrade', amountCents, chargeCents, remainingDays: proration.remainingDays, effectiveAt: null };
}

/** The holder's dependents covered now, oldest first. */
export async function coveredDependentsOf(tx: Database, subscription: SubscriptionRow): Promise<{ id: string; fullName: string }[]> {
  return tx
    .select({ id: dependents.id, fullName: dependents.fullName })
    .from(dependents)
    .where(and(eq(dependents.holderUserId, subscription.userId), eq(dependents.clinicId, subscription.clinicId), isNull(dependents.removedAt)))
    .orderBy(dependents.createdAt, dependents.id);
}

/** The change asked for and not yet in effect, if any (one per subscription: a unique index says so). */
export async function pendingPlanChangeOf(tx: Database, subscriptionId: string): Promise<PlanChangeRow | null> {
  const [row] = await tx.select().from(planChanges).where(and(eq(planChanges.subscriptionId, subscriptionId), eq(planChanges.status, 'pending'))).limit(1);
  return row ?? null;
}

/**
 * Whom the new plan keeps: everyone covered when it has room for them; otherwise those the patient chose, each one of
 * their covered dependents, no more than the room.
 */
function keptDependents(covered: { id: string }[], plan: Plan, chosen: string[]): string[] {
  const room = Math.max(0, plan.maxMembers - 1);
  if (covered.length <= room) return covered.map((dependent) => dependent.id);
  const unique = [...new Set(chosen)];
  if (unique.some((id) => !covered.some((dependent) => dependent.id === id))) throw new LifecycleRefusal('notYourDependent');
  if (unique.length > room) throw new LifecycleRefusal('tooManyKept');
  return unique;
}

/**
 * change of plan asked by the holder (ADR 028): a new pending change replaces the one asked before. A downgrade waits
 * for its date (the provider's next charges take its price now, ADR 028 "Downgrade"); an upgrade waits for its charge,
 * which the caller makes at the provider next — or takes effect at once when its difference is too small to charge.
 */
export async function requestPlanChange(ctx: LifecycleContext, subscription: SubscriptionRow, request: { planId: string; keepDependentIds: string[] }): Promise<{ change: PlanChangeRow; quote: PlanChangeQuote }> {
  const block = planChangeBlockOf(subscription);
  if (block) throw new LifecycleRefusal(block);
  if (request.planId === subscription.planId) throw new LifecycleRefusal('samePlan');
  const [target] = await ctx.tx
    .select(PLAN_COLUMNS)
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.id, request.planId), eq(subscriptionPlans.clinicId, subscription.clinicId), eq(subscriptionPlans.isActive, true)))
    .limit(1);
  if (!target) throw new LifecycleRefusal('unknownPlan');
  if (target.billingCycle !== (await planOf(ctx.tx, subscription.planId)).billingCycle) throw new LifecycleRefusal('otherCycle');
  const kept = keptDependents(await coveredDependentsOf(ctx.tx, subscription), target, request.keepDependentIds);
  // planChangeBlockOf has made sure of both.
  const paid = { amountCents: subscription.amountCents ?? 0, expiresAt: subscription.expiresAt ?? ctx.now };
  const quote = quotePlanChange(paid, target, kept.length, ctx.now);
  const previous = await pendingPlanChangeOf(ctx.tx, subscription.id);
  if (previous) await endPlanChange(ctx, subscription, previous.id, 'canceled');
  const [change] = await ctx.tx
    .insert(planChanges)
    .values({
      clinicId: subscription.clinicId,
      subscriptionId: subscription.id,
      fromPlanId: subscription.planId,
      toPlanId: target.id,
      kind: quote.kind,
      fromAmountCents: paid.amountCents,
      amountCents: quote.amountCents,
      chargeCents: quote.chargeCents,
      keepDependentIds: kept,
      effectiveAt: quote.effectiveAt,
      requestedBy: ctx.actorUserId,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning();
  if (!change) throw new Error('plan change not recorded');
  await audit(ctx, {
    action: 'subscription.plan_change_requested',
    entity: 'subscription',
    entityId: subscription.id,
    clinicId: subscription.clinicId,
    details: { planChangeId: change.id, kind: quote.kind, fromPlanId: subscription.planId, toPlanId: target.id, amountCents: quote.amountCents, chargeCents: quote.chargeCents, effectiveAt: quote.effectiveAt?.toISOString() ?? null, keepDependentIds: kept },
  });
  if (quote.kind === 'downgrade') await repriceAtProvider(ctx, subscription, quote.amountCents);
  if (quote.kind === 'upgrade' && quote.chargeCents === 0) return { change: await applyPlanChange(ctx, subscription, change), quote };
  return { change, quote };
}

/** The provider's next charges at `amountCents` (a recurring subscription there; the embedded one reads ours). */
async function repriceAtProvider(ctx: LifecycleContext, subscription: SubscriptionRow, amountCents: number): Promise<void> {
  if (!subscription.providerSubscriptionId || amountCents <= 0) return;
  await handOver(ctx, [{ queue: PROVIDER_WORK_QUEUE, work: { kind: 'updateAmount', subscriptionId: subscription.id, amountCents, source: ctx.source } }]);
}

/**
 * The new plan in effect: the plan and the price of each cycle (for the dependents still kept), the dependents not
 * kept taken off (their cards suspended), every other card issued or kept, the provider's next charges repriced.
 */
export async function applyPlanChange(ctx: LifecycleContext, subscription: SubscriptionRow, change: PlanChangeRow): Promise<PlanChangeRow> {
  const plan = await planOf(ctx.tx, change.toPlanId);
  const covered = await coveredDependentsOf(ctx.tx, subscription);
  // Those the patient chose first, then anyone added since, while the new plan has room.
  const chosen = (dependent: { id: string }) => change.keepDependentIds.includes(dependent.id);
  const byPreference = [...covered.filter(chosen), ...covered.filter((dependent) => !chosen(dependent))];
  const dropped = byPreference.slice(Math.max(0, plan.maxMembers - 1)).map((dependent) => dependent.id);
  if (dropped.length > 0) await ctx.tx.update(dependents).set({ removedAt: ctx.now, updatedAt: ctx.now }).where(inArray(dependents.id, dropped));
  const amountCents = cycleAmountOf(plan, covered.length - dropped.length);
  await ctx.tx.update(subscriptions).set({ planId: plan.id, amountCents, updatedAt: ctx.now }).where(eq(subscriptions.id, subscription.id));
  const [applied] = await ctx.tx.update(planChanges).set({ status: 'applied', appliedAt: ctx.now, amountCents, updatedAt: ctx.now }).where(eq(planChanges.id, change.id)).returning();
  await audit(ctx, {
    action: 'subscription.plan_changed',
    entity: 'subscription',
    entityId: subscription.id,
    clinicId: subscription.clinicId,
    details: { planChangeId: change.id, kind: change.kind, fromPlanId: subscription.planId, toPlanId: plan.id, from: subscription.amountCents, amountCents, droppedDependentIds: dropped },
  });
  await handOver(ctx, [
    { queue: CARD_WORK_QUEUE, work: { kind: 'issue', subscriptionId: subscription.id } },
    ...dropped.map((dependentId): FollowUp => ({ queue: CARD_WORK_QUEUE, work: { kind: 'suspend', subscriptionId: subscription.id, dependentId } })),
  ]);
  // A downgrade repriced the provider when it was asked.
  if (change.kind === 'upgrade' && amountCents !== subscription.amountCents) await repriceAtProvider(ctx, subscription, amountCents);
  return applied ?? change;
}

/**
 * A pending change ends without taking effect: the patient gave up or asked another (`canceled`), or its charge went
 * unpaid or was deleted (`lapsed`). A downgrade had repriced the provider: its price goes back.
 */
export async function endPlanChange(ctx: LifecycleContext, subscription: SubscriptionRow, planChangeId: string, status: 'canceled' | 'lapsed', options = { repriceProvider: true }): Promise<void> {
  const [ended] = await ctx.tx
    .update(planChanges)
    .set({ status, endedAt: ctx.now, updatedAt: ctx.now })
    .where(and(eq(planChanges.id, planChangeId), eq(planChanges.status, 'pending')))
    .returning();
  if (!ended) return;
  await audit(ctx, { action: `subscription.plan_change_${status}`, entity: 'subscription', entityId: subscription.id, clinicId: subscription.clinicId, details: { planChangeId, kind: ended.kind, toPlanId: ended.toPlanId } });
  // Not when the subscription itself is being cancelled there.
  const restore = options.repriceProvider && ended.kind === 'downgrade' && subscription.amountCents !== null && subscription.amountCents !== ended.amountCents;
  if (restore && subscription.amountCents !== null) await repriceAtProvider(ctx, subscription, subscription.amountCents);
}

/** An upgrade's charge paid: the new plan takes effect if the change still stands; else the money goes back. */
async function settlePlanChange(ctx: LifecycleContext, subscription: SubscriptionRow, charge: ChargeFacts, planChangeId: string): Promise<SettlementOutcome> {
  const [change] = await ctx.tx.select().from(planChanges).where(eq(planChanges.id, planChangeId)).limit(1);
  if (!change || change.status !== 'pending' || !isLive(subscription) || subscription.planId !== change.fromPlanId) return refundUnwanted(ctx, subscription, charge);
  const applied = await applyPlanChange(ctx, subscription, change);
  const plan = await planOf(ctx.tx, applied.toPlanId);
  await audit(ctx, { action: 'payment.settled', entity: 'payment', entityId: charge.id, clinicId: charge.clinicId, details: { subscriptionId: subscription.id, transition: 'planChanged', planChangeId } });
  if (subscription.expiresAt) {
    await handOver(ctx, [
      {
        queue: PATIENT_NOTICE_QUEUE,
        notice: { kind: 'confirmed', userId: subscription.userId, planName: plan.name, amountCents: charge.amountCents, expiresAt: subscription.expiresAt, benefitsStartAt: subscription.benefitsStartAt ?? ctx.now, now: ctx.now },
        key: `confirmed:${charge.id}`,
      },
    ]);
  }
  return { kind: 'planChanged' };
}

/**
 * An upgrade's charge refunded or charged back: the plan it bought goes back to the one before, at its price; the
 * dependents the old plan has no room for are taken off, the newest first.
 */
async function revertPlanChange(ctx: LifecycleContext, subscription: SubscriptionRow, charge: ChargeFacts, action: string): Promise<void> {
  const [change] = await ctx.tx.select().from(planChanges).where(eq(planChanges.id, charge.planChangeId ?? '')).limit(1);
  const reverts = change !== undefined && change.status === 'applied' && subscription.planId === change.toPlanId;
  if (change && reverts) {
    const plan = await planOf(ctx.tx, change.fromPlanId);
    const covered = await coveredDependentsOf(ctx.tx, subscription);
    const dropped = covered.slice(Math.max(0, plan.maxMembers - 1)).map((dependent) => dependent.id);
    if (dropped.length > 0) await ctx.tx.update(dependents).set({ removedAt: ctx.now, updatedAt: ctx.now }).where(inArray(dependents.id, dropped));
    await ctx.tx.update(subscriptions).set({ planId: plan.id, amountCents: change.fromAmountCents, updatedAt: ctx.now }).where(eq(subscriptions.id, subscription.id));
    await ctx.tx.update(planChanges).set({ status: 'canceled', endedAt: ctx.now, updatedAt: ctx.now }).where(eq(planChanges.id, change.id));
    await handOver(ctx, [
      { queue: CARD_WORK_QUEUE, work: { kind: 'issue', subscriptionId: subscription.id } },
      ...dropped.map((dependentId): FollowUp => ({ queue: CARD_WORK_QUEUE, work: { kind: 'suspend', subscriptionId: subscription.id, dependentId } })),
    ]);
    await repriceAtProvider(ctx, subscription, change.fromAmountCents);
  }
  await audit(ctx, { action, entity: 'payment', entityId: charge.id, clinicId: charge.clinicId, details: { subscriptionId: subscription.id, planChangeId: charge.planChangeId, reverted: reverts } });
}

/**
 * The hourly job: downgrades whose date has come take effect on subscriptions still running; on one ended or being
 * cancelled meanwhile they end with it.
 */
export async function applyDuePlanChanges(ctx: LifecycleContext): Promise<number> {
  const due = await ctx.tx
    .select({ id: planChanges.id, subscriptionId: planChanges.subscriptionId })
    .from(planChanges)
    .where(and(eq(planChanges.status, 'pending'), eq(planChanges.kind, 'downgrade'), lte(planChanges.effectiveAt, ctx.now)))
    .limit(500);
  let applied = 0;
  for (const { id, subscriptionId } of due) {
    const subscription = await lockSubscription(ctx.tx, subscriptionId);
    const change = subscription ? await pendingPlanChangeOf(ctx.tx, subscriptionId) : null;
    if (!subscription || !change || change.id !== id) continue;
    const running = (subscription.status === 'active' || subscription.status === 'overdue') && subscription.canceledAt === null;
    if (!running) {
      await endPlanChange(ctx, subscription, id, 'canceled');
      continue;
    }
    await applyPlanChange(ctx, subscription, change);
    applied += 1;
  }
  return applied;
}

/**
 * What the next cycle's charge is for: the contracted price, or a pending downgrade's (the provider was repriced when
 * it was asked, and the renewal it charges is the first cycle on the new plan).
 */
export async function nextCycleAmountOf(tx: Database, subscription: Pick<SubscriptionRow, 'id' | 'amountCents'>): Promise<number | null> {
  const [downgrade] = await tx
    .select({ amountCents: planChanges.amountCents })
    .from(planChanges)
    .where(and(eq(planChanges.subscriptionId, subscription.id), eq(planChanges.status, 'pending'), eq(planChanges.kind, 'downgrade')))
    .limit(1);
  return downgrade?.amountCents ?? subscription.amountCents;
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
