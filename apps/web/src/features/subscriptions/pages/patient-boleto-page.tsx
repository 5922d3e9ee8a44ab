import { formatMoney } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { PrintableCharge, PrintedField } from '../components/printable-charge';
import { formatDay } from '../lib/payment-display';

const s = messages.subscriptionPage;

/**
 * /paciente/assinatura/boleto/:id: the embedded provider's boleto, printable (DESIGN.md §2 "local"): who receives
 * (the clinic), who pays, how much, until when, and the linha digitável the bank's app reads.
 */
export function PatientBoletoPage() {
  return (
    <PrintableCharge title={s.boletoTitle}>
      {({ payment, clinicName, payerName }) =>
        payment.method !== 'boleto' ? (
          <p role="alert">{s.notABoleto}</p>
        ) : (
          <article aria-label={s.boletoTitle} className="grid gap-4 rounded-md border-2 border-foreground p-4 break-inside-avoid">
            <p data-testid="boleto-digitable-line" className="font-mono text-base font-semibold break-all sm:text-lg">
              {payment.boletoDigitableLine ?? '-'}
            </p>
            <dl className="grid gap-4 sm:grid-cols-2">
              <PrintedField label={s.beneficiary}>{clinicName}</PrintedField>
              <PrintedField label={s.payer}>{payerName}</PrintedField>
              <PrintedField label={s.dueDate}>{formatDay(payment.dueDate)}</PrintedField>
              <PrintedField label={s.documentAmount}>{formatMoney(payment.amountCents)}</PrintedField>
            </dl>
            <p className="text-muted-foreground">{s.boletoNotice}</p>
          </article>
        )
      }
    </PrintableCharge>
  );
}
