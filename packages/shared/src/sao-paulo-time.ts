/**
 * Calendar arithmetic in São Paulo, where dates, periods and schedules are meant. Brazil has kept UTC−3 all year
 * since 2019, so a São Paulo wall-clock time is a fixed UTC instant.
 */
export const SAO_PAULO_OFFSET = '-03:00';
const OFFSET_HOURS = 3;

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' });

/** The São Paulo calendar day of an instant, as yyyy-MM-dd. */
export function saoPauloDay(instant: Date): string {
  return dayFormat.format(instant);
}

/** Midnight at the start of a São Paulo calendar day (yyyy-MM-dd), as an instant. */
export function saoPauloMidnight(day: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1, OFFSET_HOURS, 0, 0));
}

/** The first instant of the São Paulo month an instant falls in. */
export function startOfSaoPauloMonth(instant: Date): Date {
  return saoPauloMidnight(`${saoPauloDay(instant).slice(0, 8)}01`);
}

/** A São Paulo wall-clock time (yyyy-MM-dd and HH:mm) as an ISO instant with its offset, as the API takes it. */
export function saoPauloInstant(day: string, time: string): string {
  return `${day}T${time}:00${SAO_PAULO_OFFSET}`;
}

/** The calendar month after `yyyy-MM`, as yyyy-MM. */
export function nextYearMonth(yearMonth: string): string {
  const [year = 1970, month = 1] = yearMonth.split('-').map(Number);
  return month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
}
