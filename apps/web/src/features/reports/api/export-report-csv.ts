import type { ReportKind } from '@carteirinha/shared/contracts/reports';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api';
import { periodQuery, type ReportPeriod } from '../lib/period';

/** How long the file's object URL lives: the browser has long started writing the download by then. */
const OBJECT_URL_LIFETIME_MS = 60_000;

/** GET /api/admin/reports/:kind.csv — the whole report, streamed by the server (UTF-8 with BOM, ';'). */
export function reportCsvUrl(kind: ReportKind, period: ReportPeriod | null): string {
  const query = periodQuery(period);
  return `/api/admin/reports/${kind}.csv${query ? `?${query}` : ''}`;
}

/** Specification §7: relatorio-clinicas.csv, …; the server names the file, this is in case a proxy dropped the header. */
function reportFileName(kind: ReportKind): string {
  return `relatorio-${kind}.csv`;
}

/** Hands a file to the browser's downloads, under its name, through a temporary object URL. */
function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
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
