import { reportSummarySchema, type ReportSummary } from '@carteirinha/shared/contracts/reports';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';
import { periodQuery, type ReportPeriod } from '../lib/period';

/** GET /api/admin/reports/summary: the three report counts and 'Estatísticas Gerais' for the period (null: all time). */
export function getReportSummary(period: ReportPeriod | null, signal?: AbortSignal): Promise<ReportSummary> {
  const query = periodQuery(period);
  return apiRequest(`/api/admin/reports/summary${query ? `?${query}` : ''}`, reportSummarySchema, { signal });
}

export function reportSummaryQueryOptions(period: ReportPeriod | null) {
  return queryOptions({
    queryKey: [ADMIN_QUERY_ROOT, 'reports', 'summary', period],
    queryFn: ({ signal }) => getReportSummary(period, signal),
  });
}

/** The figures for the period; the previous period's stay on screen (marked busy) while the new ones load. */
export function useReportSummary(period: ReportPeriod | null) {
  return useQuery({ ...reportSummaryQueryOptions(period), placeholderData: keepPreviousData });
}
