import { periodSchema } from '@carteirinha/shared/contracts/reports';
import { formatIsoDay } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';

/** A chosen period: two calendar days (yyyy-MM-dd, São Paulo), both included. */
export type ReportPeriod = { from: string; to: string };

/** The page's address keeps the period (?de=…&ate=…), so a reload or a shared link shows the same figures. */
export const PERIOD_URL_PARAMS = { from: 'de', to: 'ate' } as const;

/** The period in the address, or null (all time) when there is none or it is not a valid one. */
export function readPeriodFromUrl(params: URLSearchParams): ReportPeriod | null {
  const from = params.get(PERIOD_URL_PARAMS.from);
  const to = params.get(PERIOD_URL_PARAMS.to);
  if (!from || !to) return null;
  return periodSchema.safeParse({ from, to }).success ? { from, to } : null;
}

/** Writes `period` into a copy of the address's parameters (null removes it). */
export function writePeriodToUrl(params: URLSearchParams, period: ReportPeriod | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (period) {
    next.set(PERIOD_URL_PARAMS.from, period.from);
    next.set(PERIOD_URL_PARAMS.to, period.to);
  } else {
    next.delete(PERIOD_URL_PARAMS.from);
    next.delete(PERIOD_URL_PARAMS.to);
  }
  return next;
}

/** The API's query string for a period (`from`, `to`); empty for all time. */
export function periodQuery(period: ReportPeriod | null): string {
  return period ? new URLSearchParams({ from: period.from, to: period.to }).toString() : '';
}

export type PeriodCheck = { ok: true; period: ReportPeriod } | { ok: false; message: string };

/**
 * Specification §5 'Filtrar por Período': both dates are required, and the start may not come after the end. The
 * dates are the calendars' days (yyyy-MM-dd, or empty while none is chosen).
 */
export function checkPeriod(from: string, to: string): PeriodCheck {
  if (!from || !to) return { ok: false, message: messages.admin.bothDatesRequired };
  const parsed = periodSchema.safeParse({ from, to });
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? messages.admin.bothDatesRequired };
  return { ok: true, period: { from, to } };
}

/** 'Período: 01/01/2025 até 31/01/2025' (specification §5). */
export function periodLabel(period: ReportPeriod): string {
  return formatMessage(messages.reports.period, { from: formatIsoDay(period.from), to: formatIsoDay(period.to) });
}
