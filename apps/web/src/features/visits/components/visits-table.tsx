import type { Visit } from '@carteirinha/shared/contracts/visits';
import { formatDate, formatDateTime, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { ReactNode } from 'react';
import { ErrorState } from '@/components/ui/error-state';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableMessageRow, TableRow } from '@/components/ui/table';
import { Badge } from '@/components/ui/badge';
import { VisitStatusBadge } from './visit-status-badge';

const s = messages.cardScreens;
const c = s.columns;

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

/** The visits of the clinic (Atendimentos) or of one card (Ver Histórico): date, service and the three values. */
export function VisitsTable({ visits, error, onRetry, busy, caption, emptyText, showPatient = true }: VisitsTableProps) {
  const columns = [c.date, ...(showPatient ? [c.patient] : []), c.service, c.original, c.discount, c.final, c.status];
  function messageRow(children: ReactNode) {
    return <TableMessageRow colSpan={columns.length}>{children}</TableMessageRow>;
  }
  function renderRows() {
    if (error) return messageRow(<ErrorState variant="inline" error={error} onRetry={onRetry} retrying={busy} />);
    if (!visits) return messageRow(messages.common.loading);
    if (visits.length === 0) return messageRow(emptyText);
    return visits.map((visit) => (
      <TableRow key={visit.id}>
        <TableCell className="whitespace-nowrap tabular-nums">{formatDateTime(visit.performedAt)}</TableCell>
        {showPatient ? <TableCell className="font-medium">{visit.patientName}</TableCell> : null}
        <TableCell>{visit.serviceName}</TableCell>
        <TableCell className="whitespace-nowrap tabular-nums">{formatMoney(visit.originalCents)}</TableCell>
        <TableCell className="whitespace-nowrap tabular-nums">
          {formatMoney(visit.discountCents)} <span className="text-muted-foreground">({visit.discountPercent}%)</span>
        </TableCell>
        <TableCell className="whitespace-nowrap font-medium tabular-nums">{formatMoney(visit.finalCents)}</TableCell>
        <TableCell>
          <div className="flex flex-col items-start gap-1">
            {visit.canceledAt ? <Badge variant="destructive">{s.visitCanceled}</Badge> : <VisitStatusBadge status={visit.status} />}
            {visit.subscriptionWithdrawnAt ? (
              <span className="text-xs text-muted-foreground">{formatMessage(s.visitBeforeWithdrawal, { date: formatDate(visit.subscriptionWithdrawnAt) })}</span>
            ) : null}
          </div>
        </TableCell>
      </TableRow>
    ));
  }
  return (
    <Table aria-busy={busy}>
      <TableCaption className="sr-only">{caption}</TableCaption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {columns.map((title) => (
            <TableHead key={title} scope="col">
              {title}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>{renderRows()}</TableBody>
    </Table>
  );
}
