import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Schedule } from '../../lib/schedule.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { runDelinquency, sendPaymentReminders } from './delinquency.ts';
import { createLocalRenewals } from './local-renewals.ts';
import { PROVIDER_WORK_MAX_ATTEMPTS, PROVIDER_WORK_QUEUE, providerWorkHandler } from './provider-work.ts';
import { reconcileRecentCharges, type ReconcileDeps } from './reconciliation.ts';
import { processWebhookEvent, WEBHOOK_EVENT_QUEUE } from './webhook-events.ts';

export const RECONCILIATION_QUEUE = 'reconciliation';
export const DELINQUENCY_QUEUE = 'delinquency';
export const PAYMENT_REMINDERS_QUEUE = 'payment-reminders';

/** After the night's backup (2 am) and before anyone opens the portal. */
const RECONCILIATION_SCHEDULE: Schedule = { hour: 4 };
/** Hourly: a charge becomes overdue the morning after its due day, and the grace ends within the hour. */
const DELINQUENCY_SCHEDULE: Schedule = { everyMinutes: 60 };
/** Reminders in the morning, São Paulo time, not at midnight. */
const REMINDERS_SCHEDULE: Schedule = { hour: 9 };

const webhookJobSchema = z.object({ webhookEventId: z.uuid() });

/** The payments module's queues on the job runner (ADR 012): one mechanism for all durable work. */
export function registerPaymentJobs(runner: JobRunner, deps: ReconcileDeps & { db: Database; pixKey: string | undefined }): void {
  const { db } = deps;
  runner.register(
    WEBHOOK_EVENT_QUEUE,
    async (job) => {
      const { webhookEventId } = webhookJobSchema.parse(job.payload);
      const result = await processWebhookEvent(db, deps, webhookEventId, job.startedAt);
      // Thrown so that the runner retries it with back-off (the charge is probably being recorded right now).
      if (result.outcome === 'deferred') throw new Error('the event names a charge not in the ledger yet');
    },
    { concurrency: 4, leaseMs: 60_000, maxAttempts: 12 },
  );
  // Cancelling at the provider a subscription a provider event ended here, refunding a charge paid after cancelling.
  runner.register(PROVIDER_WORK_QUEUE, providerWorkHandler(deps), { concurrency: 2, leaseMs: 2 * 60_000, maxAttempts: PROVIDER_WORK_MAX_ATTEMPTS });
  runner.register(RECONCILIATION_QUEUE, async (job) => {
    await reconcileRecentCharges(db, deps, job.startedAt);
  }, { leaseMs: 30 * 60_000 });
  runner.register(DELINQUENCY_QUEUE, async (job) => {
    await runDelinquency(db, deps, job.startedAt);
  }, { leaseMs: 15 * 60_000 });
  runner.register(PAYMENT_REMINDERS_QUEUE, async (job) => {
    // The embedded provider's next charges first, so that their reminders go out in time.
    await createLocalRenewals(db, deps, job.startedAt);
    await sendPaymentReminders(db, deps, job.startedAt);
  }, { leaseMs: 15 * 60_000 });
  runner.schedule(RECONCILIATION_QUEUE, RECONCILIATION_SCHEDULE);
  runner.schedule(DELINQUENCY_QUEUE, DELINQUENCY_SCHEDULE);
  runner.schedule(PAYMENT_REMINDERS_QUEUE, REMINDERS_SCHEDULE);
}
