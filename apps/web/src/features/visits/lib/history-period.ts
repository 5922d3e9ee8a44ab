import type { PatientPeriodQuery } from '@carteirinha/shared/contracts/patient-visits';
import { saoPauloDay, saoPauloMidnight } from '@carteirinha/shared/sao-paulo-time';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Histórico's period choices, by their name in the page's address (?periodo=). */
export const HISTORY_PERIODS = ['all', 'thisMonth', 'lastMonth', 'last3', 'last6', 'last12', 'thisYear'] as const;
export type HistoryPeriod = (typeof HISTORY_PERIODS)[number];

export function isHistoryPeriod(value: string | null): value is HistoryPeriod {
  return HISTORY_PERIODS.some((period) => period === value);
}

/** The first day (yyyy-MM-01) of the month `back` months before the São Paulo month of `today` (yyyy-MM-dd). */
function firstDayMonthsBack(today: string, back: number): string {
  const [year = 1970, month = 1] = today.split('-').map(Number);
  const index = year * 12 + (month - 1) - back;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/**
 * The São Paulo days a choice covers as of `now`: 'Últimos 3 meses' is this month and the two before it, from their
 * first day; every choice runs to today. The server reads them as São Paulo days, both included.
 */
export function historyPeriodDays(period: HistoryPeriod, now: Date): PatientPeriodQuery {
  const today = saoPauloDay(now);
  switch (period) {
    case 'all':
      return {};
    case 'thisMonth':
      return { from: firstDayMonthsBack(today, 0), to: today };
    case 'lastMonth':
      return { from: firstDayMonthsBack(today, 1), to: saoPauloDay(new Date(saoPauloMidnight(firstDayMonthsBack(today, 0)).getTime() - DAY_MS)) };
    case 'last3':
      return { from: firstDayMonthsBack(today, 2), to: today };
    case 'last6':
      return { from: firstDayMonthsBack(today, 5), to: today };
    case 'last12':
      return { from: firstDayMonthsBack(today, 11), to: today };
    case 'thisYear':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
  }
}

/** A month of the chart (yyyy-MM) as the patient reads it: 03/2026. */
export function monthLabel(yearMonth: string): string {
  return `${yearMonth.slice(5, 7)}/${yearMonth.slice(0, 4)}`;
}
