import type { PaymentDocument } from '@carteirinha/shared/contracts/payments';
import { formatCnpj, formatCpf } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { ArrowLeftIcon, PrinterIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { Spinner } from '@/components/ui/spinner';
import { useMyPayment } from '../api/list-payments';

const s = messages.subscriptionPage;

/** A labelled value of the printed document. */
export function PrintedField({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={className}>
      <dt className="text-xs text-muted-foreground uppercase">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

type PrintableChargeProps = {
  title: string;
  /** The document, from the charge and who pays whom. */
  children: (payment: PaymentDocument) => ReactNode;
};

/** Beneficiário and Pagador with their CNPJ and CPF, as every printed charge names them. */
export function PaymentParties({ payment }: { payment: PaymentDocument }) {
  return (
    <>
      <PrintedField label={s.beneficiary}>
        {payment.beneficiary.name}
        <span className="block font-normal tabular-nums">
          {s.cnpjLabel} {formatCnpj(payment.beneficiary.cnpj)}
        </span>
      </PrintedField>
      <PrintedField label={s.payer}>
        {payment.payer.name}
        {payment.payer.cpf ? (
          <span className="block font-normal tabular-nums">
            {s.cpfLabel} {formatCpf(payment.payer.cpf)}
          </span>
        ) : null}
      </PrintedField>
    </>
  );
}

/**
 * The frame of a printable page about one of the patient's charges (the boleto, the receipt): it reads the charge by
 * the address's id, and offers 'Voltar' and 'Imprimir', which the printout leaves out.
 */
export function PrintableCharge({ title, children }: PrintableChargeProps) {
  const { id = '' } = useParams();
  const payment = useMyPayment(id);
  return (
    <main className="mx-auto grid max-w-3xl grid-cols-[minmax(0,1fr)] gap-6 p-4 text-sm sm:p-6 print:max-w-none print:p-0">
      <header className="flex flex-wrap items-center justify-between gap-4 border-b pb-4">
        <h1 className="text-2xl font-bold">{title}</h1>
        <div className="flex gap-2 print:hidden">
          <Button asChild variant="outline">
            <Link to="/paciente/assinatura">
              <ArrowLeftIcon aria-hidden="true" />
              {s.back}
            </Link>
          </Button>
          <Button type="button" disabled={!payment.data} onClick={() => window.print()}>
            <PrinterIcon aria-hidden="true" />
            {s.print}
          </Button>
        </div>
      </header>
      {payment.isPending ? <Spinner className="justify-self-center py-8" /> : null}
      {payment.isError ? <ErrorState {...retryPropsOf(payment)} className="print:hidden" /> : null}
      {payment.data ? children(payment.data) : null}
    </main>
  );
}
