import { SAO_PAULO_OFFSET, saoPauloDay } from './sao-paulo-time.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export type Schedule =
  | {
      /** Hour of the day in São Paulo, 0–23. */
      hour: number;
      /** Day of the week (0 = Sunday … 6 = Saturday) for a weekly schedule; every day when absent. */
      weekday?: number;
    }
  | {
      /** Every this many minutes, on the clock (e.g. 1: each whole minute; 15: :00, :15, :30, :45 UTC). */
      everyMinutes: number;
    };

/**
 * The latest moment of the schedule at or before `now` (São Paulo time). A job is due when it last ran before this:
 * a server that was off at the scheduled time catches up when it starts, and runs once per occurrence.
 */
export function lastOccurrence(now: Date, schedule: Schedule): Date {
  if ('everyMinutes' in schedule) {
    const periodMs = Math.max(1, Math.floor(schedule.everyMinutes)) * 60_000;
    return new Date(Math.floor(now.getTime() / periodMs) * periodMs);
  }
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
