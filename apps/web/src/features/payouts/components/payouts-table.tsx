import type { Payout, PayoutStatus } from '@carteirinha/shared/contracts/payouts';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { DataTable, type DataColumn } from '@/components/ui/data-table';

const m = messages.payouts;
const c = m.columns;

/** Below this width of the list's own container the columns have no room, and each payout is a card. */
const CARDS_BELOW_PX = 900;

/** A payout's month as the clinic reads it: 03/2026. */
export function periodLabel(period: string): string {
  return `${period.slice(5, 7)}/${period.slice(0, 4)}`;
}

const STATUS_VARIANT: Record<PayoutStatus, 'default' | 'secondary' | 'outline'> = { pago: 'default', processando: 'secondary', pendente: 'outline' };

export function PayoutStatusBadge({ status }: { status: PayoutStatus }) {
  return <Badge variant={STATUS_VARIANT[status]}>{m.statuses[status]}</Badge>;
}

function FeeCell({ payout }: { payout: Payout }) {
  return (
    <span className="grid justify-items-end gap-0.5">
      <span className="whitespace-nowrap">{formatMoney(payout.feeCents)}</span>
      {payout.feeSplitAtProvider ? <span className="text-xs text-muted-foreground">{m.splitBadge}</span> : null}
    </span>
  );
}

type PayoutsTableProps<Row extends Payout> = {
  rows: Row[] | undefined;
  caption: string;
  placeholder: ReactNode | null;
  busy: boolean;
  feePercent: number;
  /** The admin's list names the clinic of each payout. */
  clinicOf?: (row: Row) => string;
  /** The row's buttons: 'Detalhes' for the clinic, 'Marcar como pago' for the admin. */
  actions: (row: Row, layout: 'table' | 'card') => ReactNode;
};

/** Payouts month by month: a table on a wide screen, a card per payout on a phone (every value and action in view). */
export function PayoutsTable<Row extends Payout>({ rows, caption, placeholder, busy, feePercent, clinicOf, actions }: PayoutsTableProps<Row>) {
  const money = 'whitespace-nowrap tabular-nums';
  const columns: DataColumn<Row>[] = [
    ...(clinicOf ? [{ id: 'clinic', header: c.clinic, cell: (row: Row) => <span className="font-medium">{clinicOf(row)}</span> }] : []),
    {
      id: 'period',
      header: c.period,
      cell: (row) => periodLabel(row.period),
      cardCell: (row) => (clinicOf ? periodLabel(row.period) : `${c.period} ${periodLabel(row.period)}`),
      className: 'tabular-nums',
    },
    { id: 'attendances', header: c.attendances, cell: (row) => row.attendances, align: 'right', className: 'tabular-nums' },
    { id: 'gross', header: c.gross, cell: (row) => formatMoney(row.grossCents), align: 'right', className: money },
    { id: 'fee', header: formatMessage(c.fee, { percent: feePercent }), cell: (row) => <FeeCell payout={row} />, align: 'right', className: money },
    { id: 'net', header: c.net, cell: (row) => <span className="font-medium">{formatMoney(row.netCents)}</span>, align: 'right', className: money },
    { id: 'status', header: c.status, cell: (row) => <PayoutStatusBadge status={row.status} /> },
    { id: 'paidAt', header: c.paidAt, cell: (row) => (row.paidAt ? formatDate(row.paidAt) : '-'), className: 'tabular-nums' },
    {
      id: 'actions',
      header: c.actions,
      headerHidden: true,
      cell: (row) => actions(row, 'table'),
      cardCell: (row) => actions(row, 'card'),
      align: 'right',
    },
  ];
  return (
    <DataTable
      rows={rows}
      rowKey={(row) => row.id}
      columns={columns}
      titleColumn={clinicOf ? 'clinic' : 'period'}
      actionsColumn="actions"
      caption={caption}
      placeholder={placeholder}
      cardsBelow={CARDS_BELOW_PX}
      busy={busy}
    />
  );
}
