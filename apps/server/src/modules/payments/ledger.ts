/**
 * The state machine of ADR 013 applied to the ledger: one provider event (or reconciliation finding, or the
 * delinquency job's verdict) against one charge and its subscription, inside the caller's transaction, with the
 * rows locked (SELECT … FOR UPDATE) so concurrent deliveries queue up instead of both extending the subscription.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { PaymentStatus } from '@carteirinha/shared/contracts/payments';
import type { SubscriptionStatus } from '@carteirinha/shared/contracts/subscriptions';
import type { Database } from '../../db/client.ts';
import { auditLog, clinicSettings, payments, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { GRACE_DAYS_DEFAULT } from '@carteirinha/shared/contracts/payments';
import { issueCardsForSubscription } from '../cards/issue.ts';
import { benefitsEndOf } from './benefits.ts';
import type { PaymentNotice } from './notices.ts';
import { enqueueProviderWork, PAID_AFTER_CANCELLATION_AUDIT, paymentWasAudited } from './provider-work.ts';
import { addDaysToInstant, addCycleToDay, laterOf, shiftByCycles } from './periods.ts';
import { canMove, isFirstSettlement, isOpenStatus, isReversal, targetStatusOf, type LedgerAction } from './state-machine.ts';
import type { ChargeSnapshot } from './webhook-envelope.ts';

export type PaymentRow = typeof payments.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** What applying an event did, for the log and the tests. */
export type LedgerOutcome =
  | 'ignored'
  | 'unmatched'
  | 'created'
  | 'updated'
  | 'unchanged'
  | 'settled'
  | 'moved'
  | 'subscriptionEnded';

export type LedgerEvent = {
  provider: string;
  action: LedgerAction;
  charge: ChargeSnapshot | null;
  /** For subscription events: the provider's subscription id. */
  providerSubscriptionId: string | null;
  /** Where it came from (the stored event's id at the provider, `reconciliation:…`, `delinquency`): for the audit. */
  source: string;
};

/** Collects what the caller does after the transaction commits. */
export type LedgerEffects = { notices: PaymentNotice[] };

type Plan = { name: string; billingCycle: 'monthly' | 'yearly'; waitingDays: number };

async function lockPayment(tx: Database, provider: string, providerPaymentId: string): Promise<PaymentRow | null> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, providerPaymentId)))
    .for('update')
    .limit(1);
  return row ?? null;
}

async function lockSubscription(tx: Database, subscriptionId: string): Promise<SubscriptionRow | null> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update').limit(1);
  return row ?? null;
}

async function planOf(tx: Database, planId: string): Promise<Plan> {
  const [plan] = await tx
    .select({ name: subscriptionPlans.name, billingCycle: subscriptionPlans.billingCycle, waitingDays: subscriptionPlans.waitingDays })
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

/** The system's own entries in the audit trail (no person acted: a provider, a job). */
async function auditSystem(tx: Database, entry: { action: string; entity: 'payment' | 'subscription'; entityId: string; clinicId: string; details: Record<string, unknown> }): Promise<void> {
  await tx.insert(auditLog).values({ actorUserId: null, ...entry });
}

/** Other charges of the subscription still overdue: paying one charge does not clear another's debt. */
async function otherOverdueCharges(tx: Database, subscriptionId: string, exceptPaymentId: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`count(*)`.mapWith(Number) })
    .from(payments)
    .where(and(eq(payments.subscriptionId, subscriptionId), eq(payments.status, 'overdue'), ne(payments.id, exceptPaymentId)));
  return row?.total ?? 0;
}

/** A charge the provider made that the ledger has not seen (its PAYMENT_CREATED lost, or this is it). */
async function insertChargeOf(tx: Database, provider: string, charge: ChargeSnapshot, now: Date): Promise<PaymentRow | null> {
  if (!charge.providerSubscriptionId || !charge.method || charge.amountCents === null || !charge.dueDate) return null;
  const [subscription] = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, charge.providerSubscriptionId)))
    .limit(1);
  if (!subscription) return null;
  const plan = await planOf(tx, subscription.planId);
  // The next cycle starts where the latest charge's period ended (each cycle is one charge).
  const [latest] = await tx
    .select({ periodEnd: sql<string | null>`max(${payments.periodEnd})` })
    .from(payments)
    .where(and(eq(payments.subscriptionId, subscription.id), ne(payments.status, 'canceled')));
  const periodStart = latest?.periodEnd ?? charge.dueDate;
  const [row] = await tx
    .insert(payments)
    .values({
      clinicId: subscription.clinicId,
      subscriptionId: subscription.id,
      provider,
      providerPaymentId: charge.id,
      method: charge.method,
      amountCents: charge.amountCents,
      dueDate: charge.dueDate,
      status: 'pending',
      providerStatus: charge.providerStatus,
      boletoUrl: charge.boletoUrl,
      invoiceUrl: charge.invoiceUrl,
      periodStart,
      periodEnd: addCycleToDay(periodStart, plan.billingCycle),
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? (await lockPayment(tx, provider, charge.id));
}

/** PAYMENT_UPDATED: what the provider may change on an open charge (value, due date, method, links). */
async function refreshCharge(tx: Database, row: PaymentRow, charge: ChargeSnapshot, now: Date): Promise<LedgerOutcome> {
  if (!isOpenStatus(row.status)) return 'unchanged';
  await tx
    .update(payments)
    .set({
      ...(charge.amountCents !== null ? { amountCents: charge.amountCents } : {}),
      ...(charge.dueDate ? { dueDate: charge.dueDate } : {}),
      ...(charge.method ? { method: charge.method } : {}),
      ...(charge.invoiceUrl ? { invoiceUrl: charge.invoiceUrl } : {}),
      ...(charge.boletoUrl && row.provider !== 'local' ? { boletoUrl: charge.boletoUrl } : {}),
      ...(charge.providerStatus ? { providerStatus: charge.providerStatus } : {}),
      updatedAt: now,
    })
    .where(eq(payments.id, row.id));
  return 'updated';
}

/**
 * The first settlement of a charge: the subscription becomes active and is paid through one more cycle from
 * max(expires_at, the charge's period start); the first payment starts it and its carência.
 */
async function settleSubscription(tx: Database, row: PaymentRow, paidAt: Date, event: LedgerEvent, effects: LedgerEffects, now: Date, cardBox: SecretBox): Promise<void> {
  const subscription = await lockSubscription(tx, row.subscriptionId);
  if (!subscription) return;
  const plan = await planOf(tx, subscription.planId);
  if (subscription.status === 'canceled' || subscription.canceledAt !== null) {
    // Money for a subscription already ended: kept in the ledger as paid, extending nothing, and refunded through the
    // provider by a job written in this transaction (provider-work.ts); the subscription stays as it is.
    await auditSystem(tx, { action: PAID_AFTER_CANCELLATION_AUDIT, entity: 'payment', entityId: row.id, clinicId: row.clinicId, details: { source: event.source, subscriptionId: subscription.id, refund: 'automatic' } });
    await enqueueProviderWork(tx, { kind: 'refundCharge', paymentId: row.id, source: event.source }, now);
    return;
  }
  const periodStart = row.periodStart ? saoPauloMidnight(row.periodStart) : paidAt;
  const expiresAt = shiftByCycles(laterOf(subscription.expiresAt, periodStart), plan.billingCycle, 1);
  const firstActivation = subscription.startedAt === null;
  const benefitsStartAt = subscription.benefitsStartAt ?? addDaysToInstant(paidAt, plan.waitingDays);
  const stillOwing = (await otherOverdueCharges(tx, subscription.id, row.id)) > 0;
  const status: SubscriptionStatus = stillOwing ? 'overdue' : 'active';
  await tx
    .update(subscriptions)
    .set({ status, expiresAt, startedAt: subscription.startedAt ?? paidAt, benefitsStartAt, updatedAt: now })
    .where(eq(subscriptions.id, subscription.id));
  // The holder's and dependents' cards, in this same transaction: a subscription is never active without them.
  // Idempotent (one card per person), so a re-activation after expiry simply finds them there.
  if (firstActivation) await issueCardsForSubscription(tx, subscription.id, cardBox);
  await auditSystem(tx, {
    action: 'payment.settled',
    entity: 'payment',
    entityId: row.id,
    clinicId: row.clinicId,
    details: { source: event.source, subscriptionId: subscription.id, from: subscription.status, to: status, expiresAt: expiresAt.toISOString() },
  });
  effects.notices.push({ kind: 'confirmed', userId: subscription.userId, planName: plan.name, amountCents: row.amountCents, expiresAt, benefitsStartAt, now });
}

/** A charge went overdue: the subscription is overdue (benefits go on within the grace; see benefits.ts). */
async function markSubscriptionOverdue(tx: Database, row: PaymentRow, event: LedgerEvent, effects: LedgerEffects, now: Date): Promise<void> {
  const subscription = await lockSubscription(tx, row.subscriptionId);
  if (!subscription || (subscription.status !== 'active' && subscription.status !== 'pending' && subscription.status !== 'overdue')) return;
  if (subscription.canceledAt !== null) return;
  if (subscription.status !== 'overdue') {
    await tx.update(subscriptions).set({ status: 'overdue', updatedAt: now }).where(eq(subscriptions.id, subscription.id));
    await auditSystem(tx, { action: 'subscription.overdue', entity: 'subscription', entityId: subscription.id, clinicId: row.clinicId, details: { source: event.source, paymentId: row.id, from: subscription.status } });
  }
  const plan = await planOf(tx, subscription.planId);
  const benefitsUntil = subscription.expiresAt ? benefitsEndOf(subscription, await graceDaysOf(tx, row.clinicId)) : null;
  effects.notices.push({ kind: 'overdue', userId: subscription.userId, planName: plan.name, amountCents: row.amountCents, dueDate: row.dueDate, benefitsUntil });
}

/**
 * A paid charge refunded or charged back: its cycle is taken back (expires_at one cycle earlier). If that leaves the
 * subscription unpaid now, a refund ends it ('canceled': the clinic gave the money back) and a chargeback makes it
 * overdue (the patient disputes a charge; paying again restores it).
 */
async function reverseSubscription(tx: Database, row: PaymentRow, event: LedgerEvent, now: Date): Promise<void> {
  const subscription = await lockSubscription(tx, row.subscriptionId);
  if (!subscription || !subscription.expiresAt) return;
  if (await wasPaidAfterCancellation(tx, row.id)) {
    // That money never extended the subscription (see settleSubscription): taking it back takes nothing back.
    await auditSystem(tx, { action: event.action === 'refund' ? 'payment.refunded' : 'payment.charged_back', entity: 'payment', entityId: row.id, clinicId: row.clinicId, details: { source: event.source, subscriptionId: subscription.id, paidAfterCancellation: true } });
    return;
  }
  const plan = await planOf(tx, subscription.planId);
  const expiresAt = shiftByCycles(subscription.expiresAt, plan.billingCycle, -1);
  const stillPaid = expiresAt.getTime() > now.getTime();
  const ended = subscription.status === 'canceled' || subscription.status === 'expired';
  let status: SubscriptionStatus = subscription.status;
  if (!ended && !stillPaid) status = event.action === 'refund' ? 'canceled' : 'overdue';
  await tx
    .update(subscriptions)
    .set({
      expiresAt,
      status,
      ...(status === 'canceled' && subscription.status !== 'canceled' ? { canceledAt: subscription.canceledAt ?? now, cancelReason: subscription.cancelReason ?? 'refunded' } : {}),
      updatedAt: now,
    })
    .where(eq(subscriptions.id, subscription.id));
  // A refund that ends it here ends it at the provider too, or the provider would go on making charges. Not when it was
  // already ended (the patient's cancellation or the provider itself stopped the charges), and never inside this
  // transaction: the job is written in it and calls the provider with retries (provider-work.ts).
  const cancelAtProvider = status === 'canceled' && subscription.status !== 'canceled' && subscription.canceledAt === null && subscription.providerSubscriptionId !== null;
  if (cancelAtProvider) await enqueueProviderWork(tx, { kind: 'cancelSubscription', subscriptionId: subscription.id, source: event.source }, now);
  await auditSystem(tx, {
    action: event.action === 'refund' ? 'payment.refunded' : 'payment.charged_back',
    entity: 'payment',
    entityId: row.id,
    clinicId: row.clinicId,
    details: { source: event.source, subscriptionId: subscription.id, from: subscription.status, to: status, expiresAt: expiresAt.toISOString(), cancelAtProvider },
  });
}

/** Whether the charge was paid after its subscription was cancelled (the settlement's own record of it). */
function wasPaidAfterCancellation(tx: Database, paymentId: string): Promise<boolean> {
  return paymentWasAudited(tx, paymentId, PAID_AFTER_CANCELLATION_AUDIT);
}

/** A deleted charge no longer owes anything: an overdue subscription with no other overdue charge is back to normal. */
async function releaseDeletedCharge(tx: Database, row: PaymentRow, now: Date): Promise<void> {
  const subscription = await lockSubscription(tx, row.subscriptionId);
  if (!subscription || subscription.status !== 'overdue') return;
  if ((await otherOverdueCharges(tx, subscription.id, row.id)) > 0) return;
  const status: SubscriptionStatus = subscription.startedAt ? 'active' : 'pending';
  await tx.update(subscriptions).set({ status, updatedAt: now }).where(eq(subscriptions.id, subscription.id));
}

function paidAtOf(charge: ChargeSnapshot | null, row: PaymentRow, now: Date): Date {
  if (row.paidAt) return row.paidAt;
  const reported = charge?.paidAt;
  // Asaas reports a day; today's payment is "now" (never a moment still to come).
  return reported && reported.getTime() < now.getTime() ? reported : now;
}

/** Moves a charge to the action's status when its precedence allows, with the subscription's consequences. */
async function moveCharge(tx: Database, row: PaymentRow, event: LedgerEvent, effects: LedgerEffects, now: Date, cardBox: SecretBox): Promise<LedgerOutcome> {
  const target = targetStatusOf(event.action);
  if (!target || !canMove(row.status, target)) return 'unchanged';
  const from: PaymentStatus = row.status;
  const paidAt = target === 'confirmed' || target === 'received' ? paidAtOf(event.charge, row, now) : row.paidAt;
  await tx
    .update(payments)
    .set({
      status: target,
      paidAt,
      ...(event.charge?.providerStatus ? { providerStatus: event.charge.providerStatus } : {}),
      ...(target === 'refunded' ? { refundedAt: row.refundedAt ?? now } : {}),
      ...(target === 'canceled' ? { canceledAt: row.canceledAt ?? now } : {}),
      ...(target === 'pending' ? { canceledAt: null } : {}),
      updatedAt: now,
    })
    .where(eq(payments.id, row.id));
  if (isFirstSettlement(from, target) && paidAt) {
    await settleSubscription(tx, { ...row, status: target, paidAt }, paidAt, event, effects, now, cardBox);
    return 'settled';
  }
  if (target === 'overdue') await markSubscriptionOverdue(tx, { ...row, status: target }, event, effects, now);
  else if (isReversal(from, target)) await reverseSubscription(tx, row, event, now);
  else if (target === 'canceled') await releaseDeletedCharge(tx, row, now);
  return 'moved';
}

/**
 * SUBSCRIPTION_INACTIVATED / _DELETED: no more charges. A subscription paid through a future date runs until then
 * (canceled_at set; the expiry job ends it); one never paid, or already unpaid, ends now.
 */
async function endSubscription(tx: Database, event: LedgerEvent, now: Date): Promise<LedgerOutcome> {
  if (!event.providerSubscriptionId) return 'ignored';
  const [found] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, event.provider), eq(subscriptions.providerSubscriptionId, event.providerSubscriptionId)))
    .limit(1);
  const subscription = found ? await lockSubscription(tx, found.id) : null;
  if (!subscription) return 'unmatched';
  if (subscription.status === 'canceled' || subscription.status === 'expired') return 'unchanged';
  const runsOn = subscription.status === 'active' && subscription.expiresAt !== null && subscription.expiresAt.getTime() > now.getTime();
  await tx
    .update(subscriptions)
    .set({ canceledAt: subscription.canceledAt ?? now, cancelReason: subscription.cancelReason ?? 'provider', status: runsOn ? subscription.status : 'canceled', updatedAt: now })
    .where(eq(subscriptions.id, subscription.id));
  await auditSystem(tx, { action: 'subscription.ended_by_provider', entity: 'subscription', entityId: subscription.id, clinicId: subscription.clinicId, details: { source: event.source, runsUntil: runsOn ? subscription.expiresAt?.toISOString() : null } });
  return 'subscriptionEnded';
}

/** Applies one event to the ledger inside `tx` (the caller's transaction); `cardBox` seals the cards a first settlement issues. */
export async function applyLedgerEvent(tx: Database, event: LedgerEvent, effects: LedgerEffects, now: Date, cardBox: SecretBox): Promise<LedgerOutcome> {
  if (event.action === 'ignore') return 'ignored';
  if (event.action === 'endSubscription') return endSubscription(tx, event, now);
  const charge = event.charge;
  if (!charge) return 'ignored';
  let row = await lockPayment(tx, event.provider, charge.id);
  let created = false;
  if (!row) {
    // A charge we have not seen yet: a new cycle (PAYMENT_CREATED), or any later event whose CREATED was lost.
    if (event.action === 'delete') return 'unmatched';
    row = await insertChargeOf(tx, event.provider, charge, now);
    if (!row) return 'unmatched';
    created = true;
  }
  if (event.action === 'create') return created ? 'created' : 'unchanged';
  if (event.action === 'update') return refreshCharge(tx, row, charge, now);
  const outcome = await moveCharge(tx, row, event, effects, now, cardBox);
  return created && outcome === 'unchanged' ? 'created' : outcome;
}

/**
 * Applies an action to one of our charges by its id (the delinquency job's verdicts): same locks, same precedence,
 * same consequences as the provider's event would have.
 */
export async function applyToPayment(tx: Database, paymentId: string, action: LedgerAction, source: string, effects: LedgerEffects, now: Date, cardBox: SecretBox): Promise<LedgerOutcome> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update').limit(1);
  if (!row) return 'unmatched';
  return moveCharge(tx, row, { provider: row.provider, action, charge: null, providerSubscriptionId: null, source }, effects, now, cardBox);
}
