/** '2025-01-31' → '31/01', a day on a chart's axis (the year is in the table and the card's title). */
export function shortIsoDay(day: string): string {
  const [, month, date] = day.split('-');
  return `${date}/${month}`;
}

const MONTHS = new Intl.DateTimeFormat('pt-BR', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** '2025-01' (or '2025-01-01') → 'jan. de 2025', the month named as it is, whatever the browser's time zone. */
export function monthLabel(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  return MONTHS.format(new Date(Date.UTC(year ?? 1970, (monthNumber ?? 1) - 1, 1)));
}
