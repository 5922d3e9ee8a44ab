import { and, gte, lt, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Period } from '@carteirinha/shared/contracts/reports';
import { saoPauloMidnight } from '../../lib/sao-paulo-time.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Created within the period", both days included; no period means all time. */
export function createdWithin(column: AnyColumn, period: Period): SQL | undefined {
  if (!period.from || !period.to) return undefined;
  const start = saoPauloMidnight(period.from);
  const end = new Date(saoPauloMidnight(period.to).getTime() + DAY_MS);
  return and(gte(column, start), lt(column, end));
}
