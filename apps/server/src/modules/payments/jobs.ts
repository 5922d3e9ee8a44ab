import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Schedule } from '../../lib/schedule.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { PROVIDER_WORK_QUEUE } from '../subscriptions/follow-ups.ts';
import { noticeEndingSubscriptions, runDelinquency, sendPaymentReminders } from './delinquency.ts';
import { createLocalRenewals } from './local-renewals.ts';
import { PROVIDER_WORK_MAX_ATTEMPTS, providerWorkHandler } from './provider-work.ts';
import { reconcileRecentCharges, type ReconcileDeps } from './reconciliation.ts';
import { markWebhookEventFailed, processWebhookEvent, WEBHOOK_EVENT_QUEUE } from './webhook-events.ts';

export const RECONCILIATION_QUEUE = 'reconciliation';
export const DELINQUENCY_QUEUE = 'delinquency';
export const PAYMENT_REMINDERS_QUEUE = 'payment-reminders';
/** Attempts of an event's processing: 30 s doubling to an hour, about five hours in all. */
export const WEBHOOK_EVENT_MAX_ATTEMPTS = 12;

/** After the night's backup (2 am) and before anyone opens the portal. */
const RECONCILIATION_SCHEDULE: Schedule = { hour: 4 };
/** Hourly: a charge becomes overdue the morning after its due day, and the grace ends within the hour. */
const DELINQUENCY_SCHEDULE: Schedule = { everyMinutes: 60 };
/** Reminders in the morning, São Paulo time, not at midnight. */
const REMINDERS_SCHEDULE: Schedule = { hour: 9 };

const webhookJobSchema = z.object({ webhookEventId: z.uuid() });

function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The payments module's queues on the job runner (ADR 012): one mechanism for all durable work. */
export function registerPaymentJobs(runner: JobRunner, deps: Omit<ReconcileDeps, 'jobs'> & { db: Database; pixKey: string | undefined }): void {
  const { db } = deps;
  const withRunner = { ...deps, jobs: runner };
  runner.register(
    WEBHOOK_EVENT_QUEUE,
    async (job) => {
      const { webhookEventId } = webhookJobSchema.parse(job.payload);
      try {
        const result = await processWebhookEvent(db, withRunner, webhookEventId, job.startedAt);
        // Thrown so that the runner retries it with back-off (the charge is probably being recorded right now).
        if (result.outcome === 'deferred') throw new Error('the event names a charge not in the ledger yet');
      } catch (error) {
        // The last attempt: the event stays unprocessed and the platform admin is alerted (dashboard, audit trail).
        if (job.attempts >= job.maxAttempts) await markWebhookEventFailed(db, webhookEventId, reasonOf(error), job.startedAt);
        throw error;
      }
    },
    { concurrency: 4, leaseMs: 60_000, maxAttempts: WEBHOOK_EVENT_MAX_ATTEMPTS },
  );
  // Cancelling or refunding at the provider, changing the next charges' price: the lifecycle's follow-ups.
  runner.register(PROVIDER_WORK_QUEUE, providerWorkHandler({ ...withRunner, db }), { concurrency: 2, leaseMs: 2 * 60_000, maxAttempts: PROVIDER_WORK_MAX_ATTEMPTS });
  runner.register(RECONCILIATION_QUEUE, async (job) => {
    await reconcileRecentCharges(db, withRunner, job.startedAt);
  }, { leaseMs: 30 * 60_000 });
  runner.register(DELINQUENCY_QUEUE, async (job) => {
    await runDelinquency(db, withRunner, job.startedAt);
  }, { leaseMs: 15 * 60_000 });
  runner.register(PAYMENT_REMINDERS_QUEUE, async (job) => {
    // The embedded provider's next charges first, so that their reminders go out in time.
    await createLocalRenewals(db, withRunner, job.startedAt);
    await sendPaymentReminders(db, withRunner, job.startedAt);
    await noticeEndingSubscriptions(db, withRunner, job.startedAt);
  }, { leaseMs: 15 * 60_000 });
  runner.schedule(RECONCILIATION_QUEUE, RECONCILIATION_SCHEDULE);
  runner.schedule(DELINQUENCY_QUEUE, DELINQUENCY_SCHEDULE);
  runner.schedule(PAYMENT_REMINDERS_QUEUE, REMINDERS_SCHEDULE);
}
