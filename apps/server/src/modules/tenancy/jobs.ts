import type { Database } from '../../db/client.ts';
import type { JobLog, JobRunner } from '../jobs/runner.ts';
import { suspendExpiredTrials } from './service.ts';

export const TRIAL_EXPIRY_QUEUE = 'trial-expiry';

/**
 * Suspends clinics whose 14-day trial ended, each minute. The update is one conditional statement, so it is harmless
 * to run twice; the runner makes it once per minute across processes, and a missed minute is caught up by the next.
 */
export function registerTrialExpiryJob(runner: JobRunner, options: { db: Database; log: JobLog }): void {
  runner.register(TRIAL_EXPIRY_QUEUE, async (job) => {
    const suspended = await suspendExpiredTrials(options.db, job.startedAt);
    if (suspended > 0) options.log.info({ suspended }, 'trials ended: clinics suspended');
  });
  runner.schedule(TRIAL_EXPIRY_QUEUE, { everyMinutes: 1 });
}
