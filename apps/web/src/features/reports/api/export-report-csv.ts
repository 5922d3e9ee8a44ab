import type { ReportKind } from '@carteirinha/shared/contracts/reports';
import { periodQuery, type ReportPeriod } from '../lib/period';

/** GET /api/admin/reports/:kind.csv — the whole report, streamed by the server (UTF-8 with BOM, ';'). */
export function reportCsvUrl(kind: ReportKind, period: ReportPeriod | null): string {
  const query = periodQuery(period);
  return `/api/admin/reports/${kind}.csv${query ? `?${query}` : ''}`;
}

/**
 * 'Exportar CSV': the browser downloads the file itself through a link, so a report of any size streams to disk
 * instead of being held in memory by the page. The session cookie goes with it (same origin).
 */
export function downloadReportCsv(kind: ReportKind, period: ReportPeriod | null): void {
  const link = document.createElement('a');
  link.href = reportCsvUrl(kind, period);
  // Specification §7: relatorio-clinicas, relatorio-usuarios, relatorio-planos.
  link.download = `relatorio-${kind}.csv`;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
