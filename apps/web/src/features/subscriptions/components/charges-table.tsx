import { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS, type Payment } from '@carteirinha/shared/contracts/payments';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';
import { useMyPayments } from '../api/list-payments';
import { formatDay, isOpen, isPaid } from '../lib/payment-display';

const s = messages.subscriptionPage;

function periodOf(payment: Payment): string {
  // An upgrade's charge buys no period: it pays the difference of the one already paid (ADR 028).
  if (payment.planChange) return messages.planChange.chargeLabel;
  if (!payment.periodStart || !payment.periodEnd) return '-';
  return formatMessage(s.periodRange, { start: formatDay(payment.periodStart), end: formatDay(payment.periodEnd) });
}

/** 'Ver recibo': our receipt page, or the provider's when the charge was paid there (an absolute address). */
function ReceiptLink({ payment }: { payment: Payment }) {
  const external = payment.receiptUrl !== null && /^https?:\/\//.test(payment.receiptUrl);
  if (external && payment.receiptUrl) {
    return (
      <Button asChild variant="link" size="sm">
        <a href={payment.receiptUrl} target="_blank" rel="noopener noreferrer">
          {s.viewReceipt}
        </a>
      </Button>
    );
  }
  return (
    <Button asChild variant="link" size="sm">
      <Link to={`/paciente/assinatura/recibo/${payment.id}`}>{s.viewReceipt}</Link>
    </Button>
  );
}

function columnsOf(onPay: (payment: Payment) => void): DataColumn<Payment>[] {
  return [
    {
      id: 'due',
      header: s.columnDue,
      cell: (payment) => formatDay(payment.dueDate),
      cardCell: (payment) => `${s.columnDue} ${formatDay(payment.dueDate)}`,
      className: 'whitespace-nowrap',
    },
    { id: 'period', header: s.columnPeriod, cell: periodOf },
    { id: 'method', header: s.columnMethod, cell: (payment) => PAYMENT_METHOD_LABELS[payment.method] },
    { id: 'amount', header: s.columnAmount, align: 'right', className: 'whitespace-nowrap', cell: (payment) => formatMoney(payment.amountCents) },
    {
      id: 'status',
      header: s.columnStatus,
      cell: (payment) => <Badge variant={isPaid(payment.status) ? 'default' : 'secondary'}>{PAYMENT_STATUS_LABELS[payment.status]}</Badge>,
    },
    {
      id: 'actions',
      header: s.columnActions,
      headerHidden: true,
      align: 'right',
      cell: (payment) => (
        <>
          {isPaid(payment.status) ? <ReceiptLink payment={payment} /> : null}
          {isOpen(payment.status) ? (
            <Button type="button" size="sm" onClick={() => onPay(payment)}>
              {s.pay}
            </Button>
          ) : null}
        </>
      ),
    },
  ];
}

/** The patient's charges, newest first: what was charged for which period, how, and whether it is paid. */
export function ChargesTable({ onPay }: { onPay: (payment: Payment) => void }) {
  const payments = useMyPayments();
  return (
    <section aria-labelledby="charges-title" className="grid min-w-0 gap-3">
      <h2 id="charges-title" className="text-lg font-semibold">
        {s.chargesTitle}
      </h2>
      <DataTable
        rows={payments.data}
        rowKey={(payment) => payment.id}
        columns={columnsOf(onPay)}
        titleColumn="due"
        actionsColumn="actions"
        caption={s.chargesCaption}
        placeholder={rowsPlaceholder({ rows: payments.data, error: payments.error, onRetry: () => void payments.refetch(), retrying: payments.isFetching, emptyText: s.noCharges })}
      />
    </section>
  );
}
