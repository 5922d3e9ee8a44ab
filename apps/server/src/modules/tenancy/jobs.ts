import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { suspendExpiredTrials } from './service.ts';

const EVERY_MINUTE_MS = 60_000;

/**
 * Suspends clinics whose 14-day trial ended. The update is one conditional statement, so several server processes
 * running it at once suspend each clinic once; a missed minute is caught up by the next run.
 */
export function startTrialExpiryJob(db: Database, log: FastifyBaseLogger): NodeJS.Timeout {
  const run = async () => {
    try {
      const suspended = await suspendExpiredTrials(db);
      if (suspended > 0) log.info({ suspended }, 'trials ended: clinics suspended');
    } catch (error) {
      log.error({ err: error }, 'trial expiry job failed');
    }
  };
  void run();
  const timer = setInterval(() => void run(), EVERY_MINUTE_MS);
  timer.unref();
  return timer;
}
