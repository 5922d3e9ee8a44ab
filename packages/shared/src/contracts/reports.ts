import { z } from 'zod';
import { messages } from '../messages.ts';

const a = messages.admin;
const isoDate = z.iso.date();

/**
 * 'Filtrar por Período' (specification §5): both dates or neither; the start may not be after the end. Dates are
 * calendar days (yyyy-MM-dd) in São Paulo; the end day is included.
 */
export const periodSchema = z
  .object({ from: isoDate.optional(), to: isoDate.optional() })
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
