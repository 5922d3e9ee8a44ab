/**
 * The charges' side of ADR 013: one provider event (or reconciliation finding, or the delinquency job's verdict)
 * against one charge, inside the caller's transaction. The charge's own precedence decides whether it moves; what that
 * means for its subscription is the lifecycle's (subscriptions/lifecycle.ts). Locks are taken in one order — the
 * subscription's row first, then the charge's — so concurrent events about charges of one subscription queue up
 * instead of deadlocking (the charge's foreign key takes a share lock on the subscription's row).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog, payments, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import type { FollowUpQueue } from '../subscriptions/follow-ups.ts';
import * as lifecycle from '../subscriptions/lifecycle.ts';
import { addCycleToDay } from '../subscriptions/periods.ts';
import { PAID_AFTER_CANCELLATION_AUDIT, paymentWasAudited } from './provider-work.ts';
import type { ProviderCharge } from './providers/provider.ts';
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
  | 'held'
  | 'unconfirmed'
  | 'moved'
  | 'subscriptionEnded';

/**
 * What the provider itself says of a charge an event reports paid, read back before it is settled (issue 22): the
 * event's word is not enough. `confirmed` carries the provider's own record (status paid, its value, its
 * subscription); `unconfirmed` says why the settlement is refused.
 */
export type ReadBack = { kind: 'confirmed'; charge: ProviderCharge } | { kind: 'unconfirmed'; reason: string } | { kind: 'notYet' };

export type LedgerEvent = {
  provider: string;
  action: LedgerAction;
  charge: ChargeSnapshot | null;
  /** For subscription events: the provider's subscription id. */
  providerSubscriptionId: string | null;
  /** Where it came from (the stored event's id at the provider, `reconciliation:…`, `delinquency`): for the audit. */
  source: string;
  /** The provider's own record of a charge the event reports paid (null for the other events): a settlement needs it. */
  readBack: ReadBack | null;
};

/** What the ledger's transitions need: the runner that takes the follow-ups, and the clock. */
export type LedgerDeps = { jobs: FollowUpQueue; now: Date };

function contextOf(tx: Database, deps: LedgerDeps, source: string): lifecycle.LifecycleContext {
  return { tx, jobs: deps.jobs, now: deps.now, source, actorUserId: null };
}

/** The system's own entries in the audit trail about a charge (a provider, a job: nobody acted). */
async function auditCharge(tx: Database, row: PaymentRow, action: string, details: Record<string, unknown>): Promise<void> {
  await tx.insert(auditLog).values({ actorUserId: null, action, entity: 'payment', entityId: row.id, clinicId: row.clinicId, details });
}

async function lockPayment(tx: Database, provider: string, providerPaymentId: string): Promise<PaymentRow | null> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, providerPaymentId)))
    .for('update')
    .limit(1);
  return row ?? null;
}

/** The subscription an event concerns, read without a lock (the lock is taken next, subscription first). */
async function subscriptionIdOf(tx: Database, provider: string, charge: ChargeSnapshot): Promise<string | null> {
  const [known] = await tx
    .select({ subscriptionId: payments.subscriptionId })
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, charge.id)))
    .limit(1);
  if (known) return known.subscriptionId;
  if (!charge.providerSubscriptionId) return null;
  const [subscription] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, charge.providerSubscriptionId)))
    .limit(1);
  return subscription?.id ?? null;
}

/**
 * A charge the provider made that the ledger has not seen (its PAYMENT_CREATED lost, or this is it). Its period
 * follows the latest charge that counts — paid, or still to be paid — never one refunded or deleted before it was
 * paid: such a charge bought nothing, so it must not push the next period a cycle later (issue 22).
 */
async function insertChargeOf(tx: Database, provider: string, charge: ChargeSnapshot, subscription: SubscriptionRow, now: Date): Promise<PaymentRow | null> {
  if (!charge.method || charge.amountCents === null || !charge.dueDate) return null;
  const [plan] = await tx.select({ billingCycle: subscriptionPlans.billingCycle }).from(subscriptionPlans).where(eq(subscriptionPlans.id, subscription.planId)).limit(1);
  if (!plan) return null;
  const [latest] = await tx
    .select({ periodEnd: sql<string | null>`max(${payments.periodEnd})` })
    .from(payments)
    .where(and(eq(payments.subscriptionId, subscription.id), inArray(payments.status, ['pending', 'overdue', 'confirmed', 'received'])));
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
 * What the charge is for: its own amount, and never less than what the subscription was contracted at (plus the
 * adhesion fee the first charge carries) — a PAYMENT_UPDATED cannot talk a charge down to a cent before it is paid.
 */
export function expectedCentsOf(row: Pick<PaymentRow, 'amountCents' | 'adhesionFeeCents' | 'planChangeId'>, contractedCents: number | null): number {
  // An upgrade's charge is for the difference it was made for, not a cycle.
  if (row.planChangeId !== null) return row.amountCents;
  const contracted = contractedCents === null ? 0 : contractedCents + row.adhesionFeeCents;
  return Math.max(row.amountCents, contracted);
}

function paidAtOf(reported: Date | null, row: PaymentRow, now: Date): Date {
  if (row.paidAt) return row.paidAt;
  // Asaas reports a day; today's payment is "now" (never a moment still to come).
  return reported && reported.getTime() < now.getTime() ? reported : now;
}

/**
 * The first settlement of a charge. The provider's word (its read-back, or its own answer at checkout) must say it
 * is paid, and for at least what the charge is for: a short or unknown amount is held (the charge stays open, the
 * amount reported is kept, `payment.amount_mismatch` is audited and the platform admin sees it), never a full cycle.
 */
async function settleCharge(tx: Database, subscription: SubscriptionRow, row: PaymentRow, target: 'confirmed' | 'received', event: LedgerEvent, deps: LedgerDeps): Promise<LedgerOutcome> {
  // Never on the event's word alone: without the provider's record (the charge was not ours when it was read) the event
  // is tried again later, when it can be read back.
  if (!event.readBack || event.readBack.kind === 'notYet') return 'unmatched';
  if (event.readBack.kind === 'unconfirmed') {
    await auditCharge(tx, row, 'payment.settlement_unconfirmed', { source: event.source, reason: event.readBack.reason, reported: event.charge?.providerStatus ?? null });
    return 'unconfirmed';
  }
  const word = event.readBack.charge;
  const receivedCents = word.amountCents;
  const providerStatus = word.status;
  // A renewal after a downgrade was asked is charged at the new plan's price (ADR 028).
  const expectedCents = expectedCentsOf(row, await lifecycle.nextCycleAmountOf(tx, subscription));
  if (receivedCents < expectedCents) {
    await tx.update(payments).set({ heldAt: row.heldAt ?? deps.now, receivedCents, providerStatus, updatedAt: deps.now }).where(eq(payments.id, row.id));
    await auditCharge(tx, row, 'payment.amount_mismatch', { source: event.source, expectedCents, receivedCents, subscriptionId: subscription.id });
    return 'held';
  }
  const paidAt = paidAtOf(word.paidAt ?? event.charge?.paidAt ?? null, row, deps.now);
  await tx
    .update(payments)
    .set({ status: target, paidAt, receivedCents, heldAt: null, providerStatus, updatedAt: deps.now })
    .where(eq(payments.id, row.id));
  const outcome = await lifecycle.settle(contextOf(tx, deps, event.source), subscription, row, paidAt);
  // The cycle the payment bought, as counted: from the paid-through date (the charge's own period was a forecast).
  if (outcome.kind !== 'paidAfterCancellation' && outcome.kind !== 'planChanged') {
    await tx.update(payments).set({ periodStart: outcome.periodStart, periodEnd: outcome.periodEnd }).where(eq(payments.id, row.id));
  }
  return 'settled';
}

/** Moves a charge to the action's status when its precedence allows, with the subscription's consequences. */
async function moveCharge(tx: Database, subscription: SubscriptionRow, row: PaymentRow, event: LedgerEvent, deps: LedgerDeps): Promise<LedgerOutcome> {
  const target = targetStatusOf(event.action);
  if (!target || !canMove(row.status, target)) return 'unchanged';
  if ((target === 'confirmed' || target === 'received') && isFirstSettlement(row.status, target)) return settleCharge(tx, subscription, row, target, event, deps);
  const from = row.status;
  await tx
    .update(payments)
    .set({
      status: target,
      ...(event.charge?.providerStatus ? { providerStatus: event.charge.providerStatus } : {}),
      ...(target === 'refunded' ? { refundedAt: row.refundedAt ?? deps.now } : {}),
      ...(target === 'canceled' ? { canceledAt: row.canceledAt ?? deps.now } : {}),
      ...(target === 'pending' ? { canceledAt: null } : {}),
      updatedAt: deps.now,
    })
    .where(eq(payments.id, row.id));
  const ctx = contextOf(tx, deps, event.source);
  if (target === 'overdue') await lifecycle.markOverdue(ctx, subscription, row);
  else if (isReversal(from, target)) {
    const paidAfterCancellation = await paymentWasAudited(tx, row.id, PAID_AFTER_CANCELLATION_AUDIT);
    await lifecycle.reverse(ctx, subscription, row, event.action === 'refund' ? 'refund' : 'chargeback', paidAfterCancellation);
  } else if (target === 'canceled') await lifecycle.releaseDeletedCharge(ctx, subscription, row);
  return 'moved';
}

/** SUBSCRIPTION_INACTIVATED / _DELETED: the lifecycle's `endByProvider`. */
async function endSubscription(tx: Database, event: LedgerEvent, deps: LedgerDeps): Promise<LedgerOutcome> {
  if (!event.providerSubscriptionId) return 'ignored';
  const [found] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, event.provider), eq(subscriptions.providerSubscriptionId, event.providerSubscriptionId)))
    .limit(1);
  const subscription = found ? await lifecycle.lockSubscription(tx, found.id) : null;
  if (!subscription) return 'unmatched';
  return (await lifecycle.endByProvider(contextOf(tx, deps, event.source), subscription)) ? 'subscriptionEnded' : 'unchanged';
}

/** Applies one event to the ledger inside `tx` (the caller's transaction). */
export async function applyLedgerEvent(tx: Database, event: LedgerEvent, deps: LedgerDeps): Promise<LedgerOutcome> {
  if (event.action === 'ignore') return 'ignored';
  if (event.action === 'endSubscription') return endSubscription(tx, event, deps);
  const charge = event.charge;
  if (!charge) return 'ignored';
  const subscriptionId = await subscriptionIdOf(tx, event.provider, charge);
  const subscription = subscriptionId ? await lifecycle.lockSubscription(tx, subscriptionId) : null;
  if (!subscription) return 'unmatched';
  let row = await lockPayment(tx, event.provider, charge.id);
  let created = false;
  if (!row) {
    // A charge we have not seen yet: a new cycle (PAYMENT_CREATED), or any later event whose CREATED was lost.
    if (event.action === 'delete') return 'unmatched';
    row = await insertChargeOf(tx, event.provider, charge, subscription, deps.now);
    if (!row) return 'unmatched';
    created = true;
  }
  if (event.action === 'create') return created ? 'created' : 'unchanged';
  if (event.action === 'update') return refreshCharge(tx, row, charge, deps.now);
  const outcome = await moveCharge(tx, subscription, row, event, deps);
  return created && outcome === 'unchanged' ? 'created' : outcome;
}

/**
 * Applies an action to one of our charges by its id (the delinquency job's verdicts; checkout's settlement of a card
 * the provider captured in its own answer, passed as `readBack`): same locks, same precedence, same consequences as
 * the provider's event would have.
 */
export async function applyToPayment(tx: Database, paymentId: string, action: LedgerAction, source: string, deps: LedgerDeps, readBack: ReadBack | null = null): Promise<LedgerOutcome> {
  const [known] = await tx.select({ subscriptionId: payments.subscriptionId }).from(payments).where(eq(payments.id, paymentId)).limit(1);
  const subscription = known ? await lifecycle.lockSubscription(tx, known.subscriptionId) : null;
  if (!subscription) return 'unmatched';
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update').limit(1);
  if (!row) return 'unmatched';
  return moveCharge(tx, subscription, row, { provider: row.provider, action, charge: null, providerSubscriptionId: null, source, readBack }, deps);
}
