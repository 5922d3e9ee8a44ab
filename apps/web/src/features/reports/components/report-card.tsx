import type { ReportKind } from '@carteirinha/shared/contracts/reports';
import { messages } from '@carteirinha/shared/messages';
import { FileSpreadsheetIcon, FileTextIcon, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError } from '@/lib/api';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useExportReportCsv } from '../api/export-report-csv';
import { writePeriodToUrl, type ReportPeriod } from '../lib/period';

const m = messages.reports;

type ReportCardProps = {
  kind: ReportKind;
  icon: LucideIcon;
  /** How many records the report has for the period; undefined while that is not known. */
  count: number | undefined;
  period: ReportPeriod | null;
};

/** The print view of a report, in a new tab: /admin/relatorios/imprimir/:kind, with the period. */
function printViewUrl(kind: ReportKind, period: ReportPeriod | null): string {
  const query = writePeriodToUrl(new URLSearchParams(), period).toString();
  return `/admin/relatorios/imprimir/${kind}${query ? `?${query}` : ''}`;
}

/** The query client already says an ended session once, whichever request met it. */
function saidElsewhere(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'SESSION_EXPIRED';
}

/** One of the three report cards (specification §2): its count for the period, and the two exports. */
export function ReportCard({ kind, icon: Icon, count, period }: ReportCardProps) {
  const titleId = useId();
  const ready = count !== undefined;
  const exportCsv = useExportReportCsv();
  const { title, description } = m.cards[kind];

  /** Specification §5: an empty report is not exported. */
  function hasData(): boolean {
    if (count !== 0) return true;
    toast.error(m.noData);
    return false;
  }

  function onExportCsv() {
    if (!hasData()) return;
    // The toast waits for the file: a refused export (an ended session, nothing left in the period) says why instead.
    exportCsv.mutate(
      { kind, period },
      {
        onSuccess: () => toast.success(m.exported),
        onError: (error) => {
          if (!saidElsewhere(error)) toast.error(errorMessage(error));
        },
      },
    );
  }

  function onExportPdf() {
    if (!hasData()) return;
    toast.success(m.generatingPdf);
    // Opened in the click itself, so the browser does not take it for a pop-up; the view prints once loaded.
    window.open(printViewUrl(kind, period), '_blank');
  }

  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle asChild>
            <h2 id={titleId} className="text-lg">
              {title}
            </h2>
          </CardTitle>
          <Icon aria-hidden="true" className="size-5 text-muted-foreground" />
        </div>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <p className="text-sm text-muted-foreground">
          <span data-testid="report-count" className="block text-3xl font-bold text-foreground tabular-nums">
            {ready ? count : '—'}
          </span>
          {ready ? (count === 1 ? m.record : m.records) : messages.common.loading}
        </p>
      </CardContent>
      <CardFooter className="mt-auto flex-wrap gap-2">
        <Button variant="outline" size="sm" disabled={!ready || exportCsv.isPending} aria-busy={exportCsv.isPending} onClick={onExportCsv}>
          <FileSpreadsheetIcon aria-hidden="true" />
          {exportCsv.isPending ? m.exporting : m.exportCsv}
        </Button>
        <Button variant="outline" size="sm" disabled={!ready} onClick={onExportPdf}>
          <FileTextIcon aria-hidden="true" />
          {m.exportPdf}
        </Button>
      </CardFooter>
    </Card>
  );
}
