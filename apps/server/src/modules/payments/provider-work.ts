/**
 * The payments module's part of a subscription's transitions (ADR 013, "Follow-up at the provider"): stopping the
 * recurring subscription at the provider, refunding a charge (paid after cancellation, or the 7-day withdrawal's
 * part of it), and changing the price of the next charges. Never an HTTP call inside a transaction: the lifecycle
 * writes the job in the transition's transaction (so it exists exactly when the change committed), and the job calls
 * the provider with retries and back-off. Each job is idempotent: a retried or duplicated job finds the work done.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog, payments, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Job, JobRunner } from '../jobs/runner.ts';
import { enqueueFollowUps, PATIENT_NOTICE_QUEUE, providerWorkSchema, type ProviderWork, type RefundReason } from '../subscriptions/follow-ups.ts';
import { merchantAccountFor, type PaymentProviders } from './providers/index.ts';
import type { PaymentProvider, ProviderName } from './providers/provider.ts';
import { isPaidStatus } from './state-machine.ts';
import type { WebhookLog } from './webhook-events.ts';

/** 30 s doubling to an hour (the runner's default back-off): twelve attempts keep trying for about five hours. */
export const PROVIDER_WORK_MAX_ATTEMPTS = 12;

/** The audit action that records a refund done, by reason; its presence is what makes the refund job idempotent. */
export const REFUND_DONE_AUDIT: Record<RefundReason, string> = {
  paidAfterCancellation: 'payment.refunded_after_cancellation',
  withdrawal: 'payment.withdrawal_refunded',
};
const REFUND_FAILED_AUDIT: Record<RefundReason, string> = {
  paidAfterCancellation: 'payment.refund_after_cancellation_failed',
  withdrawal: 'payment.withdrawal_refund_failed',
};
/** Written with the settlement of a charge whose subscription was already cancelled: that charge extended nothing. */
export const PAID_AFTER_CANCELLATION_AUDIT = 'payment.paid_after_cancellation';

/** Asaas statuses of a charge whose money is on its way back (or back): a second refund must not be asked. */
const REFUNDED_AT_PROVIDER = new Set(['REFUNDED', 'REFUND_REQUESTED', 'REFUND_IN_PROGRESS']);

export type ProviderWorkDeps = {
  db: Database;
  jobs: Pick<JobRunner, 'enqueue'>;
  providers: Pick<PaymentProviders, 'byName'>;
  keyBox: SecretBox;
  log: WebhookLog;
};

type AuditEntry = { action: string; entity: 'payment' | 'subscription'; entityId: string; clinicId: string; details: Record<string, unknown> };

function isProviderName(name: string | null): name is ProviderName {
  return name === 'local' || name === 'asaas';
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A refusal (4xx with a reason) will not change on a retry; anything else (5xx, timeout, network) may. */
function isPermanent(error: unknown): boolean {
  return error instanceof AppError && error.code === 'PAYMENT_REJECTED';
}

async function audit(db: Database, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({ actorUserId: null, ...entry });
}

/**
 * A failure: a permanent one, or the last attempt, is audited for the clinic to settle by hand (and the job ends);
 * a transient one is thrown for the runner to retry with back-off.
 */
async function failed(deps: ProviderWorkDeps, job: Job, error: unknown, entry: AuditEntry): Promise<void> {
  const permanent = isPermanent(error);
  const lastAttempt = job.attempts >= job.maxAttempts;
  if (!permanent && !lastAttempt) throw error;
  const details = { ...entry.details, reason: reasonOf(error), attempts: job.attempts };
  await audit(deps.db, { ...entry, details });
  deps.log.warn({ ...details, action: entry.action, entityId: entry.entityId }, 'payments.provider_work_failed');
  if (!permanent) throw error;
}

async function subscriptionAtProvider(db: Database, subscriptionId: string) {
  const [row] = await db
    .select({ id: subscriptions.id, clinicId: subscriptions.clinicId, provider: subscriptions.provider, providerSubscriptionId: subscriptions.providerSubscriptionId })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId))
    .limit(1);
  if (!row || !row.providerSubscriptionId || !isProviderName(row.provider)) return null;
  return { ...row, provider: row.provider, providerSubscriptionId: row.providerSubscriptionId };
}

/** Stops the provider's recurring subscription; an already cancelled or unknown one (404 at Asaas) counts as done. */
async function cancelAtProvider(deps: ProviderWorkDeps, work: Extract<ProviderWork, { kind: 'cancelSubscription' }>, job: Job): Promise<void> {
  const current = await subscriptionAtProvider(deps.db, work.subscriptionId);
  if (!current) return;
  const row = { ...current, providerSubscriptionId: work.providerSubscriptionId ?? current.providerSubscriptionId };
  const details = { source: work.source, provider: row.provider, providerSubscriptionId: row.providerSubscriptionId };
  try {
    const account = await merchantAccountFor(deps.db, deps.keyBox, row.clinicId);
    await deps.providers.byName(row.provider).cancelSubscription(account, row.providerSubscriptionId);
  } catch (error) {
    await failed(deps, job, error, { action: 'subscription.provider_cancel_failed', entity: 'subscription', entityId: row.id, clinicId: row.clinicId, details });
    return;
  }
  await audit(deps.db, { action: 'subscription.provider_canceled', entity: 'subscription', entityId: row.id, clinicId: row.clinicId, details });
  deps.log.info({ subscriptionId: row.id, ...details }, 'payments.provider_subscription_canceled');
}

/** The next charges at the provider follow the subscription's new price (a plan changed, a dependent added or removed). */
async function updateAmountAtProvider(deps: ProviderWorkDeps, work: Extract<ProviderWork, { kind: 'updateAmount' }>, job: Job): Promise<void> {
  const row = await subscriptionAtProvider(deps.db, work.subscriptionId);
  if (!row) return;
  const details = { source: work.source, provider: row.provider, providerSubscriptionId: row.providerSubscriptionId, amountCents: work.amountCents };
  try {
    const account = await merchantAccountFor(deps.db, deps.keyBox, row.clinicId);
    await deps.providers.byName(row.provider).updateSubscriptionAmount(account, row.providerSubscriptionId, work.amountCents);
  } catch (error) {
    await failed(deps, job, error, { action: 'subscription.provider_amount_failed', entity: 'subscription', entityId: row.id, clinicId: row.clinicId, details });
    return;
  }
  await audit(deps.db, { action: 'subscription.provider_amount_updated', entity: 'subscription', entityId: row.id, clinicId: row.clinicId, details });
}

type RefundTarget = { payment: typeof payments.$inferSelect; userId: string; planName: string };

async function refundTargetOf(db: Database, paymentId: string): Promise<RefundTarget | null> {
  const [row] = await db
    .select({ payment: payments, userId: subscriptions.userId, planName: subscriptionPlans.name })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(eq(payments.id, paymentId))
    .limit(1);
  return row ?? null;
}

/** Whether the charge's audit trail holds `action`: the records above are what this work's decisions rest on. */
export async function paymentWasAudited(db: Database, paymentId: string, action: string): Promise<boolean> {
  const [row] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'payment'), eq(auditLog.entityId, paymentId), eq(auditLog.action, action)))
    .limit(1);
  return row !== undefined;
}

/** Asks the provider for the refund unless the money is already on its way back (a retry after a lost answer). */
async function refundAtProvider(provider: PaymentProvider, deps: ProviderWorkDeps, target: RefundTarget, amountCents: number | null): Promise<void> {
  const account = await merchantAccountFor(deps.db, deps.keyBox, target.payment.clinicId);
  const atProvider = await provider.getCharge(account, target.payment.providerPaymentId);
  if (atProvider && REFUNDED_AT_PROVIDER.has(atProvider.status)) return;
  await provider.refundCharge(account, target.payment.providerPaymentId, amountCents);
}

/**
 * Refunds a charge (all of it, or the withdrawal's part), records it on the charge (`refunded`, `refunded_at`, and
 * `refunded_cents` when partial) and audits it. A charge paid after cancellation also gets the patient's 'Pagamento
 * estornado' (the withdrawal's receipt already said what comes back). The subscription is not touched here.
 */
async function refundCharge(deps: ProviderWorkDeps, work: Extract<ProviderWork, { kind: 'refundCharge' }>, job: Job): Promise<void> {
  const target = await refundTargetOf(deps.db, work.paymentId);
  const providerName = target?.payment.provider ?? null;
  if (!target || !isProviderName(providerName)) return;
  const doneAudit = REFUND_DONE_AUDIT[work.reason];
  if (await paymentWasAudited(deps.db, target.payment.id, doneAudit)) return;
  const { payment } = target;
  const amountCents = work.amountCents !== null && work.amountCents < payment.amountCents ? work.amountCents : null;
  const details = { source: work.source, provider: payment.provider, providerPaymentId: payment.providerPaymentId, amountCents: amountCents ?? payment.amountCents, subscriptionId: payment.subscriptionId };
  // Refunded here already: the provider's PAYMENT_REFUNDED of this very refund (or the clinic's own) came first.
  if (payment.status !== 'refunded') {
    try {
      await refundAtProvider(deps.providers.byName(providerName), deps, target, amountCents);
    } catch (error) {
      await failed(deps, job, error, { action: REFUND_FAILED_AUDIT[work.reason], entity: 'payment', entityId: payment.id, clinicId: payment.clinicId, details });
      return;
    }
  }
  const now = job.startedAt;
  const recorded = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update').limit(1);
    if (!locked || (await paymentWasAudited(tx, locked.id, doneAudit))) return false;
    if (isPaidStatus(locked.status) || locked.status === 'refunded') {
      await tx
        .update(payments)
        .set({ status: 'refunded', refundedAt: locked.refundedAt ?? now, refundedCents: amountCents, updatedAt: now })
        .where(eq(payments.id, locked.id));
    }
    await audit(tx, { action: doneAudit, entity: 'payment', entityId: locked.id, clinicId: locked.clinicId, details });
    if (work.reason === 'paidAfterCancellation') {
      await enqueueFollowUps(deps.jobs, tx, [
        { queue: PATIENT_NOTICE_QUEUE, notice: { kind: 'refundedAfterCancellation', userId: target.userId, planName: target.planName, amountCents: payment.amountCents }, key: `refunded:${locked.id}` },
      ]);
    }
    return true;
  });
  if (recorded) deps.log.info({ paymentId: payment.id, reason: work.reason, ...details }, 'payments.refunded');
}

/** The queue's handler: one piece of provider work per job. */
export function providerWorkHandler(deps: ProviderWorkDeps): (job: Job) => Promise<void> {
  return async (job) => {
    const work = providerWorkSchema.parse(job.payload);
    switch (work.kind) {
      case 'cancelSubscription':
        return cancelAtProvider(deps, work, job);
      case 'refundCharge':
        return refundCharge(deps, work, job);
      case 'updateAmount':
        return updateAmountAtProvider(deps, work, job);
    }
  };
}
