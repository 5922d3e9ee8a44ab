import { PAYMENT_METHOD_LABELS } from '@carteirinha/shared/contracts/payments';
import { formatDateTime, formatMoney, ofPlan } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { useMySubscription } from '../api/get-my-subscription';
import { PrintableCharge, PrintedField } from '../components/printable-charge';
import { formatDay, isPaid } from '../lib/payment-display';

const s = messages.subscriptionPage;

/** /paciente/assinatura/recibo/:id: the receipt of a paid charge, printable. */
export function PatientReceiptPage() {
  const subscription = useMySubscription();
  const planName = subscription.data?.plan.name ?? '';
  return (
    <PrintableCharge title={s.receiptTitle}>
      {({ payment, clinicName, payerName }) =>
        !isPaid(payment.status) || !payment.paidAt ? (
          <p role="alert">{s.receiptNotPaid}</p>
        ) : (
          <article aria-label={s.receiptTitle} className="grid gap-4 rounded-md border p-4 break-inside-avoid">
            <p className="text-base">
              {formatMessage(s.receiptStatement, { payer: payerName, amount: formatMoney(payment.amountCents), ofPlan: ofPlan(planName) })}
            </p>
            <dl className="grid gap-4 sm:grid-cols-2">
              <PrintedField label={s.beneficiary}>{clinicName}</PrintedField>
              <PrintedField label={s.payer}>{payerName}</PrintedField>
              <PrintedField label={s.paidAt}>{formatDateTime(payment.paidAt)}</PrintedField>
              <PrintedField label={s.documentAmount}>{formatMoney(payment.amountCents)}</PrintedField>
              <PrintedField label={s.method}>
                {PAYMENT_METHOD_LABELS[payment.method]}
                {payment.cardSummary ? ` · ${payment.cardSummary}` : ''}
              </PrintedField>
              {payment.periodStart && payment.periodEnd ? (
                <PrintedField label={s.period}>
                  {formatMessage(s.periodRange, { start: formatDay(payment.periodStart), end: formatDay(payment.periodEnd) })}
                </PrintedField>
              ) : null}
            </dl>
            <p className="font-mono text-xs text-muted-foreground">{payment.id}</p>
          </article>
        )
      }
    </PrintableCharge>
  );
}
