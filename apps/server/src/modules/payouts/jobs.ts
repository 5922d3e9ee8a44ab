import type { Database } from '../../db/client.ts';
import type { JobLog, JobRunner } from '../jobs/runner.ts';
import { buildMonthPayouts, previousPayoutMonth } from './build.ts';

export const PAYOUTS_QUEUE = 'monthly-payouts';

/**
 * Builds the previous São Paulo month's payouts. Scheduled daily at 2 am rather than on the 1st alone (the runner's
 * schedules are daily or weekly): the first run of a month builds them, every later run finds them built and does
 * nothing, and a server that was off on the 1st catches up on its next day. Each occurrence runs once across
 * processes (its singleton key), and building is idempotent per clinic and month besides (build.ts).
 */
export function registerPayoutJobs(runner: JobRunner, options: { db: Database; log: JobLog }): void {
  runner.register(PAYOUTS_QUEUE, async (job) => {
    const month = previousPayoutMonth(job.startedAt);
    const built = await buildMonthPayouts(options.db, month, job.startedAt);
    if (built > 0) options.log.info({ period: month.period, built }, 'payouts built');
  });
  runner.schedule(PAYOUTS_QUEUE, { hour: 2 });
}
