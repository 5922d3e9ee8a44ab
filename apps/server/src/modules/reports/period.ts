import { and, gte, lt, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Period } from '@carteirinha/shared/contracts/reports';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight of a São Paulo calendar day (yyyy-MM-dd) as an instant; São Paulo is UTC-3 all year since 2019. */
function saoPauloMidnight(day: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1, 3, 0, 0));
}

/** "Created within the period", both days included; no period means all time. */
export function createdWithin(column: AnyColumn, period: Period): SQL | undefined {
  if (!period.from || !period.to) return undefined;
  const start = saoPauloMidnight(period.from);
  const end = new Date(saoPauloMidnight(period.to).getTime() + DAY_MS);
  return and(gte(column, start), lt(column, end));
}
