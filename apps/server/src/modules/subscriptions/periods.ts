import type { BillingCycle } from '@carteirinha/shared/contracts/subscription-plans';
import { saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function monthsOf(cycle: BillingCycle): number {
  return cycle === 'monthly' ? 1 : 12;
}

/** A São Paulo day moved by whole months; the 31st lands on the last day of a shorter month. */
export function addMonthsToDay(day: string, months: number): string {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date, lastDay));
  return target.toISOString().slice(0, 10);
}

/** A São Paulo day plus one billing cycle. */
export function addCycleToDay(day: string, cycle: BillingCycle): string {
  return addMonthsToDay(day, monthsOf(cycle));
}

export function addDaysToDay(day: string, days: number): string {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/**
 * An instant moved by `count` billing cycles on the São Paulo calendar, keeping its time of day: a subscription paid
 * through 24/11 00:00 is paid through 24/12 00:00 after one more monthly charge.
 */
export function shiftByCycles(instant: Date, cycle: BillingCycle, count: number): Date {
  const day = saoPauloDay(instant);
  const sinceMidnight = instant.getTime() - saoPauloMidnight(day).getTime();
  return new Date(saoPauloMidnight(addMonthsToDay(day, monthsOf(cycle) * count)).getTime() + sinceMidnight);
}

export function addDaysToInstant(instant: Date, days: number): Date {
  return new Date(instant.getTime() + days * DAY_MS);
}

export function laterOf(a: Date | null, b: Date): Date {
  return a && a.getTime() > b.getTime() ? a : b;
}
