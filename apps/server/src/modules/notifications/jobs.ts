import type { JobLog, JobRunner } from '../jobs/runner.ts';
import { exponentialBackoff } from '../jobs/backoff.ts';
import { OVERDUE_PAYMENTS_DIGEST, WEEKLY_REPORT, type PlatformNotifier } from './notifications.ts';

export const WEEKLY_REPORT_QUEUE = 'weekly-report';
export const OVERDUE_DIGEST_QUEUE = 'overdue-payments-digest';

/** An SMTP server that is down for a while: 5 min, 10 min … then hourly, for most of a day. */
const EMAIL_RETRIES = { maxAttempts: 20, backoff: exponentialBackoff({ baseMs: 5 * 60_000, maxMs: 60 * 60_000 }) };

/**
 * The platform's scheduled e-mails as queues on the runner. Each handler still claims its run in platform_settings
 * (no lease there on purpose): a worker that died after sending has its job taken over by the runner, and the claim
 * then says the e-mail went, so nobody sends it twice (ADR 012). A failed delivery gives the claim back and throws,
 * and the runner tries again later.
 */
export function registerNotificationJobs(runner: JobRunner, options: { notifier: PlatformNotifier; log: JobLog }): void {
  runner.register(
    WEEKLY_REPORT_QUEUE,
    async (job) => {
      if (await options.notifier.sendWeeklyReportIfDue(job.startedAt)) options.log.info({}, 'weekly report sent');
    },
    EMAIL_RETRIES,
  );
  runner.schedule(WEEKLY_REPORT_QUEUE, WEEKLY_REPORT);

  runner.register(
    OVERDUE_DIGEST_QUEUE,
    async (job) => {
      if (await options.notifier.sendOverduePaymentsIfDue(job.startedAt)) options.log.info({}, 'overdue payments e-mail sent');
    },
    EMAIL_RETRIES,
  );
  runner.schedule(OVERDUE_DIGEST_QUEUE, OVERDUE_PAYMENTS_DIGEST);
}
