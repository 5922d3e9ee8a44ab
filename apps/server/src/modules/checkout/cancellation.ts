import { and, eq, inArray, sum } from 'drizzle-orm';
import { PAID_PAYMENT_STATUSES } from '@carteirinha/shared/contracts/payments';
import type { CancelSubscriptionResponse, CancellationPreview } from '@carteirinha/shared/contracts/subscriptions';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { payments, visits } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { TenantContext } from '../../plugins/access-control.ts';
import type { FollowUpQueue } from '../subscriptions/follow-ups.ts';
import * as lifecycle from '../subscriptions/lifecycle.ts';
import { toSubscription } from '../subscriptions/subscription-view.ts';
import type { CheckoutDeps } from './billing.ts';
import { findSubscriptionWithPlan, OPEN_PAYMENT_STATUSES, OPEN_SUBSCRIPTION_STATUSES, paymentsOfSubscription, type PaymentRow, type SubscriptionRow } from './repository.ts';

const m = messages.cancellation;
/** CDC art. 49: the consumer may withdraw within 7 days of contracting outside the shop (online). */
export const WITHDRAWAL_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

function isPaid(row: PaymentRow): boolean {
  return PAID_PAYMENT_STATUSES.some((status) => status === row.status);
}

function isOpenCharge(row: PaymentRow): boolean {
  return OPEN_PAYMENT_STATUSES.some((status) => status === row.status);
}

/** The cancellation's protocol number: stable per subscription, so the screen, the e-mail and the audit agree. */
export function protocolOf(subscription: Pick<SubscriptionRow, 'id'>, canceledAt: Date): string {
  return `CAN-${canceledAt.toISOString().slice(0, 10).replaceAll('-', '')}-${subscription.id.slice(0, 8).toUpperCase()}`;
}

/**
 * The discounts the subscription's cards gave on concluded visits (the holder's and the dependents'): what the 7-day
 * withdrawal keeps (issue 22). A visit booked, under way or cancelled gave no discount yet (issue 25).
 */
export async function discountsReceivedOn(db: Database, subscriptionId: string): Promise<number> {
  const [row] = await db
    .select({ total: sum(visits.discountCents).mapWith(Number) })
    .from(visits)
    .where(and(eq(visits.subscriptionId, subscriptionId), eq(visits.status, 'concluido')));
  return row?.total ?? 0;
}

/**
 * The refund of a withdrawal spread over the paid charges, the newest first, each at most what it was for: what
 * the provider is asked to give back, charge by charge.
 */
export function refundsOver(paid: PaymentRow[], refundCents: number): { paymentId: string; amountCents: number }[] {
  const refunds: { paymentId: string; amountCents: number }[] = [];
  let left = refundCents;
  for (const charge of [...paid].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())) {
    if (left <= 0) break;
    const amountCents = Math.min(left, charge.amountCents);
    refunds.push({ paymentId: charge.id, amountCents });
    left -= amountCents;
  }
  return refunds;
}

/**
 * The rules (written in the terms, shown before confirming):
 * - a subscription never paid ends at once, its open charge no longer payable ('unpaid');
 * - within 7 days of contracting (CDC art. 49) it ends at once and what was paid comes back, minus the discounts the
 *   cards already gave on visits — never below zero ('freeWithdrawal');
 * - after that nothing more is charged, and the benefits last until the paid-through date ('endOfPaidPeriod'); the
 *   subscription stays `active` with `canceled_at` set until then, and the expiry ends it.
 */
export function cancellationPlanOf(subscription: SubscriptionRow, charges: PaymentRow[], discountsCents: number, now: Date): CancellationPreview {
  const withdrawalEndsAt = new Date(subscription.createdAt.getTime() + WITHDRAWAL_DAYS * DAY_MS);
  const freeWithdrawal = now.getTime() <= withdrawalEndsAt.getTime();
  const paid = charges.filter(isPaid);
  const paidCents = paid.reduce((total, row) => total + row.amountCents, 0);
  const base = { freeWithdrawal, withdrawalEndsAt: withdrawalEndsAt.toISOString(), paidCents, discountsCents: 0 };
  if (paid.length === 0) return { ...base, kind: 'unpaid', refundCents: 0, benefitsUntil: null, rule: m.pendingRule };
  if (freeWithdrawal) {
    return { ...base, discountsCents, kind: 'freeWithdrawal', refundCents: Math.max(0, paidCents - discountsCents), benefitsUntil: null, rule: m.freeWithdrawalRule };
  }
  const paidThrough = subscription.expiresAt && subscription.expiresAt > now ? subscription.expiresAt.toISOString() : null;
  return { ...base, kind: 'endOfPaidPeriod', refundCents: 0, benefitsUntil: paidThrough, rule: m.afterWithdrawalRule };
}

function isCancellable(subscription: SubscriptionRow): boolean {
  return OPEN_SUBSCRIPTION_STATUSES.some((status) => status === subscription.status) && subscription.canceledAt === null;
}

function refusalOf(subscription: SubscriptionRow): AppError {
  return new AppError('CONFLICT', subscription.canceledAt !== null || subscription.status === 'canceled' ? m.alreadyCanceled : m.nothingToCancel);
}

async function cancellableSubscription(db: Database, ctx: TenantContext, options: { lock: boolean }) {
  const row = await lifecycle.latestSubscriptionOf(db, ctx, options);
  if (!row) throw new AppError('CONFLICT', m.nothingToCancel);
  if (!isCancellable(row.subscription)) throw refusalOf(row.subscription);
  return row;
}

async function planFor(db: Database, ctx: TenantContext, subscription: SubscriptionRow, now: Date): Promise<{ preview: CancellationPreview; charges: PaymentRow[] }> {
  const charges = await paymentsOfSubscription(db, ctx.clinicId, subscription.id);
  return { preview: cancellationPlanOf(subscription, charges, await discountsReceivedOn(db, subscription.id), now), charges };
}

/** GET /api/patient/subscription/cancellation: what cancelling now would do, refund and discounts included. */
export async function previewCancellation(deps: CheckoutDeps, ctx: TenantContext): Promise<CancellationPreview> {
  const row = await cancellableSubscription(deps.db, ctx, { lock: false });
  return (await planFor(deps.db, ctx, row.subscription, deps.now())).preview;
}

/**
 * POST /api/patient/subscription/cancel: one transaction under the subscription's lock (of two clicks, the second
 * is told it is already cancelled). The lifecycle records the cancellation and hands over its follow-ups: the
 * provider stops the recurring subscription, the withdrawal's refunds are asked there (retried, and audited for the
 * clinic if the provider refuses), and the patient gets the receipt. The open charges are no longer payable.
 */
export async function cancelSubscription(deps: CheckoutDeps & { jobs: FollowUpQueue }, ctx: TenantContext): Promise<CancelSubscriptionResponse> {
  const now = deps.now();
  const outcome = await deps.db.transaction(async (tx) => {
    const row = await cancellableSubscription(tx, ctx, { lock: true });
    return cancelLocked(tx, deps.jobs, ctx, row.subscription, now, { benefitsEndNow: false, source: 'patient' });
  });
  const reloaded = await findSubscriptionWithPlan(deps.db, ctx.clinicId, outcome.subscriptionId);
  if (!reloaded) throw new AppError('NOT_FOUND');
  return { subscription: toSubscription(reloaded.subscription, reloaded.plan), refundCents: outcome.refundCents, protocol: outcome.protocol };
}

/**
 * The patient's open subscription cancelled inside the caller's transaction (the account's deletion, ADR 027), by the
 * same rules as 'Cancelar assinatura', except that the benefits end now: the cards are revoked with the account.
 * Null when nothing is open to cancel.
 */
export async function cancelForDeletion(tx: Database, jobs: FollowUpQueue, ctx: TenantContext, now: Date): Promise<{ protocol: string; refundCents: number } | null> {
  const row = await lifecycle.latestSubscriptionOf(tx, ctx, { lock: true });
  if (!row || !isCancellable(row.subscription)) return null;
  const { protocol, refundCents } = await cancelLocked(tx, jobs, ctx, row.subscription, now, { benefitsEndNow: true, source: 'account_deletion' });
  return { protocol, refundCents };
}

/**
 * 'Renovação automática' off (Meu Perfil): the plan ends at the date paid for, whatever the 7 days say — turning the
 * renewal off is not a withdrawal (that stays 'Cancelar assinatura', with its refund). Only a paid, running period.
 */
export async function stopRenewal(deps: CheckoutDeps, ctx: TenantContext): Promise<void> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const row = await lifecycle.latestSubscriptionOf(tx, ctx, { lock: true });
    const subscription = row?.subscription;
    const paidAndRunning = subscription && isCancellable(subscription) && subscription.status === 'active' && subscription.companyMembershipId === null && subscription.expiresAt !== null && subscription.expiresAt > now;
    if (!subscription || !paidAndRunning) throw new AppError('CONFLICT', messages.autoRenewal.cannotTurnOff);
    await cancelLocked(tx, deps.jobs, ctx, subscription, now, { benefitsEndNow: false, source: 'patient', endOfPaidPeriod: true });
  });
}

/** Under the subscription's lock: the open charges no longer payable, and the lifecycle's cancellation with its follow-ups. */
async function cancelLocked(tx: Database, jobs: FollowUpQueue, ctx: TenantContext, subscription: SubscriptionRow, now: Date, options: { benefitsEndNow: boolean; source: string; endOfPaidPeriod?: boolean }) {
  const planned = await planFor(tx, ctx, subscription, now);
  const { charges } = planned;
  const preview: CancellationPreview = options.endOfPaidPeriod
    ? { ...planned.preview, kind: 'endOfPaidPeriod', refundCents: 0, discountsCents: 0, benefitsUntil: subscription.expiresAt?.toISOString() ?? null, rule: m.afterWithdrawalRule }
    : planned.preview;
  const protocol = protocolOf(subscription, now);
  const openIds = charges.filter(isOpenCharge).map((charge) => charge.id);
  if (openIds.length > 0) {
    await tx.update(payments).set({ status: 'canceled', canceledAt: now, updatedAt: now }).where(and(inArray(payments.id, openIds), eq(payments.clinicId, ctx.clinicId)));
  }
  const benefitsUntil = !options.benefitsEndNow && preview.kind === 'endOfPaidPeriod' && preview.benefitsUntil ? new Date(preview.benefitsUntil) : null;
  const refunds = preview.kind === 'freeWithdrawal' ? refundsOver(charges.filter(isPaid), preview.refundCents) : [];
  await lifecycle.cancelByPatient({ tx, jobs, now, source: options.source, actorUserId: ctx.userId }, subscription, {
    kind: preview.kind,
    refunds,
    refundCents: preview.refundCents,
    benefitsUntil,
    protocol,
    details: { paidCents: preview.paidCents, discountsCents: preview.discountsCents, canceledCharges: openIds, ...(options.endOfPaidPeriod ? { via: 'autoRenewalOff' } : {}) },
  });
  return { subscriptionId: subscription.id, refundCents: preview.refundCents, protocol };
}
