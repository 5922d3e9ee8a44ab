/**
 * Work the ledger decides inside a transaction but that must happen at the provider (ADR 013, "Follow-up at the
 * provider"): cancelling the recurring subscription a provider event ended here, and refunding a charge paid after
 * the subscription was cancelled. Never an HTTP call inside the ledger's transaction: the decision writes a job in
 * that same transaction (so it exists exactly when the change committed), and the job calls the provider with
 * retries and back-off. Each job is idempotent: a retried or duplicated job finds the work done and does nothing.
 */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditLog, payments, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { insertJob } from '../jobs/repository.ts';
import type { Job } from '../jobs/runner.ts';
import type { Notify } from './notices.ts';
import { merchantAccountFor, type PaymentProviders } from './providers/index.ts';
import type { PaymentProvider, ProviderName } from './providers/provider.ts';
import { isPaidStatus } from './state-machine.ts';
import type { WebhookLog } from './webhook-events.ts';

export const PROVIDER_WORK_QUEUE = 'payment-provider-work';
/** 30 s doubling to an hour (the runner's default back-off): twelve attempts keep trying for about five hours. */
export const PROVIDER_WORK_MAX_ATTEMPTS = 12;

/** The audit action that records an automatic refund; its presence is what makes the refund job idempotent. */
export const AUTO_REFUND_AUDIT = 'payment.refunded_after_cancellation';
/** Written with the settlement of a charge whose subscription was already cancelled: that charge extended nothing. */
export const PAID_AFTER_CANCELLATION_AUDIT = 'payment.paid_after_cancellation';

const workSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('cancelSubscription'), subscriptionId: z.uuid(), source: z.string() }),
  z.object({ kind: z.literal('refundCharge'), paymentId: z.uuid(), source: z.string() }),
]);
export type ProviderWork = z.infer<typeof workSchema>;

/** Asaas statuses of a charge whose money is on its way back (or back): a second refund must not be asked. */
const REFUNDED_AT_PROVIDER = new Set(['REFUNDED', 'REFUND_REQUESTED', 'REFUND_IN_PROGRESS']);

/**
 * Writes the job in the caller's transaction (a platform transaction: the tenant role cannot write `jobs`). One job
 * per subscription or charge: the singleton key makes a second decision about the same one add nothing.
 */
export async function enqueueProviderWork(tx: Database, work: ProviderWork, now: Date): Promise<void> {
  const singletonKey = work.kind === 'cancelSubscription' ? `cancelSubscription:${work.subscriptionId}` : `refundCharge:${work.paymentId}`;
  await insertJob(tx, { queue: PROVIDER_WORK_QUEUE, payload: work, singletonKey, runAt: now, maxAttempts: PROVIDER_WORK_MAX_ATTEMPTS, createdAt: now });
}

export type ProviderWorkDeps = {
  db: Database;
  providers: Pick<PaymentProviders, 'byName'>;
  keyBox: SecretBox;
  notify: Notify;
  log: WebhookLog;
};

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

async function audit(db: Database, entry: { action: string; entity: 'payment' | 'subscription'; entityId: string; clinicId: string; details: Record<string, unknown> }): Promise<void> {
  await db.insert(auditLog).values({ actorUserId: null, ...entry });
}

/**
 * A failure: a permanent one, or the last attempt, is audited for the clinic to settle by hand (and the job ends);
 * a transient one is thrown for the runner to retry with back-off.
 */
async function failed(deps: ProviderWorkDeps, job: Job, error: unknown, entry: { action: string; entity: 'payment' | 'subscription'; entityId: string; clinicId: string; details: Record<string, unknown> }): Promise<void> {
  const permanent = isPermanent(error);
  const lastAttempt = job.attempts >= job.maxAttempts;
  if (!permanent && !lastAttempt) throw error;
  const details = { ...entry.details, reason: reasonOf(error), attempts: job.attempts };
  await audit(deps.db, { ...entry, details });
  deps.log.warn({ ...details, action: entry.action, entityId: entry.entityId }, 'payments.provider_work_failed');
  if (!permanent) throw error;
}

/** Stops the provider's recurring subscription; an already cancelled or unknown one (404 at Asaas) counts as done. */
async function cancelAtProvider(deps: ProviderWorkDeps, work: Extract<ProviderWork, { kind: 'cancelSubscription' }>, job: Job): Promise<void> {
  const [row] = await deps.db
    .select({ id: subscriptions.id, clinicId: subscriptions.clinicId, provider: subscriptions.provider, providerSubscriptionId: subscriptions.providerSubscriptionId })
    .from(subscriptions)
    .where(eq(subscriptions.id, work.subscriptionId))
    .limit(1);
  if (!row || !row.providerSubscriptionId || !isProviderName(row.provider)) return;
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

function alreadyRefundedByUs(db: Database, paymentId: string): Promise<boolean> {
  return paymentWasAudited(db, paymentId, AUTO_REFUND_AUDIT);
}

/** Asks the provider for the refund unless the money is already on its way back (a retry after a lost answer). */
async function refundAtProvider(provider: PaymentProvider, deps: ProviderWorkDeps, target: RefundTarget): Promise<void> {
  const account = await merchantAccountFor(deps.db, deps.keyBox, target.payment.clinicId);
  const atProvider = await provider.getCharge(account, target.payment.providerPaymentId);
  if (atProvider && REFUNDED_AT_PROVIDER.has(atProvider.status)) return;
  await provider.refundCharge(account, target.payment.providerPaymentId);
}

/**
 * Refunds a charge paid after its subscription was cancelled, records it on the charge (as checkout's refunds are:
 * `refunded`, `refunded_at`), audits it and tells the patient. The subscription is not touched: it stays cancelled.
 */
async function refundPaidAfterCancellation(deps: ProviderWorkDeps, work: Extract<ProviderWork, { kind: 'refundCharge' }>, job: Job): Promise<void> {
  const target = await refundTargetOf(deps.db, work.paymentId);
  const providerName = target?.payment.provider ?? null;
  if (!target || !isProviderName(providerName)) return;
  if (await alreadyRefundedByUs(deps.db, target.payment.id)) return;
  const { payment } = target;
  const details = { source: work.source, provider: payment.provider, providerPaymentId: payment.providerPaymentId, amountCents: payment.amountCents, subscriptionId: payment.subscriptionId };
  // Refunded here already: the provider's PAYMENT_REFUNDED of this very refund (or the clinic's own) came first.
  if (payment.status !== 'refunded') {
    try {
      await refundAtProvider(deps.providers.byName(providerName), deps, target);
    } catch (error) {
      await failed(deps, job, error, { action: 'payment.refund_after_cancellation_failed', entity: 'payment', entityId: payment.id, clinicId: payment.clinicId, details });
      return;
    }
  }
  const now = job.startedAt;
  const recorded = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update').limit(1);
    if (!locked || (await alreadyRefundedByUs(tx, locked.id))) return false;
    if (isPaidStatus(locked.status)) {
      await tx.update(payments).set({ status: 'refunded', refundedAt: locked.refundedAt ?? now, updatedAt: now }).where(eq(payments.id, locked.id));
    }
    await audit(tx, { action: AUTO_REFUND_AUDIT, entity: 'payment', entityId: locked.id, clinicId: locked.clinicId, details });
    return true;
  });
  if (!recorded) return;
  deps.log.info({ paymentId: payment.id, ...details }, 'payments.refunded_after_cancellation');
  deps.notify([{ kind: 'refundedAfterCancellation', userId: target.userId, planName: target.planName, amountCents: payment.amountCents }]);
}

/** The queue's handler: one piece of provider work per job. */
export function providerWorkHandler(deps: ProviderWorkDeps): (job: Job) => Promise<void> {
  return async (job) => {
    const work = workSchema.parse(job.payload);
    if (work.kind === 'cancelSubscription') await cancelAtProvider(deps, work, job);
    else await refundPaidAfterCancellation(deps, work, job);
  };
}
