import { and, eq, inArray, isNull } from 'drizzle-orm';
import { PAID_PAYMENT_STATUSES } from '@carteirinha/shared/contracts/payments';
import type { CancelSubscriptionResponse, CancellationPreview } from '@carteirinha/shared/contracts/subscriptions';
import { formatDate, formatMoney, ofPlan } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { payments, subscriptions } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { renderActionEmail, type RenderedEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { BackgroundTasks } from '../../lib/background.ts';
import type { AccountHome } from '../auth/account-home.ts';
import type { TenantContext } from '../../plugins/access-control.ts';
import { findLatestSubscriptionRow, toSubscription } from '../subscriptions/repository.ts';
import type { CheckoutDeps } from './billing.ts';
import { findSubscriptionWithPlan, OPEN_PAYMENT_STATUSES, OPEN_SUBSCRIPTION_STATUSES, paymentsOfSubscription, type PaymentRow, type SubscriptionRow } from './repository.ts';
import { providerFailure } from './service.ts';

const m = messages.cancellation;
/** CDC art. 49: the consumer may withdraw within 7 days of contracting outside the shop (online), with a full refund. */
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
 * The rules (written in the terms, shown before confirming):
 * - a subscription never paid ends at once, its open charge no longer payable ('unpaid');
 * - within 7 days of contracting (CDC art. 49) every paid charge is refunded and it ends at once ('freeWithdrawal');
 * - after that nothing more is charged, and the benefits last until the paid-through date ('endOfPaidPeriod'); the
 *   subscription stays `active` with `canceled_at` set until then, and the expiry job moves it to `canceled`.
 */
export function cancellationPlanOf(subscription: SubscriptionRow, charges: PaymentRow[], now: Date): CancellationPreview {
  const withdrawalEndsAt = new Date(subscription.createdAt.getTime() + WITHDRAWAL_DAYS * DAY_MS);
  const freeWithdrawal = now.getTime() <= withdrawalEndsAt.getTime();
  const paid = charges.filter(isPaid);
  const base = { freeWithdrawal, withdrawalEndsAt: withdrawalEndsAt.toISOString() };
  if (paid.length === 0) return { ...base, kind: 'unpaid', refundCents: 0, benefitsUntil: null, rule: m.pendingRule };
  if (freeWithdrawal) {
    return { ...base, kind: 'freeWithdrawal', refundCents: paid.reduce((sum, row) => sum + row.amountCents, 0), benefitsUntil: null, rule: m.freeWithdrawalRule };
  }
  const paidThrough = subscription.expiresAt && subscription.expiresAt > now ? subscription.expiresAt.toISOString() : null;
  return { ...base, kind: 'endOfPaidPeriod', refundCents: 0, benefitsUntil: paidThrough, rule: m.afterWithdrawalRule };
}

function isCancellable(subscription: SubscriptionRow): boolean {
  return OPEN_SUBSCRIPTION_STATUSES.some((status) => status === subscription.status) && subscription.canceledAt === null;
}

async function cancellableSubscription(deps: CheckoutDeps, ctx: TenantContext) {
  const row = await findLatestSubscriptionRow(deps.db, ctx);
  if (!row) throw new AppError('CONFLICT', m.nothingToCancel);
  if (!isCancellable(row.subscription)) {
    throw new AppError('CONFLICT', row.subscription.canceledAt !== null || row.subscription.status === 'canceled' ? m.alreadyCanceled : m.nothingToCancel);
  }
  return row;
}

/** GET /api/patient/subscription/cancellation: what cancelling now would do. */
export async function previewCancellation(deps: CheckoutDeps, ctx: TenantContext): Promise<CancellationPreview> {
  const row = await cancellableSubscription(deps, ctx);
  return cancellationPlanOf(row.subscription, await paymentsOfSubscription(deps.db, ctx.clinicId, row.subscription.id), deps.now());
}

/**
 * Claims the cancellation: `canceled_at` is set under the row's lock, so of two clicks only one goes on to the
 * provider (and refunds once); the other is told it is already cancelled.
 */
async function claimCancellation(deps: CheckoutDeps, ctx: TenantContext, subscriptionId: string, now: Date): Promise<void> {
  const claimed = await deps.db
    .update(subscriptions)
    .set({ canceledAt: now, cancelReason: 'patient' })
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.clinicId, ctx.clinicId), isNull(subscriptions.canceledAt), inArray(subscriptions.status, [...OPEN_SUBSCRIPTION_STATUSES])))
    .returning({ id: subscriptions.id });
  if (claimed.length === 0) throw new AppError('CONFLICT', m.alreadyCanceled);
}

async function releaseClaim(deps: CheckoutDeps, ctx: TenantContext, subscriptionId: string): Promise<void> {
  await deps.db
    .update(subscriptions)
    .set({ canceledAt: null, cancelReason: null })
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.clinicId, ctx.clinicId)));
}

export type CancellationMail = { mailer: Mailer; background: BackgroundTasks; homeOf: (userId: string) => Promise<AccountHome> };

/** The cancellation receipt (protocol, date, plan, refund, until when the benefits last). */
export function renderCancellationReceipt(input: { home: AccountHome; planName: string; protocol: string; canceledAt: Date; refundCents: number; benefitsUntil: string | null }): RenderedEmail {
  return renderActionEmail({
    subject: m.receiptSubject,
    brandName: input.home.name,
    brandColor: input.home.color,
    intro: formatMessage(m.receiptIntro, {
      ofPlan: ofPlan(input.planName),
      date: formatDate(input.canceledAt),
      protocol: input.protocol,
      refund: formatMoney(input.refundCents),
      until: input.benefitsUntil ? formatDate(input.benefitsUntil) : m.receiptBenefitsEnded,
    }),
    actionLabel: m.receiptAction,
    actionUrl: `${input.home.baseUrl}/paciente/assinatura`,
    footer: m.receiptFooter,
  });
}

/**
 * POST /api/patient/subscription/cancel. Order: claim (canceled_at) → provider (stop future charges; refund what was
 * paid when within 7 days) → record (statuses, refunds, audit) → receipt e-mail in the background. A provider that
 * refuses to stop the subscription undoes the claim: the patient is told and nothing changed. A refund that fails
 * after the subscription was stopped is logged and audited for the clinic to settle by hand, and the answer reports
 * only what was really refunded.
 */
export async function cancelSubscription(deps: CheckoutDeps, mail: CancellationMail, ctx: TenantContext): Promise<CancelSubscriptionResponse> {
  const row = await cancellableSubscription(deps, ctx);
  const subscription = row.subscription;
  const now = deps.now();
  const charges = await paymentsOfSubscription(deps.db, ctx.clinicId, subscription.id);
  const plan = cancellationPlanOf(subscription, charges, now);
  await claimCancellation(deps, ctx, subscription.id, now);

  // A row from before checkout existed (the demo's) names no provider: its charges are the embedded provider's.
  const provider = deps.billing.providerNamed(subscription.provider ?? 'local');
  if (!provider) {
    await releaseClaim(deps, ctx, subscription.id);
    throw new AppError('SERVICE_UNAVAILABLE', messages.checkoutRules.providerUnavailable);
  }
  const account = await deps.billing.merchantAccount(ctx.clinicId).catch(async (error: unknown) => {
    await releaseClaim(deps, ctx, subscription.id);
    throw providerFailure(deps, error, 'merchantAccount');
  });
  if (subscription.providerSubscriptionId) {
    try {
      await provider.cancelSubscription(account, subscription.providerSubscriptionId);
    } catch (error) {
      await releaseClaim(deps, ctx, subscription.id);
      throw providerFailure(deps, error, 'cancelSubscription');
    }
  }

  const refunded: PaymentRow[] = [];
  const refundFailed: string[] = [];
  if (plan.kind === 'freeWithdrawal') {
    for (const charge of charges.filter(isPaid)) {
      try {
        // Each charge is refunded where it was paid (a subscription may have changed provider since).
        await (deps.billing.providerNamed(charge.provider) ?? provider).refundCharge(account, charge.providerPaymentId);
        refunded.push(charge);
      } catch (error) {
        refundFailed.push(charge.id);
        deps.log.error({ paymentId: charge.id, reason: error instanceof Error ? error.message : String(error) }, 'cancellation.refund_failed');
      }
    }
  }
  const refundCents = refunded.reduce((sum, charge) => sum + charge.amountCents, 0);
  const endsNow = plan.kind !== 'endOfPaidPeriod' || plan.benefitsUntil === null;
  const protocol = protocolOf(subscription, now);

  await deps.db.transaction(async (tx) => {
    // Ending later: the row stays 'active' with canceled_at set, and the expiry job ends it at expires_at.
    if (endsNow) {
      await tx.update(subscriptions).set({ status: 'canceled' }).where(and(eq(subscriptions.id, subscription.id), eq(subscriptions.clinicId, ctx.clinicId)));
    }
    const openIds = charges.filter(isOpenCharge).map((charge) => charge.id);
    if (openIds.length > 0) {
      await tx.update(payments).set({ status: 'canceled', canceledAt: now }).where(and(inArray(payments.id, openIds), eq(payments.clinicId, ctx.clinicId)));
    }
    if (refunded.length > 0) {
      await tx.update(payments).set({ status: 'refunded', refundedAt: now }).where(and(inArray(payments.id, refunded.map((charge) => charge.id)), eq(payments.clinicId, ctx.clinicId)));
    }
    await recordAudit(tx, {
      actorUserId: ctx.userId,
      action: 'subscription.canceled',
      entity: 'subscription',
      entityId: subscription.id,
      clinicId: ctx.clinicId,
      details: { protocol, kind: plan.kind, refundCents, refundFailed, canceledCharges: openIds, benefitsUntil: endsNow ? null : plan.benefitsUntil },
    });
  });

  const benefitsUntil = endsNow ? null : plan.benefitsUntil;
  mail.background.run(
    (async () => {
      const home = await mail.homeOf(ctx.userId);
      await mail.mailer.send(ctx.email, renderCancellationReceipt({ home, planName: row.plan.name, protocol, canceledAt: now, refundCents, benefitsUntil }));
    })(),
    'cancellation receipt',
  );

  const reloaded = await findSubscriptionWithPlan(deps.db, ctx.clinicId, subscription.id);
  if (!reloaded) throw new AppError('NOT_FOUND');
  return { subscription: toSubscription(reloaded.subscription, reloaded.plan), refundCents, protocol };
}
