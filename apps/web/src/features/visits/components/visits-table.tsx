import type { Visit } from '@carteirinha/shared/contracts/visits';
import { formatDateTime, formatMoney } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';
import { VisitStatusBadge } from './visit-status-badge';

const c = messages.cardScreens.columns;

type VisitsTableProps = {
  visits: Visit[] | undefined;
  error: Error | null;
  onRetry: () => void;
  /** A newer answer is on its way (the rows shown are the previous one's). */
  busy: boolean;
  caption: string;
  emptyText: string;
  /** Ver Histórico is one patient's: the column would repeat the same name. */
  showPatient?: boolean;
};

function columnsOf(showPatient: boolean): DataColumn<Visit>[] {
  return [
    { id: 'date', header: c.date, cell: (visit) => formatDateTime(visit.performedAt), className: 'whitespace-nowrap tabular-nums' },
    ...(showPatient ? [{ id: 'patient', header: c.patient, cell: (visit: Visit) => visit.patientName, className: 'font-medium' }] : []),
    { id: 'service', header: c.service, cell: (visit) => visit.serviceName },
    { id: 'original', header: c.original, cell: (visit) => formatMoney(visit.originalCents), className: 'whitespace-nowrap tabular-nums' },
    {
      id: 'discount',
      header: c.discount,
      className: 'whitespace-nowrap tabular-nums',
      cell: (visit) => (
        <>
          {formatMoney(visit.discountCents)} <span className="text-muted-foreground">({visit.discountPercent}%)</span>
        </>
      ),
    },
    { id: 'final', header: c.final, cell: (visit) => formatMoney(visit.finalCents), className: 'whitespace-nowrap font-medium tabular-nums' },
    { id: 'status', header: c.status, cell: (visit) => <VisitStatusBadge status={visit.status} /> },
  ];
}

/** The visits of the clinic (Atendimentos) or of one card (Ver Histórico): date, service and the three values. */
export function VisitsTable({ visits, error, onRetry, busy, caption, emptyText, showPatient = true }: VisitsTableProps) {
  return (
    <DataTable
      rows={visits}
      rowKey={(visit) => visit.id}
      columns={columnsOf(showPatient)}
      titleColumn={showPatient ? 'patient' : 'date'}
      caption={caption}
      busy={busy}
      placeholder={rowsPlaceholder({ rows: visits, error, onRetry, retrying: busy, emptyText })}
    />
  );
}
