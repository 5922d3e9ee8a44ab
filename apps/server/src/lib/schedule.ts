import { SAO_PAULO_OFFSET, saoPauloDay } from './sao-paulo-time.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export type Schedule = {
  /** Hour of the day in São Paulo, 0–23. */
  hour: number;
  /** Day of the week (0 = Sunday … 6 = Saturday) for a weekly schedule; every day when absent. */
  weekday?: number;
};

/**
 * The latest moment of the schedule at or before `now` (São Paulo time). A job is due when it last ran before this:
 * a server that was off at the scheduled time catches up when it starts, and runs once per occurrence.
 */
export function lastOccurrence(now: Date, schedule: Schedule): Date {
  const hour = String(schedule.hour).padStart(2, '0');
  let candidate = new Date(`${saoPauloDay(now)}T${hour}:00:00${SAO_PAULO_OFFSET}`);
  if (candidate.getTime() > now.getTime()) candidate = new Date(candidate.getTime() - DAY_MS);
  if (schedule.weekday !== undefined) {
    // The São Paulo weekday of the candidate: shift to local wall-clock and read the UTC weekday.
    const localWeekday = new Date(candidate.getTime() - 3 * 60 * 60 * 1000).getUTCDay();
    const daysBack = (localWeekday - schedule.weekday + 7) % 7;
    candidate = new Date(candidate.getTime() - daysBack * DAY_MS);
  }
  return candidate;
}

/** Whether a job on this schedule should run now, given when it last ran (null: never). */
export function isDue(now: Date, lastRun: Date | null, schedule: Schedule): boolean {
  return lastRun === null || lastRun.getTime() < lastOccurrence(now, schedule).getTime();
}

const EVERY_MINUTE_MS = 60_000;
/** After a failed run, a job rests this long before trying again, instead of failing (and logging) every minute. */
export const RETRY_AFTER_FAILURE_MS = 60 * 60 * 1000;

type JobLog = { error: (details: { err: unknown }, message: string) => void };

/**
 * Runs `tick` once a minute; each job checks for itself whether its work is due, so a server that was off at the
 * scheduled time catches up within a minute of starting. A tick still running (a long backup) is not started twice,
 * and a tick that throws is logged and followed by an hour's rest. The timer does not hold the process open.
 */
export function runEveryMinute(name: string, tick: () => Promise<void>, log: JobLog, retryAfterFailureMs = RETRY_AFTER_FAILURE_MS): NodeJS.Timeout {
  let running = false;
  let failedAt = Number.NEGATIVE_INFINITY;
  const run = async () => {
    if (running || Date.now() - failedAt < retryAfterFailureMs) return;
    running = true;
    try {
      await tick();
    } catch (error) {
      failedAt = Date.now();
      log.error({ err: error }, `${name} failed; next attempt in ${Math.round(retryAfterFailureMs / 60_000)} minutes`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), EVERY_MINUTE_MS);
  timer.unref();
  return timer;
}
