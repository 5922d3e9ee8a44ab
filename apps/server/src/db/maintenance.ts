import type { Schedule } from '../lib/schedule.ts';
import type { JobLog, JobRunner } from '../modules/jobs/runner.ts';
import type { DatabaseHandle } from './client.ts';

/** Every day at 4 am (São Paulo), after the 3 am backup, when nobody is signed in. */
export const DAILY_MAINTENANCE: Schedule = { hour: 4 };
export const DATABASE_MAINTENANCE_QUEUE = 'database-maintenance';

/**
 * The database's own upkeep (DatabaseHandle.maintain) as a queue of the job runner: daily, and once right after
 * start-up (server.ts enqueues it), when the demo seed or a restore has just written many rows. Only one process ever
 * opens a PGlite folder, so that start-up run needs no singleton key. A database that looks after itself (PostgreSQL:
 * autovacuum) registers nothing; answers whether the queue exists.
 */
export function registerDatabaseMaintenanceJob(runner: JobRunner, database: DatabaseHandle, log: JobLog): boolean {
  const { maintain } = database;
  if (!maintain) return false;
  runner.register(DATABASE_MAINTENANCE_QUEUE, async () => {
    await maintain();
    log.info({ database: database.kind }, 'database maintenance done');
  });
  runner.schedule(DATABASE_MAINTENANCE_QUEUE, DAILY_MAINTENANCE);
  return true;
}
