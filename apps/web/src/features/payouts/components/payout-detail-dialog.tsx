import type { PayoutLine } from '@carteirinha/shared/contracts/payouts';
import { formatDateTime, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useClinicPayoutDetail } from '../api/payouts';
import { periodLabel } from './payouts-table';

const m = messages.payouts;
const c = m.lineColumns;

function kindText(line: PayoutLine): string {
  const kind = m.lineKinds[line.kind];
  return line.carriedFromPeriod ? `${kind} · ${formatMessage(m.carriedFrom, { period: periodLabel(line.carriedFromPeriod) })}` : kind;
}

const COLUMNS: DataColumn<PayoutLine>[] = [
  { id: 'date', header: c.date, cell: (line) => formatDateTime(line.occurredAt), cardCell: (line) => `${c.date} ${formatDateTime(line.occurredAt)}`, className: 'whitespace-nowrap tabular-nums' },
  { id: 'kind', header: c.kind, cell: kindText },
  { id: 'patient', header: c.patient, cell: (line) => line.patientName },
  {
    id: 'amount',
    header: c.amount,
    cell: (line) => <span className={line.amountCents < 0 ? 'text-destructive' : undefined}>{formatMoney(line.amountCents)}</span>,
    align: 'right',
    className: 'whitespace-nowrap tabular-nums',
  },
];

/** 'Detalhes' of a payout: each charge received, refunded or charged back that makes it, with the month it came from. */
export function PayoutDetailDialog({ payout, onClose }: { payout: { id: string; period: string } | null; onClose: () => void }) {
  const detail = useClinicPayoutDetail(payout?.id ?? null);
  return (
    <Dialog open={payout !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{formatMessage(m.detailsTitle, { period: payout ? periodLabel(payout.period) : '' })}</DialogTitle>
          <DialogDescription>{m.tableDescription}</DialogDescription>
        </DialogHeader>
        <div className="max-h-[60svh] overflow-y-auto">
          <DataTable
            rows={detail.data?.lines}
            rowKey={(line) => line.id}
            columns={COLUMNS}
            titleColumn="date"
            caption={m.details}
            placeholder={rowsPlaceholder({ rows: detail.data?.lines, error: detail.error, onRetry: () => void detail.refetch(), retrying: detail.isFetching, emptyText: m.linesEmpty })}
            cardsBelow={560}
            busy={detail.isFetching}
          />
        </div>
      </DialogContent>
    </Dialog>
  );
}
