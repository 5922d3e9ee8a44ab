import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { BOLETO_DUE_DAYS, PLATFORM_FEE_PERCENT } from '@carteirinha/shared/constants';
import type { PaymentMethod } from '@carteirinha/shared/contracts/payments';
import type { BillingCycle } from '@carteirinha/shared/contracts/subscription-plans';
import type { CreateSubscriptionRequest, CreateSubscriptionResponse } from '@carteirinha/shared/contracts/subscriptions';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { payments, termsAcceptances } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { TenantContext } from '../../plugins/access-control.ts';
import type { MerchantAccount, PaymentProvider, ProviderCharge } from '../payments/providers/provider.ts';
import { claimHolderCpf, fillProfileGaps, findProfile, refuseCpfOfAnother } from '../profiles/service.ts';
import * as lifecycle from '../subscriptions/lifecycle.ts';
import { toSubscription } from '../subscriptions/subscription-view.ts';
import { addCycleToDay, addDaysToDay } from '../subscriptions/periods.ts';
import { todayIn, type CheckoutDeps } from './billing.ts';
import { localBoletoUrl, toPayment } from './payment-view.ts';
import {
  deleteAbandonedReservations,
  findActivePlan,
  findSubscriptionWithPlan,
  hasOpenSubscription,
  lockClinicCheckouts,
  subscriptionLimitReached,
  type PaymentRow,
} from './repository.ts';
import { requireCurrentTerms } from './terms.ts';

const m = messages.checkoutRules;
/** A reservation older than this never reached the provider: its process died (the request timeout is 30 s). */
const ABANDONED_RESERVATION_MS = 10 * 60 * 1000;

/** Pix and card are due today; a boleto in BOLETO_DUE_DAYS (specification §4: "Vencimento em 5 dias"). */
export function firstDueDateOf(method: PaymentMethod, today: string): string {
  return method === 'boleto' ? addDaysToDay(today, BOLETO_DUE_DAYS) : today;
}

/** Whether the provider reports the charge as paid already (a card captured at once). */
export function isSettledAtProvider(charge: Pick<ProviderCharge, 'status'>): boolean {
  return charge.status === 'CONFIRMED' || charge.status === 'RECEIVED' || charge.status === 'RECEIVED_IN_CASH';
}

type NewPayment = {
  id: string;
  clinicId: string;
  subscriptionId: string;
  providerName: string;
  charge: ProviderCharge;
  adhesionFeeCents: number;
  cycle: BillingCycle;
  today: string;
  /** When it was made: the reminders read `created_at`, so it is the caller's clock, never the database's `now()`. */
  now: Date;
  /** The cycle it pays for when it replaces another charge; else from today, one cycle long. */
  period?: { start: string | null; end: string | null };
};

/**
 * The payment row of a charge the provider just made. It is stored as `pending` whatever the provider said: a charge
 * it already confirmed (a card) is settled through the one settlement path (webhooks' `settle`), which activates the
 * subscription and moves its paid-through date; writing 'confirmed' here would make that path see nothing to do.
 */
export function paymentValuesOf(input: NewPayment): typeof payments.$inferInsert {
  const { charge } = input;
  return {
    id: input.id,
    clinicId: input.clinicId,
    subscriptionId: input.subscriptionId,
    provider: input.providerName,
    providerPaymentId: charge.id,
    method: charge.method,
    amountCents: charge.amountCents,
    dueDate: charge.dueDate,
    status: 'pending',
    providerStatus: charge.status,
    pixPayload: charge.pixPayload,
    pixQrCodePng: charge.pixQrCodePng,
    // The embedded provider has no bank PDF: the web prints the boleto from the charge.
    boletoUrl: charge.boletoUrl ?? (charge.method === 'boleto' && input.providerName === 'local' ? localBoletoUrl(input.id) : null),
    boletoDigitableLine: charge.boletoDigitableLine,
    invoiceUrl: charge.invoiceUrl,
    cardSummary: charge.cardSummary,
    adhesionFeeCents: input.adhesionFeeCents,
    periodStart: input.period ? input.period.start : input.today,
    periodEnd: input.period ? input.period.end : addCycleToDay(input.today, input.cycle),
    createdAt: input.now,
  };
}

/** A failure at the provider as the patient reads it: the provider's own pt-BR refusal, or "nothing was charged". */
export function providerFailure(deps: CheckoutDeps, error: unknown, what: string): AppError {
  if (error instanceof AppError) return error;
  deps.log.error({ reason: error instanceof Error ? error.message : String(error), what }, 'checkout.provider_failed');
  return new AppError('SERVICE_UNAVAILABLE', m.providerUnavailable);
}

/** Checks that need no lock: the plan, the terms version, the CPF against the profile's. */
async function checkRequest(db: Database, ctx: TenantContext, input: CreateSubscriptionRequest) {
  const plan = await findActivePlan(db, ctx.clinicId, input.planId);
  if (!plan) throw new AppError('VALIDATION', m.planUnavailable);
  const terms = await requireCurrentTerms(db, ctx.clinicId);
  if (input.termsId !== terms.id) throw new AppError('CONFLICT', messages.contractTerms.outdated);
  const profile = await findProfile(db, ctx.userId);
  const isCpf = input.customerData.cpfCnpj.length === 11;
  // The CPF is read-only once set (DESIGN.md §2 profiles); a company paying by CNPJ leaves the profile alone.
  if (isCpf && profile?.cpf && profile.cpf !== input.customerData.cpfCnpj) throw new AppError('VALIDATION', m.cpfLocked);
  // A CPF is one person's per clinic: another's is refused (and audited) before anything reaches the provider.
  if (isCpf) await refuseCpfOfAnother(db, { clinicId: ctx.clinicId, userId: ctx.userId, cpf: input.customerData.cpfCnpj });
  return { plan, terms, cpf: isCpf ? input.customerData.cpfCnpj : null };
}

/**
 * Step 1, one short transaction under the clinic's checkout lock: the patient has no open subscription, the clinic's
 * platform plan has room, and a `pending` subscription with the terms acceptance is reserved. Only this makes a
 * second checkout with another key (another tab) wait and then be refused, instead of reaching the provider twice.
 */
async function reserveSubscription(deps: CheckoutDeps, ctx: TenantContext, input: CreateSubscriptionRequest, facts: { planId: string; priceCents: number; termsId: string; provider: string }, ip: string) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await lockClinicCheckouts(tx, ctx.clinicId);
    await deleteAbandonedReservations(tx, ctx, new Date(now.getTime() - ABANDONED_RESERVATION_MS));
    if (await hasOpenSubscription(tx, ctx)) throw new AppError('CONFLICT', m.alreadySubscribed);
    if (await subscriptionLimitReached(tx, ctx.clinicId)) throw new AppError('CONFLICT', m.patientLimit);
    const subscription = await lifecycle.reserve(lifecycleIn(tx, deps, now, ctx.userId), {
      clinicId: ctx.clinicId,
      userId: ctx.userId,
      planId: facts.planId,
      amountCents: facts.priceCents,
      paymentMethod: input.paymentMethod,
      provider: facts.provider,
    });
    await tx.insert(termsAcceptances).values({ clinicId: ctx.clinicId, userId: ctx.userId, termsId: facts.termsId, subscriptionId: subscription.id, ipAddress: ip, acceptedAt: now });
    return subscription;
  });
}

/** Undoes a reservation whose charge never came to be: the subscription goes, and its terms acceptance with it. */
async function releaseReservation(deps: CheckoutDeps, clinicId: string, subscriptionId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.delete(termsAcceptances).where(and(eq(termsAcceptances.subscriptionId, subscriptionId), eq(termsAcceptances.clinicId, clinicId)));
    await lifecycle.release(lifecycleIn(tx, deps, deps.now(), null), { id: subscriptionId, clinicId });
  });
}

/** The lifecycle's context for checkout's transitions (reserve, record, release). */
function lifecycleIn(tx: Database, deps: CheckoutDeps, now: Date, actorUserId: string | null): lifecycle.LifecycleContext {
  return { tx, jobs: deps.jobs, now, source: 'checkout', actorUserId };
}

type ProviderCall = { provider: PaymentProvider; account: MerchantAccount };

/** Step 2: the customer and the recurring subscription at the provider, with its first charge. */
async function subscribeAtProvider(call: ProviderCall, ctx: TenantContext, input: CreateSubscriptionRequest, reservation: { id: string; amountCents: number; adhesionFeeCents: number; cycle: BillingCycle; planName: string; firstDueDate: string }, ip: string) {
  const holder = { name: input.customerData.name, email: input.customerData.email, cpfCnpj: input.customerData.cpfCnpj, ...(input.customerData.phone ? { phone: input.customerData.phone } : {}) };
  const customerId = await call.provider.ensureCustomer(call.account, { ...holder, externalReference: ctx.userId });
  const created = await call.provider.createSubscription(call.account, {
    customerId,
    method: input.paymentMethod,
    amountCents: reservation.amountCents,
    firstChargeExtraCents: reservation.adhesionFeeCents,
    cycle: reservation.cycle,
    firstDueDate: reservation.firstDueDate,
    description: reservation.planName,
    externalReference: reservation.id,
    ...(input.creditCard ? { creditCard: input.creditCard } : {}),
    holder,
    remoteIp: ip,
    platformFeePercent: PLATFORM_FEE_PERCENT,
  });
  return { customerId, created };
}

/**
 * Settles a charge the provider confirmed in its own answer, through the webhooks' settlement; if that fails (or is
 * not wired in), the charge stays pending and the provider's webhook settles it.
 */
export async function settleIfConfirmed(deps: CheckoutDeps, payment: PaymentRow, charge: ProviderCharge): Promise<void> {
  if (!isSettledAtProvider(charge) || !deps.billing.settle) return;
  try {
    await deps.billing.settle(payment.id, charge);
  } catch (error) {
    deps.log.warn({ paymentId: payment.id, reason: error instanceof Error ? error.message : String(error) }, 'checkout.settle_deferred');
  }
}

async function reloadResponse(deps: CheckoutDeps, clinicId: string, subscriptionId: string, paymentId: string): Promise<CreateSubscriptionResponse> {
  const row = await findSubscriptionWithPlan(deps.db, clinicId, subscriptionId);
  const [payment] = await deps.db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.clinicId, clinicId))).limit(1);
  if (!row || !payment) throw new AppError('INTERNAL');
  return { subscription: toSubscription(row.subscription, row.plan), payment: toPayment(payment) };
}

/**
 * POST /api/patient/subscriptions: the checkout.
 *
 * How nothing is left half-written (issue 14: no pending subscription without a charge). The provider is an HTTP
 * call and must never run inside a database transaction (it may take seconds, and the embedded database has one
 * connection), so the work is three steps with compensation:
 * 1. reserve (one transaction, under the clinic's lock): checks + `pending` subscription + terms acceptance;
 * 2. the provider: customer, subscription, first charge (its externalReference is our subscription id, so a retry at
 *    the provider names the same subscription);
 * 3. record (one transaction): provider ids, the first payment row, the profile's empty CPF/phone, the audit row.
 * If step 2 fails, the reservation is deleted (its acceptance too) and the patient is told nothing was charged. If
 * step 3 fails, the provider's subscription is cancelled (best effort; its charge was never shown to anyone) and the
 * reservation deleted. A process that dies between 1 and 3 leaves a reservation without a provider id, which the
 * next checkout of that patient deletes once it is older than 10 minutes. Retries of one request are answered from
 * the Idempotency-Key (plugins/idempotency.ts) and never get here twice.
 */
export async function checkout(deps: CheckoutDeps, ctx: TenantContext, input: CreateSubscriptionRequest, ip: string): Promise<CreateSubscriptionResponse> {
  const { plan, terms, cpf } = await checkRequest(deps.db, ctx, input);
  const provider = deps.billing.providerForNew();
  const reserved = await reserveSubscription(deps, ctx, input, { planId: plan.id, priceCents: plan.priceCents, termsId: terms.id, provider: provider.name }, ip);
  const now = deps.now();
  const today = todayIn(now);
  const reservation = {
    id: reserved.id,
    amountCents: plan.priceCents,
    adhesionFeeCents: plan.adhesionFeeCents,
    cycle: plan.billingCycle,
    planName: plan.name,
    firstDueDate: firstDueDateOf(input.paymentMethod, today),
  };

  let call: ProviderCall;
  let atProvider: Awaited<ReturnType<typeof subscribeAtProvider>>;
  try {
    call = { provider, account: await deps.billing.merchantAccount(ctx.clinicId) };
    atProvider = await subscribeAtProvider(call, ctx, input, reservation, ip);
  } catch (error) {
    await releaseReservation(deps, ctx.clinicId, reserved.id);
    throw providerFailure(deps, error, 'createSubscription');
  }

  const charge = atProvider.created.firstCharge;
  const paymentId = randomUUID();
  let payment: PaymentRow;
  try {
    payment = await deps.db.transaction(async (tx) => {
      await lifecycle.attachProvider(lifecycleIn(tx, deps, now, ctx.userId), reserved, { customerId: atProvider.customerId, providerSubscriptionId: atProvider.created.id });
      const [row] = await tx
        .insert(payments)
        .values(paymentValuesOf({ id: paymentId, clinicId: ctx.clinicId, subscriptionId: reserved.id, providerName: provider.name, charge, adhesionFeeCents: plan.adhesionFeeCents, cycle: plan.billingCycle, today, now }))
        .returning();
      if (!row) throw new Error('payment not recorded');
      if (cpf) await claimHolderCpf(tx, { clinicId: ctx.clinicId, userId: ctx.userId, cpf, now });
      await fillProfileGaps(tx, ctx, { cpf, phone: input.customerData.phone ?? null });
      await recordAudit(tx, {
        actorUserId: ctx.userId,
        action: 'subscription.created',
        entity: 'subscription',
        entityId: reserved.id,
        clinicId: ctx.clinicId,
        details: { planId: plan.id, paymentMethod: input.paymentMethod, amountCents: plan.priceCents, adhesionFeeCents: plan.adhesionFeeCents, termsVersion: terms.version, provider: provider.name },
      });
      return row;
    });
  } catch (error) {
    await call.provider.cancelSubscription(call.account, atProvider.created.id).catch((cancelError: unknown) => {
      deps.log.error({ subscriptionId: reserved.id, reason: cancelError instanceof Error ? cancelError.message : String(cancelError) }, 'checkout.compensation_cancel_failed');
    });
    await releaseReservation(deps, ctx.clinicId, reserved.id);
    throw error;
  }

  await settleIfConfirmed(deps, payment, charge);
  return reloadResponse(deps, ctx.clinicId, reserved.id, payment.id);
}
