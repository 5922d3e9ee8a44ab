import { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS, type Payment } from '@carteirinha/shared/contracts/payments';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableMessageRow, TableRow } from '@/components/ui/table';
import { useMyPayments } from '../api/list-payments';
import { formatDay, isOpen, isPaid } from '../lib/payment-display';

const s = messages.subscriptionPage;
const COLUMNS = 6;

function periodOf(payment: Payment): string {
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

/** The patient's charges, newest first: what was charged for which period, how, and whether it is paid. */
export function ChargesTable({ onPay }: { onPay: (payment: Payment) => void }) {
  const payments = useMyPayments();
  return (
    // min-w-0: a grid item is as wide as its content by default, and the table must scroll inside, not widen the page.
    <section aria-labelledby="charges-title" className="grid min-w-0 gap-3">
      <h2 id="charges-title" className="text-lg font-semibold">
        {s.chargesTitle}
      </h2>
      <Table>
        <TableCaption className="sr-only">{s.chargesCaption}</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>{s.columnDue}</TableHead>
            <TableHead>{s.columnPeriod}</TableHead>
            <TableHead>{s.columnMethod}</TableHead>
            <TableHead className="text-right">{s.columnAmount}</TableHead>
            <TableHead>{s.columnStatus}</TableHead>
            <TableHead>
              <span className="sr-only">{s.columnActions}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {payments.isPending ? (
            <TableMessageRow colSpan={COLUMNS}>{messages.common.loading}</TableMessageRow>
          ) : payments.isError ? (
            <TableMessageRow colSpan={COLUMNS}>
              <ErrorState variant="inline" {...retryPropsOf(payments)} />
            </TableMessageRow>
          ) : payments.data.length === 0 ? (
            <TableMessageRow colSpan={COLUMNS}>{s.noCharges}</TableMessageRow>
          ) : (
            payments.data.map((payment) => (
              <TableRow key={payment.id}>
                <TableCell>{formatDay(payment.dueDate)}</TableCell>
                <TableCell>{periodOf(payment)}</TableCell>
                <TableCell>{PAYMENT_METHOD_LABELS[payment.method]}</TableCell>
                <TableCell className="text-right whitespace-nowrap">{formatMoney(payment.amountCents)}</TableCell>
                <TableCell>
                  <Badge variant={isPaid(payment.status) ? 'default' : 'secondary'}>{PAYMENT_STATUS_LABELS[payment.status]}</Badge>
                </TableCell>
                <TableCell className="text-right">
                  {isPaid(payment.status) ? <ReceiptLink payment={payment} /> : null}
                  {isOpen(payment.status) ? (
                    <Button type="button" size="sm" onClick={() => onPay(payment)}>
                      {s.pay}
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </section>
  );
}
