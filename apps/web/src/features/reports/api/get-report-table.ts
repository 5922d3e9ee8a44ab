import type { ReportKind } from '@carteirinha/shared/contracts/reports';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';
import { periodQuery, type ReportPeriod } from '../lib/period';

/** The print view's rows: the first ones of the report, already formatted by the server, and how many there are. */
const reportTableSchema = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  total: z.number().int(),
});
export type ReportTable = z.infer<typeof reportTableSchema>;

/** GET /api/admin/reports/:kind: the report as a table, for 'Exportar PDF' (printed from the browser). */
export function getReportTable(kind: ReportKind, period: ReportPeriod | null, signal?: AbortSignal): Promise<ReportTable> {
  const query = periodQuery(period);
  return apiRequest(`/api/admin/reports/${kind}${query ? `?${query}` : ''}`, reportTableSchema, { signal });
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
