/**
 * Meu Perfil's 'Renovação automática' (issue 27). Off is the cancellation at the end of the paid period
 * (cancellation.ts `stopRenewal`); on again undoes it while that period runs. The provider's recurring subscription was
 * stopped when it went off, so turning it on makes a new one there whose first charge is the next cycle's, due at the
 * paid-through date — outside any transaction, then recorded (or, if recording fails, stopped again), as checkout does.
 * The embedded provider renews from our own record and needs nothing.
 */
import { randomUUID } from 'node:crypto';
import { PLATFORM_FEE_PERCENT } from '@carteirinha/shared/constants';
import type { AutoRenewalResponse } from '@carteirinha/shared/contracts/auto-renewal';
import type { AutoRenewalRequest } from '@carteirinha/shared/contracts/subscriptions';
import { messages } from '@carteirinha/shared/messages';
import { payments } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import type { TenantContext } from '../../plugins/access-control.ts';
import { findProfile } from '../profiles/service.ts';
import * as lifecycle from '../subscriptions/lifecycle.ts';
import { addCycleToDay } from '../subscriptions/periods.ts';
import { todayIn, type CheckoutDeps } from './billing.ts';
import { stopRenewal } from './cancellation.ts';
import { paymentValuesOf, providerFailure } from './service.ts';

const m = messages.autoRenewal;

type Resumable = NonNullable<Awaited<ReturnType<typeof lifecycle.latestSubscriptionOf>>>;

async function resumable(deps: CheckoutDeps, ctx: TenantContext): Promise<Resumable> {
  const row = await lifecycle.latestSubscriptionOf(deps.db, ctx);
  if (!row || !lifecycle.canResumeRenewal(row.subscription, deps.now())) throw new AppError('CONFLICT', m.cannotTurnOn);
  return row;
}

/** The new recurring subscription at a gateway, its first charge the next cycle's; null for the embedded provider. */
async function subscribeAgain(deps: CheckoutDeps, ctx: TenantContext, target: Resumable, input: AutoRenewalRequest, ip: string) {
  const { subscription, plan } = target;
  if (!subscription.provider || subscription.provider === 'local' || !subscription.expiresAt) return null;
  const provider = deps.billing.providerNamed(subscription.provider);
  if (!provider) throw new AppError('SERVICE_UNAVAILABLE', messages.checkoutRules.providerUnavailable);
  const method = subscription.paymentMethod ?? 'pix';
  if (method === 'credit_card' && !input.creditCard) throw new AppError('VALIDATION', messages.paymentProviders.cardRequired);
  try {
    const account = await deps.billing.merchantAccount(ctx.clinicId);
    const profile = await findProfile(deps.db, ctx.userId);
    const customerId =
      subscription.providerCustomerId ?? (await provider.ensureCustomer(account, { name: ctx.fullName, email: ctx.email, cpfCnpj: profile?.cpf ?? '', externalReference: ctx.userId }));
    const created = await provider.createSubscription(account, {
      customerId,
      method,
      amountCents: (await lifecycle.nextCycleAmountOf(deps.db, subscription)) ?? plan.priceCents,
      firstChargeExtraCents: 0,
      cycle: plan.billingCycle,
      firstDueDate: saoPauloDay(subscription.expiresAt),
      description: plan.name,
      externalReference: subscription.id,
      ...(input.creditCard ? { creditCard: input.creditCard } : {}),
      remoteIp: ip,
      platformFeePercent: PLATFORM_FEE_PERCENT,
    });
    return { provider, account, created };
  } catch (error) {
    throw providerFailure(deps, error, 'createSubscription');
  }
}

async function resumeRenewal(deps: CheckoutDeps, ctx: TenantContext, input: AutoRenewalRequest, ip: string): Promise<void> {
  const target = await resumable(deps, ctx);
  const atProvider = await subscribeAgain(deps, ctx, target, input, ip);
  const now = deps.now();
  try {
    await deps.db.transaction(async (tx) => {
      const locked = await lifecycle.lockSubscription(tx, target.subscription.id);
      if (!locked) throw new AppError('NOT_FOUND');
      try {
        await lifecycle.resumeRenewal({ tx, jobs: deps.jobs, now, source: 'patient', actorUserId: ctx.userId }, locked, atProvider ? { providerSubscriptionId: atProvider.created.id } : null);
      } catch (error) {
        if (error instanceof lifecycle.LifecycleRefusal) throw new AppError('CONFLICT', m.cannotTurnOn);
        throw error;
      }
      if (!atProvider || !locked.expiresAt) return;
      // The next cycle's charge as the gateway made it (its PAYMENT_CREATED, arriving too, then finds it recorded).
      const start = saoPauloDay(locked.expiresAt);
      const values = paymentValuesOf({
        id: randomUUID(),
        clinicId: ctx.clinicId,
        subscriptionId: locked.id,
        providerName: atProvider.provider.name,
        charge: atProvider.created.firstCharge,
        adhesionFeeCents: 0,
        cycle: target.plan.billingCycle,
        today: todayIn(now),
        now,
        period: { start, end: addCycleToDay(start, target.plan.billingCycle) },
      });
      await tx.insert(payments).values(values).onConflictDoNothing();
    });
  } catch (error) {
    if (atProvider) {
      await atProvider.provider.cancelSubscription(atProvider.account, atProvider.created.id).catch((cancelError: unknown) => {
        deps.log.error({ subscriptionId: target.subscription.id, reason: cancelError instanceof Error ? cancelError.message : String(cancelError) }, 'auto_renewal.compensation_cancel_failed');
      });
    }
    throw error;
  }
}

/** PUT /api/patient/subscription/auto-renewal. */
export async function setAutoRenewal(deps: CheckoutDeps, ctx: TenantContext, input: AutoRenewalRequest, ip: string): Promise<AutoRenewalResponse> {
  if (input.enabled) await resumeRenewal(deps, ctx, input, ip);
  else await stopRenewal(deps, ctx);
  return { autoRenewal: input.enabled ? 'on' : 'off' };
}
