import { z } from 'zod';
import { CALENDAR_DAY_MAX, CALENDAR_DAY_MIN } from '../constants.ts';
import { formatMessage, messages } from '../messages.ts';

const a = messages.admin;
/** dd/MM/yyyy, as the message shows a bound. */
const shownDay = (day: string) => day.split('-').reverse().join('/');
/** A calendar day within the range the platform accepts (yyyy-MM-dd compares as text in calendar order). */
export const calendarDaySchema = z.iso
  .date()
  .refine(
    (day) => day >= CALENDAR_DAY_MIN && day <= CALENDAR_DAY_MAX,
    formatMessage(messages.validation.dateOutOfRange, { min: shownDay(CALENDAR_DAY_MIN), max: shownDay(CALENDAR_DAY_MAX) }),
  );

/**
 * 'Filtrar por Período' (specification §5): both dates or neither; the start may not be after the end. Dates are
 * calendar days (yyyy-MM-dd) in São Paulo; the end day is included.
 */
export const periodSchema = z
  .object({ from: calendarDaySchema.optional(), to: calendarDaySchema.optional() })
  .superRefine((value, ctx) => {
    if (Boolean(value.from) !== Boolean(value.to)) ctx.addIssue({ code: 'custom', path: ['from'], message: a.bothDatesRequired });
    if (value.from && value.to && value.from > value.to) ctx.addIssue({ code: 'custom', path: ['from'], message: a.startAfterEnd });
  });
export type Period = z.infer<typeof periodSchema>;

/** 'Estatísticas Gerais' and the three report cards, for the period (or all time). */
export const reportSummarySchema = z.object({
  clinics: z.number().int(),
  users: z.number().int(),
  plans: z.number().int(),
  activePlans: z.number().int(),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

export const REPORT_KINDS = ['clinicas', 'usuarios', 'planos'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/**
 * The print view of a report ('Exportar PDF'): its title and columns, the first rows already formatted by the server
 * (the CSV has them all), and how many rows the period holds.
 */
export const printReportSchema = z.object({
  title: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  total: z.number().int(),
});
export type PrintReport = z.infer<typeof printReportSchema>;
