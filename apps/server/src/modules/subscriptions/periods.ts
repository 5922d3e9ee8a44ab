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

/** Whole São Paulo days from one day to another (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export type Proration = { cents: number; remainingDays: number; periodDays: number };

/**
 * What an upgrade costs now (ADR 028): the difference between the two cycle prices over the São Paulo days left of the
 * period already paid (today counts: the new plan covers it), rounded to the cent. The period is the one cycle that
 * ends at the paid-through date; nothing is owed once it is over.
 */
export function prorateUpgrade(input: { fromAmountCents: number; toAmountCents: number; paidThrough: Date; cycle: BillingCycle; now: Date }): Proration {
  const end = saoPauloDay(input.paidThrough);
  const start = saoPauloDay(shiftByCycles(input.paidThrough, input.cycle, -1));
  const periodDays = Math.max(1, daysBetween(start, end));
  const remainingDays = Math.min(periodDays, Math.max(0, daysBetween(saoPauloDay(input.now), end)));
  const difference = Math.max(0, input.toAmountCents - input.fromAmountCents);
  return { cents: Math.round((difference * remainingDays) / periodDays), remainingDays, periodDays };
}
