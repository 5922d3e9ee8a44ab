import type { ReportKind } from '@carteirinha/shared/contracts/reports';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api';
import { saveFile } from '@/lib/save-file';
import { periodQuery, type ReportPeriod } from '../lib/period';

/** GET /api/admin/reports/:kind.csv — the whole report, streamed by the server (UTF-8 with BOM, ';'). */
export function reportCsvUrl(kind: ReportKind, period: ReportPeriod | null): string {
  const query = periodQuery(period);
  return `/api/admin/reports/${kind}.csv${query ? `?${query}` : ''}`;
}

/** Specification §7: relatorio-clinicas.csv, …; the server names the file, this is in case a proxy dropped the header. */
function reportFileName(kind: ReportKind): string {
  return `relatorio-${kind}.csv`;
}

type ExportReportInput = { kind: ReportKind; period: ReportPeriod | null };

/**
 * 'Exportar CSV': settles once the file has been handed to the browser, or with the server's error. Through the
 * mutation cache an ended session also signs the admin out on screen, as any other request would.
 */
export function useExportReportCsv() {
  return useMutation({
    mutationFn: async ({ kind, period }: ExportReportInput) => {
      const { file, fileName } = await apiDownload(reportCsvUrl(kind, period));
      saveFile(file, fileName ?? reportFileName(kind));
    },
  });
}
