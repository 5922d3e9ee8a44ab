import type { PatientVisit } from '@carteirinha/shared/contracts/patient-visits';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { ReactNode } from 'react';
import { DataTable, type DataColumn } from '@/components/ui/data-table';

const h = messages.patientHistory;

/** The service, and under it whom it was for when that was a dependent. */
function ServiceCell({ visit }: { visit: PatientVisit }) {
  return (
    <span className="grid">
      <span>{visit.serviceName}</span>
      {visit.dependentName ? <span className="text-xs text-muted-foreground">{formatMessage(h.forDependent, { name: visit.dependentName })}</span> : null}
    </span>
  );
}

const COLUMNS: readonly DataColumn<PatientVisit>[] = [
  { id: 'date', header: h.date, cell: (visit) => formatDate(visit.performedAt), className: 'whitespace-nowrap' },
  { id: 'place', header: h.place, cell: (visit) => visit.placeName },
  { id: 'service', header: h.service, cell: (visit) => <ServiceCell visit={visit} /> },
  { id: 'original', header: h.original, align: 'right', cell: (visit) => formatMoney(visit.originalCents), className: 'tabular-nums whitespace-nowrap' },
  { id: 'discount', header: h.discount, align: 'right', cell: (visit) => `${visit.discountPercent}%`, className: 'tabular-nums' },
  { id: 'paid', header: h.paid, align: 'right', cell: (visit) => formatMoney(visit.finalCents), className: 'tabular-nums whitespace-nowrap' },
  {
    id: 'saving',
    header: h.saving,
    align: 'right',
    cell: (visit) => <span className="font-medium text-primary-text">{formatMoney(visit.discountCents)}</span>,
    className: 'tabular-nums whitespace-nowrap',
  },
];

type PatientHistoryTableProps = { rows: readonly PatientVisit[] | undefined; placeholder: ReactNode | null; busy: boolean };

/** Histórico's visits: a table on a wide screen, a card per visit with every value on a phone. */
export function PatientHistoryTable({ rows, placeholder, busy }: PatientHistoryTableProps) {
  return <DataTable rows={rows} rowKey={(visit) => visit.id} columns={COLUMNS} titleColumn="date" caption={h.tableCaption} placeholder={placeholder} busy={busy} />;
}
