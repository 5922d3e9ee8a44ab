import { printReportSchema, type PrintReport, type ReportKind } from '@carteirinha/shared/contracts/reports';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';
import { periodQuery, type ReportPeriod } from '../lib/period';

/** The print view's rows (the shared contract), under the name the print page (features/admin) imports. */
export type ReportTable = PrintReport;

/** GET /api/admin/reports/:kind: the report as a table, for 'Exportar PDF' (printed from the browser). */
export function getReportTable(kind: ReportKind, period: ReportPeriod | null, signal?: AbortSignal): Promise<ReportTable> {
  const query = periodQuery(period);
  return apiRequest(`/api/admin/reports/${kind}${query ? `?${query}` : ''}`, printReportSchema, { signal });
}

export function reportTableQueryOptions(kind: ReportKind, period: ReportPeriod | null) {
  return queryOptions({
    queryKey: [ADMIN_QUERY_ROOT, 'reports', 'table', kind, period],
    queryFn: ({ signal }) => getReportTable(kind, period, signal),
  });
}

export function useReportTable(kind: ReportKind, period: ReportPeriod | null) {
  return useQuery(reportTableQueryOptions(kind, period));
}
