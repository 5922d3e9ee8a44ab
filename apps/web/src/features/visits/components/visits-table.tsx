import type { Visit } from '@carteirinha/shared/contracts/visits';
import { formatDate, formatDateTime, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { ReactNode } from 'react';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';
import { VisitStatusBadge } from './visit-status-badge';

const s = messages.cardScreens;
const c = s.columns;
const v = messages.visitsScreen;

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
  /** Atendimentos: who registered each visit, and its status buttons (Iniciar, Concluir, Cancelar). */
  actions?: (visit: Visit) => ReactNode;
  /** Below this width of the list (px) each visit is a card. */
  cardsBelow?: number;
};

/**
 * A visit's status, with the reason it was cancelled, and a note on one made under a subscription withdrawn within the
 * 7 days (its discount was deducted).
 */
function VisitStatus({ visit }: { visit: Visit }) {
  return (
    <div className="flex flex-col items-start gap-1">
      <VisitStatusBadge status={visit.status} />
      {visit.cancelReason ? <span className="text-xs text-muted-foreground">{formatMessage(v.cancelReasonShown, { reason: visit.cancelReason })}</span> : null}
      {visit.subscriptionWithdrawnAt ? (
        <span className="text-xs text-muted-foreground">{formatMessage(s.visitBeforeWithdrawal, { date: formatDate(visit.subscriptionWithdrawnAt) })}</span>
      ) : null}
    </div>
  );
}

/** The service, and under it who attends a booking. */
function ServiceCell({ visit }: { visit: Visit }) {
  return (
    <div className="grid gap-0.5">
      <span>{visit.serviceName}</span>
      {visit.professional ? <span className="text-xs text-muted-foreground">{`${v.professional}: ${visit.professional}`}</span> : null}
    </div>
  );
}

function columnsOf(showPatient: boolean, actions: VisitsTableProps['actions']): DataColumn<Visit>[] {
  const base: DataColumn<Visit>[] = [
    { id: 'date', header: c.date, cell: (visit) => formatDateTime(visit.performedAt), className: 'whitespace-nowrap tabular-nums' },
    ...(showPatient ? [{ id: 'patient', header: c.patient, cell: (visit: Visit) => visit.patientName, className: 'font-medium' }] : []),
    { id: 'service', header: c.service, cell: (visit) => <ServiceCell visit={visit} /> },
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
    { id: 'status', header: c.status, cell: (visit) => <VisitStatus visit={visit} /> },
  ];
  if (!actions) return base;
  return [
    ...base,
    { id: 'registeredBy', header: v.registeredBy, cell: (visit) => visit.registeredBy ?? '-' },
    { id: 'actions', header: v.actions, headerHidden: true, cell: actions, align: 'right' },
  ];
}

/** The visits of the clinic (Atendimentos) or of one card (Ver Histórico): date, service and the three values. */
export function VisitsTable({ visits, error, onRetry, busy, caption, emptyText, showPatient = true, actions, cardsBelow }: VisitsTableProps) {
  return (
    <DataTable
      rows={visits}
      rowKey={(visit) => visit.id}
      columns={columnsOf(showPatient, actions)}
      titleColumn={showPatient ? 'patient' : 'date'}
      actionsColumn={actions ? 'actions' : undefined}
      cardsBelow={cardsBelow}
      caption={caption}
      busy={busy}
      placeholder={rowsPlaceholder({ rows: visits, error, onRetry, retrying: busy, emptyText })}
    />
  );
}
