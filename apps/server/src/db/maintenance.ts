import type { FastifyBaseLogger } from 'fastify';
import { isDue, runEveryMinute, type Schedule } from '../lib/schedule.ts';
import type { DatabaseHandle } from './client.ts';

/** Every day at 4 am (São Paulo), after the 3 am backup, when nobody is signed in. */
export const DAILY_MAINTENANCE: Schedule = { hour: 4 };

/**
 * The database's own upkeep (DatabaseHandle.maintain): once right after start-up, when the demo seed or a restore has
 * just written many rows, then daily. Only one process ever opens a PGlite folder, so the last run is kept in memory.
 * null (no job) for a database that looks after itself.
 */
export function startDatabaseMaintenanceJob(database: DatabaseHandle, log: FastifyBaseLogger): NodeJS.Timeout | null {
  const { maintain } = database;
  if (!maintain) return null;
  let lastRun: Date | null = null;
  return runEveryMinute(
    'database maintenance',
    async () => {
      const now = new Date();
      if (lastRun !== null && !isDue(now, lastRun, DAILY_MAINTENANCE)) return;
      await maintain();
      lastRun = now;
      log.info({ database: database.kind }, 'database maintenance done');
    },
    log,
  );
}
