import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { PLATFORM_FEE_PERCENT } from '@carteirinha/shared/constants';
import type { ChangePaymentMethodRequest } from '@carteirinha/shared/contracts/subscriptions';
import type { Payment } from '@carteirinha/shared/contracts/payments';
import type { Subscription } from '@carteirinha/shared/contracts/subscriptions';
import { messages } from '@carteirinha/shared/messages';
import { payments } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { TenantContext } from '../../plugins/access-control.ts';
import { findProfile } from '../profiles/service.ts';
import * as lifecycle from '../subscriptions/lifecycle.ts';
import { toSubscription } from '../subscriptions/subscription-view.ts';
import { todayIn, type CheckoutDeps } from './billing.ts';
import { toPayment } from './payment-view.ts';
import { findSubscriptionWithPlan, OPEN_PAYMENT_STATUSES, OPEN_SUBSCRIPTION_STATUSES, paymentsOfSubscription, type PaymentRow, type PlanRow, type SubscriptionRow } from './repository.ts';
import { firstDueDateOf, paymentValuesOf, providerFailure, settleIfConfirmed } from './service.ts';

const m = messages.checkoutRules;

function isOpen(subscription: SubscriptionRow): boolean {
  return OPEN_SUBSCRIPTION_STATUSES.some((status) => status === subscription.status) && subscription.canceledAt === null;
}

function openChargeOf(rows: PaymentRow[]): PaymentRow | null {
  // An upgrade's charge (ADR 028) is not the cycle's: it is paid as it was made, or the upgrade lapses.
  return rows.find((row) => row.planChangeId === null && OPEN_PAYMENT_STATUSES.some((status) => status === row.status)) ?? null;
}

/**
 * The subscription the patient may change: open, not cancelled, billed by a provider this server knows. A row from
 * before checkout existed (the demo's) names no provider: its charges are the embedded provider's.
 */
async function changeableSubscription(deps: CheckoutDeps, ctx: TenantContext) {
  const row = await lifecycle.latestSubscriptionOf(deps.db, ctx);
  if (!row || !isOpen(row.subscription)) throw new AppError('CONFLICT', m.noOpenSubscription);
  // A company pays it directly (issue 26): there is no charge through the platform whose method could change.
  if (row.subscription.companyMembershipId) throw new AppError('CONFLICT', m.companyPaid);
  const provider = deps.billing.providerNamed(row.subscription.provider ?? 'local');
  if (!provider) throw new AppError('SERVICE_UNAVAILABLE', m.providerUnavailable);
  return { ...row, provider, providerSubscriptionId: row.subscription.providerSubscriptionId };
}

type Changeable = Awaited<ReturnType<typeof changeableSubscription>>;

/** Nothing to pay now: the next charges simply come in the new method. */
async function changeFutureCharges(deps: CheckoutDeps, ctx: TenantContext, target: Changeable, input: ChangePaymentMethodRequest, ip: string) {
  try {
    const account = await deps.billing.merchantAccount(ctx.clinicId);
    // A subscription never sent to a provider has nothing to change there: the next charge is made in the new method.
    if (target.providerSubscriptionId) await target.provider.updateSubscriptionMethod(account, target.providerSubscriptionId, input.paymentMethod, input.creditCard, ip);
  } catch (error) {
    throw providerFailure(deps, error, 'updateSubscriptionMethod');
  }
  await deps.db.transaction(async (tx) => {
    await lifecycle.changePaymentMethod(tx, target.subscription, { paymentMethod: input.paymentMethod });
    await recordAudit(tx, {
      actorUserId: ctx.userId,
      action: 'subscription.payment_method_changed',
      entity: 'subscription',
      entityId: target.subscription.id,
      clinicId: ctx.clinicId,
      details: { from: target.subscription.paymentMethod, to: input.paymentMethod, replacedCharge: null },
    });
  });
  return null;
}

/**
 * A charge is open: the patient wants to pay it now in the new method. The provider interface has no "re-issue this
 * charge", so the provider subscription is replaced: a new one whose first charge is the open charge's amount, due
 * today (boleto: in 5 days), then the old subscription is cancelled, which deletes its open charge there. The new one
 * is made first, so a failure leaves the patient with the old charge still payable; the old one's cancellation is
 * best effort (logged), and its charge is already `canceled` here, so a late payment of it is the webhooks' concern.
 */
async function replaceOpenCharge(deps: CheckoutDeps, ctx: TenantContext, target: Changeable, open: PaymentRow, input: ChangePaymentMethodRequest, ip: string): Promise<PaymentRow> {
  const plan: PlanRow = target.plan;
  const today = todayIn(deps.now());
  const account = await deps.billing.merchantAccount(ctx.clinicId).catch((error: unknown) => {
    throw providerFailure(deps, error, 'merchantAccount');
  });
  const profile = await findProfile(deps.db, ctx.userId);
  let created;
  try {
    const customerId =
      target.subscription.providerCustomerId ??
      (await target.provider.ensureCustomer(account, { name: ctx.fullName, email: ctx.email, cpfCnpj: profile?.cpf ?? '', externalReference: ctx.userId }));
    created = await target.provider.createSubscription(account, {
      customerId,
      method: input.paymentMethod,
      amountCents: target.subscription.amountCents ?? plan.priceCents,
      firstChargeExtraCents: open.adhesionFeeCents,
      cycle: plan.billingCycle,
      firstDueDate: firstDueDateOf(input.paymentMethod, today),
      description: plan.name,
      externalReference: target.subscription.id,
      ...(input.creditCard ? { creditCard: input.creditCard } : {}),
      ...(profile?.cpf ? { holder: { name: ctx.fullName, email: ctx.email, cpfCnpj: profile.cpf, ...(profile.phone ? { phone: profile.phone } : {}) } } : {}),
      remoteIp: ip,
      platformFeePercent: PLATFORM_FEE_PERCENT,
    });
  } catch (error) {
    throw providerFailure(deps, error, 'createSubscription');
  }
  const now = deps.now();
  const replacement = await deps.db.transaction(async (tx) => {
    // The subscription first, then its charges: the one lock order (issue 22).
    await lifecycle.changePaymentMethod(tx, target.subscription, { paymentMethod: input.paymentMethod, provider: target.provider.name, providerSubscriptionId: created.id });
    await tx
      .update(payments)
      .set({ status: 'canceled', canceledAt: now })
      .where(and(eq(payments.id, open.id), eq(payments.clinicId, ctx.clinicId)));
    const [row] = await tx
      .insert(payments)
      .values(
        paymentValuesOf({
          id: randomUUID(),
          clinicId: ctx.clinicId,
          subscriptionId: target.subscription.id,
          providerName: target.provider.name,
          charge: created.firstCharge,
          adhesionFeeCents: open.adhesionFeeCents,
          cycle: plan.billingCycle,
          today,
          now,
          period: { start: open.periodStart, end: open.periodEnd },
        }),
      )
      .returning();
    if (!row) throw new Error('replacement payment not recorded');
    await recordAudit(tx, {
      actorUserId: ctx.userId,
      action: 'subscription.payment_method_changed',
      entity: 'subscription',
      entityId: target.subscription.id,
      clinicId: ctx.clinicId,
      details: { from: target.subscription.paymentMethod, to: input.paymentMethod, replacedCharge: open.id, newCharge: row.id },
    });
    return row;
  });
  const previous = target.providerSubscriptionId;
  if (previous && created.id !== previous) {
    await target.provider.cancelSubscription(account, previous).catch((error: unknown) => {
      deps.log.error({ subscriptionId: target.subscription.id, reason: error instanceof Error ? error.message : String(error) }, 'checkout.old_provider_subscription_not_cancelled');
    });
  }
  await settleIfConfirmed(deps, replacement, created.firstCharge);
  return replacement;
}

/**
 * PUT /api/patient/subscription/payment-method ('Alterar forma de pagamento'): the next charges come in the new
 * method; an open charge is replaced by one in the new method so the patient can pay now.
 */
export async function changePaymentMethod(deps: CheckoutDeps, ctx: TenantContext, input: ChangePaymentMethodRequest, ip: string): Promise<{ subscription: Subscription; payment: Payment | null }> {
  const target = await changeableSubscription(deps, ctx);
  if (target.subscription.paymentMethod === input.paymentMethod && input.paymentMethod !== 'credit_card') throw new AppError('CONFLICT', m.sameMethod);
  const open = openChargeOf(await paymentsOfSubscription(deps.db, ctx.clinicId, target.subscription.id));
  const replaced = open ? await replaceOpenCharge(deps, ctx, target, open, input, ip) : await changeFutureCharges(deps, ctx, target, input, ip);
  const reloaded = await findSubscriptionWithPlan(deps.db, ctx.clinicId, target.subscription.id);
  if (!reloaded) throw new AppError('NOT_FOUND');
  const [payment] = replaced ? await deps.db.select().from(payments).where(and(eq(payments.id, replaced.id), eq(payments.clinicId, ctx.clinicId))) : [];
  return { subscription: toSubscription(reloaded.subscription, reloaded.plan), payment: payment ? toPayment(payment) : null };
}
