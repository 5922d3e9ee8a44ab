import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { JobLog, JobRunner } from '../jobs/runner.ts';
import { EMAIL_RETRIES as SHARED_EMAIL_RETRIES } from '../jobs/backoff.ts';
import { OVERDUE_PAYMENTS_DIGEST, WEEKLY_REPORT, type PlatformNotifier } from './notifications.ts';

export const WEEKLY_REPORT_QUEUE = 'weekly-report';
export const OVERDUE_DIGEST_QUEUE = 'overdue-payments-digest';
/** The platform team's e-mails about one clinic: a sign-up that awaits approval, a clinic cancelled. */
export const PLATFORM_NOTICE_QUEUE = 'platform-notices';

export const platformNoticeSchema = z.object({ kind: z.enum(['clinicSignedUp', 'clinicCancelled']), name: z.string() });
export type PlatformNotice = z.infer<typeof platformNoticeSchema>;

/**
 * Hands a platform notice to the job runner, in the transaction of the change that causes it when one is given (a
 * rolled-back sign-up tells nobody).
 */
export async function enqueuePlatformNotice(jobs: Pick<JobRunner, 'enqueue'>, notice: PlatformNotice, tx?: Database): Promise<void> {
  await jobs.enqueue(PLATFORM_NOTICE_QUEUE, notice, tx ? { tx } : {});
}

/**
 * An SMTP server that is down for a while: 5 min, 10 min … then hourly, for most of a day. At most once otherwise: a
 * worker that stopped mid-send may have sent, so its job fails (logged) rather than e-mail the support address twice.
 */
const EMAIL_RETRIES = { ...SHARED_EMAIL_RETRIES, abandoned: 'fail' } as const;

/**
 * The platform's scheduled e-mails as queues on the runner (ADR 012): the runner enqueues each occurrence once across
 * server processes (its key is unique), so the handler just sends the occurrence's e-mail — `job.runAt` is the
 * occurrence. A failed delivery throws, and the runner tries again later.
 */
export function registerNotificationJobs(runner: JobRunner, options: { notifier: PlatformNotifier; log: JobLog }): void {
  runner.register(
    WEEKLY_REPORT_QUEUE,
    async (job) => {
      if (await options.notifier.sendWeeklyReport(job.runAt)) options.log.info({}, 'weekly report sent');
    },
    EMAIL_RETRIES,
  );
  runner.schedule(WEEKLY_REPORT_QUEUE, WEEKLY_REPORT);

  runner.register(
    OVERDUE_DIGEST_QUEUE,
    async (job) => {
      if (await options.notifier.sendOverduePayments(job.runAt, job.startedAt)) options.log.info({}, 'overdue payments e-mail sent');
    },
    EMAIL_RETRIES,
  );
  runner.schedule(OVERDUE_DIGEST_QUEUE, OVERDUE_PAYMENTS_DIGEST);

  runner.register(
    PLATFORM_NOTICE_QUEUE,
    async (job) => {
      const notice = platformNoticeSchema.parse(job.payload);
      const sent = notice.kind === 'clinicSignedUp' ? await options.notifier.clinicSignedUp(notice) : await options.notifier.clinicCancelled(notice);
      if (sent) options.log.info({ kind: notice.kind }, 'platform notice sent');
    },
    EMAIL_RETRIES,
  );
}
