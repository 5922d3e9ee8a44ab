import { formatDateTime } from '@carteirinha/shared/format';
import { REPORT_KINDS, type ReportKind } from '@carteirinha/shared/contracts/reports';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PrinterIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { Spinner } from '@/components/ui/spinner';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { useReportTable, type ReportTable } from '../api/get-report-table';
import { periodLabel, readPeriodFromUrl, type ReportPeriod } from '../lib/period';

const m = messages.reports;

function isReportKind(value: string | undefined): value is ReportKind {
  return REPORT_KINDS.some((kind) => kind === value);
}

/**
 * 'Exportar PDF' (specification §7): a print-friendly page of the report, opened in its own tab, that calls the
 * browser's print dialog (where "Salvar como PDF" is) once its rows have arrived.
 */
export function AdminReportPrintPage() {
  const { kind } = useParams();
  const [searchParams] = useSearchParams();
  const period = readPeriodFromUrl(searchParams);

  return (
    // min-w-0 on the grid's track: a wide table scrolls in its own region instead of widening the page on a phone.
    <main className="mx-auto grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-6 p-4 text-sm sm:p-6 print:max-w-none print:p-0">
      {isReportKind(kind) ? (
        <PrintableReport kind={kind} period={period} />
      ) : (
        <h1 role="alert" className="text-2xl font-bold">
          {m.unknownReport}
        </h1>
      )}
    </main>
  );
}

function PrintableReport({ kind, period }: { kind: ReportKind; period: ReportPeriod | null }) {
  const title = m.printTitles[kind];
  const query = useReportTable(kind, period);
  const { data, error, isPending } = query;
  // The moment the page was asked for, printed in its header.
  const [generatedAt] = useState(() => formatDateTime(new Date()));
  const printed = useRef(false);
  // The window is titled as specified, and the browser proposes the title as the PDF's file name.
  useDocumentTitle(title);

  useEffect(() => {
    if (!data || data.rows.length === 0 || printed.current) return;
    // After this commit has been painted, so the dialog shows the table; only once, even if the data refreshes.
    const timer = window.setTimeout(() => {
      printed.current = true;
      window.print();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [data]);

  return (
    <>
      <header className="flex flex-wrap items-start justify-between gap-4 border-b pb-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-bold">{title}</h1>
          <p>{period ? periodLabel(period) : m.allTime}</p>
          <p className="text-muted-foreground">{formatMessage(m.generatedAt, { date: generatedAt })}</p>
        </div>
        <Button variant="outline" className="print:hidden" disabled={!data} onClick={() => window.print()}>
          <PrinterIcon aria-hidden="true" />
          {m.print}
        </Button>
      </header>
      {isPending ? <Spinner className="justify-self-center py-8" /> : null}
      {error ? <ErrorState {...retryPropsOf(query)} className="print:hidden" /> : null}
      {data ? <ReportRows title={title} table={data} /> : null}
    </>
  );
}

function ReportRows({ title, table }: { title: string; table: ReportTable }) {
  if (table.rows.length === 0) return <p>{m.noData}</p>;
  return (
    <>
      {/* On a phone the table scrolls sideways in its own region (reachable by keyboard); on paper it is whole. */}
      <div role="region" aria-label={title} tabIndex={0} className="overflow-x-auto print:overflow-visible">
        <table className="w-full border-collapse text-left">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="border-b-2">
              {table.columns.map((column) => (
                <th key={column} scope="col" className="px-2 py-2 font-semibold">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, index) => (
              // Rows are formatted text without ids; their order is fixed by the server.
              <tr key={index} className="border-b break-inside-avoid">
                {row.map((cell, column) => (
                  // Only the first column (a name, an e-mail) wraps: a CNPJ, a date or a price is never cut in two.
                  <td key={column} className={cn('px-2 py-1.5 align-top', column > 0 && 'whitespace-nowrap tabular-nums')}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {table.total > table.rows.length ? (
        <p className="text-muted-foreground">{formatMessage(m.truncated, { shown: table.rows.length, total: table.total })}</p>
      ) : null}
    </>
  );
}
