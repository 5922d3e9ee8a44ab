import { calendarDaySchema } from '@carteirinha/shared/contracts/reports';
import { messages } from '@carteirinha/shared/messages';

const dayInSaoPaulo = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar day (yyyy-mm-dd) it is at `now` in São Paulo: the clinic's day, wherever the visitor is. */
export function saoPauloDayOf(now: Date): string {
  return dayInSaoPaulo.format(now);
}

/** "2026-11-26" → "26/11/2026", without a trip through a Date (which would shift it a day west of UTC). */
export function shownDay(day: string): string {
  return day.split('-').reverse().join('/');
}

/**
 * The day asked for in the date field: empty is today; anything else must be a real day, not after today (the table
 * tells what was charged, not what will be). Answers the day to ask for, or the pt-BR reason it cannot be.
 */
export function priceTableDayOf(typed: string, today: string): { day: string | undefined } | { error: string } {
  if (typed === '') return { day: undefined };
  const parsed = calendarDaySchema.safeParse(typed);
  if (!parsed.success) return { error: messages.priceTable.dateInvalid };
  if (parsed.data > today) return { error: messages.priceTable.dateFuture };
  return { day: parsed.data === today ? undefined : parsed.data };
}
