import { and, gte, lt, type AnyColumn, type SQL } from 'drizzle-orm';
import { saoPauloMidnight } from './sao-paulo-time.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A period of São Paulo calendar days (yyyy-MM-dd), both included; a missing end leaves that side open. */
export type SaoPauloDays = { from?: string | undefined; to?: string | undefined };

/** `column` (an instant) falls within the São Paulo days: from the first day's midnight to the midnight after the last. */
export function withinSaoPauloDays(column: AnyColumn, days: SaoPauloDays): SQL | undefined {
  return and(
    days.from ? gte(column, saoPauloMidnight(days.from)) : undefined,
    days.to ? lt(column, new Date(saoPauloMidnight(days.to).getTime() + DAY_MS)) : undefined,
  );
}
