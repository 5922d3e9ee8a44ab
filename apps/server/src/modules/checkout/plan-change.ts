/**
 * The patient's change of plan (issue 27, ADR 028): what each other plan would cost, asking for a change, giving it up.
 * The rules (upgrade or downgrade, the prorated difference, who stays covered, when it takes effect) are the
 * lifecycle's; here are the three steps an upgrade's charge takes at the provider, as checkout's first charge does:
 * record the change, make the charge outside any transaction, record the charge (or undo the change).
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { PLATFORM_FEE_PERCENT } from '@carteirinha/shared/constants';
import type { PlanChange, PlanChangeOverview, PlanChangeRequestValues } from '@carteirinha/shared/contracts/plan-changes';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { payments, planChanges, subscriptionPlans } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { TenantContext } from '../../plugins/access-control.ts';
import { findProfile } from '../profiles/service.ts';
import * as lifecycle from '../subscriptions/lifecycle.ts';
import { todayIn, type CheckoutDeps } from './billing.ts';
import { toPayment } from './payment-view.ts';
import { firstDueDateOf, paymentValuesOf, providerFailure, settleIfConfirmed } from './service.ts';

const m = messages.planChange;

const REFUSALS: Partial<Record<lifecycle.LifecycleRefusal['reason'], string>> = {
  noSubscription: m.blocked.noSubscription,
  companyPaid: m.companyPaid,
  canceled: m.canceled,
  overdue: m.overdue,
  notPaidYet: m.notPaidYet,
  samePlan: m.samePlan,
  unknownPlan: m.unknownPlan,
  otherCycle: m.otherCycle,
  notYourDependent: m.notYourDependent,
  tooManyKept: m.keepTooMany,
};

/** The lifecycle's refusals in the patient's words. */
function refusalToError(error: unknown, maxDependents: number): never {
  if (!(error instanceof lifecycle.LifecycleRefusal)) throw error;
  const text = REFUSALS[error.reason];
  if (!text) throw new AppError('CONFLICT', m.notLive);
  // What the patient chose is wrong (VALIDATION); what the subscription is does not allow it now (CONFLICT).
  const aboutTheChoice = ['samePlan', 'unknownPlan', 'otherCycle', 'notYourDependent', 'tooManyKept'].includes(error.reason);
  throw new AppError(aboutTheChoice ? 'VALIDATION' : 'CONFLICT', formatMessage(text, { max: String(maxDependents) }));
}

function contextOf(deps: CheckoutDeps, tx: Database, ctx: TenantContext, now: Date): lifecycle.LifecycleContext {
  return { tx, jobs: deps.jobs, now, source: 'patient', actorUserId: ctx.userId };
}

async function viewOf(db: Database, change: lifecycle.PlanChangeRow): Promise<PlanChange> {
  const [plan] = await db.select({ name: subscriptionPlans.name }).from(subscriptionPlans).where(eq(subscriptionPlans.id, change.toPlanId)).limit(1);
  const [payment] = await db.select().from(payments).where(and(eq(payments.planChangeId, change.id), eq(payments.clinicId, change.clinicId))).limit(1);
  return {
    id: change.id,
    kind: change.kind,
    status: change.status,
    toPlanName: plan?.name ?? '',
    amountCents: change.amountCents,
    chargeCents: change.chargeCents,
    effectiveAt: change.effectiveAt?.toISOString() ?? null,
    payment: payment ? toPayment(payment) : null,
  };
}

/** GET /api/patient/plan-change: each plan the patient may move to, priced by the rule that charges it. */
export async function planChangeOverview(deps: CheckoutDeps, ctx: TenantContext): Promise<PlanChangeOverview> {
  const current = await lifecycle.latestSubscriptionOf(deps.db, ctx);
  const subscription = current?.subscription ?? null;
  const blockedBy = lifecycle.planChangeBlockOf(subscription);
  const pendingRow = subscription ? await lifecycle.pendingPlanChangeOf(deps.db, subscription.id) : null;
  const pending = pendingRow ? await viewOf(deps.db, pendingRow) : null;
  if (!subscription || blockedBy || subscription.amountCents === null || subscription.expiresAt === null) {
    return { blockedBy: blockedBy ?? 'noSubscription', currentPlanId: subscription?.planId ?? null, options: [], dependents: [], pending };
  }
  const paid = { amountCents: subscription.amountCents, expiresAt: subscription.expiresAt };
  const covered = await lifecycle.coveredDependentsOf(deps.db, subscription);
  const now = deps.now();
  const options = (await lifecycle.plansToChangeTo(deps.db, subscription)).map((plan) => {
    const room = Math.max(0, plan.maxMembers - 1);
    const quote = lifecycle.quotePlanChange(paid, plan, Math.min(covered.length, room), now);
    return {
      planId: plan.id,
      planName: plan.name,
      kind: quote.kind,
      amountCents: quote.amountCents,
      chargeCents: quote.chargeCents,
      remainingDays: quote.remainingDays,
      effectiveAt: quote.effectiveAt?.toISOString() ?? null,
      maxDependents: room,
    };
  });
  return { blockedBy: null, currentPlanId: subscription.planId, options, dependents: covered, pending };
}

type Recorded = { change: lifecycle.PlanChangeRow; quote: lifecycle.PlanChangeQuote; subscription: lifecycle.SubscriptionRow };

/** Step 1: the change recorded under the subscription's lock (a downgrade, or a free upgrade, is complete here). */
async function recordChange(deps: CheckoutDeps, ctx: TenantContext, input: { planId: string; keepDependentIds: string[] }): Promise<Recorded> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const current = await lifecycle.latestSubscriptionOf(tx, ctx, { lock: true });
    if (!current) throw new AppError('CONFLICT', m.blocked.noSubscription);
    try {
      const { change, quote } = await lifecycle.requestPlanChange(contextOf(deps, tx, ctx, now), current.subscription, input);
      return { change, quote, subscription: current.subscription };
    } catch (error) {
      const [target] = await tx.select({ maxMembers: subscriptionPlans.maxMembers }).from(subscriptionPlans).where(eq(subscriptionPlans.id, input.planId)).limit(1);
      refusalToError(error, Math.max(0, (target?.maxMembers ?? 1) - 1));
    }
  });
}

/** Undoes a recorded upgrade whose charge never came to be. */
async function undoChange(deps: CheckoutDeps, ctx: TenantContext, recorded: Recorded): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const subscription = await lifecycle.lockSubscription(tx, recorded.subscription.id);
    if (subscription) await lifecycle.endPlanChange(contextOf(deps, tx, ctx, deps.now()), subscription, recorded.change.id, 'lapsed');
  });
}

/**
 * POST /api/patient/plan-change. A downgrade is scheduled; an upgrade records the change, makes its charge at the
 * subscription's provider (its externalReference is the change's id, so a retry finds the same charge), records it,
 * and settles a card captured at once through the webhooks' path — which is what puts the new plan in effect.
 */
export async function requestPlanChange(deps: CheckoutDeps, ctx: TenantContext, input: PlanChangeRequestValues, ip: string): Promise<{ change: PlanChange }> {
  const recorded = await recordChange(deps, ctx, input);
  const { change, quote, subscription } = recorded;
  if (change.kind === 'downgrade' || change.status !== 'pending') return { change: await viewOf(deps.db, change) };

  const provider = deps.billing.providerNamed(subscription.provider ?? 'local');
  const now = deps.now();
  const today = todayIn(now);
  let charge;
  try {
    if (!provider) throw new AppError('SERVICE_UNAVAILABLE', messages.checkoutRules.providerUnavailable);
    const account = await deps.billing.merchantAccount(ctx.clinicId);
    const profile = await findProfile(deps.db, ctx.userId);
    const customerId =
      subscription.providerCustomerId ?? (await provider.ensureCustomer(account, { name: ctx.fullName, email: ctx.email, cpfCnpj: profile?.cpf ?? '', externalReference: ctx.userId }));
    charge = await provider.createCharge(account, {
      customerId,
      method: input.paymentMethod,
      amountCents: change.chargeCents,
      dueDate: firstDueDateOf(input.paymentMethod, today),
      description: `${m.chargeLabel}: ${quote.plan.name}`,
      externalReference: change.id,
      ...(input.creditCard ? { creditCard: input.creditCard } : {}),
      remoteIp: ip,
      platformFeePercent: PLATFORM_FEE_PERCENT,
    });
  } catch (error) {
    await undoChange(deps, ctx, recorded);
    throw providerFailure(deps, error, 'createCharge');
  }

  const payment = await deps.db.transaction(async (tx) => {
    await lifecycle.lockSubscription(tx, subscription.id);
    const values = paymentValuesOf({ id: randomUUID(), clinicId: ctx.clinicId, subscriptionId: subscription.id, providerName: provider.name, charge, adhesionFeeCents: 0, cycle: quote.plan.billingCycle, today, now, period: { start: null, end: null } });
    const [row] = await tx.insert(payments).values({ ...values, planChangeId: change.id }).returning();
    if (!row) throw new Error('plan change payment not recorded');
    return row;
  });
  await settleIfConfirmed(deps, payment, charge);
  const [reloaded] = await deps.db.select().from(planChanges).where(eq(planChanges.id, change.id)).limit(1);
  return { change: await viewOf(deps.db, reloaded ?? change) };
}

/**
 * DELETE /api/patient/plan-change ('Desistir da troca'): the pending change ends; an upgrade's open charge is deleted
 * here and at the provider (paid meanwhile, it is given back: the change no longer stands).
 */
export async function cancelPlanChange(deps: CheckoutDeps, ctx: TenantContext): Promise<void> {
  const now = deps.now();
  const openCharge = await deps.db.transaction(async (tx) => {
    const current = await lifecycle.latestSubscriptionOf(tx, ctx, { lock: true });
    const pending = current ? await lifecycle.pendingPlanChangeOf(tx, current.subscription.id) : null;
    if (!current || !pending) throw new AppError('NOT_FOUND', m.noPending);
    await lifecycle.endPlanChange(contextOf(deps, tx, ctx, now), current.subscription, pending.id, 'canceled');
    const [charge] = await tx
      .update(payments)
      .set({ status: 'canceled', canceledAt: now, updatedAt: now })
      .where(and(eq(payments.planChangeId, pending.id), eq(payments.clinicId, ctx.clinicId), eq(payments.status, 'pending')))
      .returning();
    return charge ? { charge, provider: current.subscription.provider ?? 'local' } : null;
  });
  if (!openCharge) return;
  const provider = deps.billing.providerNamed(openCharge.provider);
  try {
    if (provider) await provider.deleteCharge(await deps.billing.merchantAccount(ctx.clinicId), openCharge.charge.providerPaymentId);
  } catch (error) {
    // Best effort: a charge left open there and paid later is refunded by the settlement (the change is over).
    deps.log.warn({ paymentId: openCharge.charge.id, reason: error instanceof Error ? error.message : String(error) }, 'plan_change.charge_not_deleted');
  }
}
