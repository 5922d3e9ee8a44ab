import { PAYMENT_STATUS_LABELS, type Payment } from '@carteirinha/shared/contracts/payments';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckCircle2Icon, CopyIcon, ExternalLinkIcon, XCircleIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/error-message';
import { useSimulatePayment } from '../api/simulate-payment';
import { copyText } from '../lib/copy-text';
import { formatDay, isPaid } from '../lib/payment-display';
import { SUBSCRIPTION_TITLE_ID } from './subscription-summary';

const s = messages.subscriptionPage;

/** A text to copy: shown in full (selectable, for copying by hand too) with a 'Copiar' button beside it. */
function CopyableText({ label, text, copiedMessage, testId }: { label: string; text: string; copiedMessage: string; testId: string }) {
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">{label}</p>
      <div className="flex items-start gap-2">
        <p data-testid={testId} className="min-w-0 flex-1 rounded-md border bg-muted/40 p-2 font-mono text-xs break-all select-all">
          {text}
        </p>
        <Button type="button" variant="outline" size="sm" onClick={() => void copyText(text, copiedMessage)}>
          <CopyIcon aria-hidden="true" />
          {s.copy}
        </Button>
      </div>
    </div>
  );
}

function PixDetails({ payment }: { payment: Payment }) {
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">{s.pixInstructions}</p>
      {payment.pixQrCode ? (
        <img
          src={`data:image/png;base64,${payment.pixQrCode}`}
          alt={s.pixQrAlt}
          width={224}
          height={224}
          className="mx-auto size-56 rounded-md border bg-white p-2"
        />
      ) : null}
      {payment.pixCopyPaste ? <CopyableText label={s.pixCopyPaste} text={payment.pixCopyPaste} copiedMessage={s.pixCopied} testId="pix-copy-paste" /> : null}
      <p className="text-sm">{messages.checkout.pixDescription}</p>
    </div>
  );
}

function BoletoDetails({ payment }: { payment: Payment }) {
  return (
    <div className="grid gap-4">
      <p className="text-sm">
        {formatMessage(s.boletoDueOn, { date: formatDay(payment.dueDate) })} · {messages.checkout.boletoDue}
      </p>
      {payment.boletoDigitableLine ? (
        <CopyableText label={s.boletoLine} text={payment.boletoDigitableLine} copiedMessage={s.lineCopied} testId="boleto-line" />
      ) : null}
      {payment.boletoUrl ? (
        <Button asChild variant="outline" className="justify-self-start">
          <a href={payment.boletoUrl} target="_blank" rel="noopener noreferrer">
            <ExternalLinkIcon aria-hidden="true" />
            {s.boletoOpen}
          </a>
        </Button>
      ) : null}
    </div>
  );
}

function CardDetails({ payment }: { payment: Payment }) {
  const declined = payment.status === 'canceled' || payment.status === 'refunded';
  const Icon = declined ? XCircleIcon : CheckCircle2Icon;
  const result = isPaid(payment.status) ? s.cardApproved : declined ? s.cardDeclined : s.cardInAnalysis;
  return (
    <div className="grid gap-2">
      <p className="flex items-center gap-2 font-medium">
        <Icon aria-hidden="true" className={declined ? 'size-5 text-destructive' : 'size-5 text-primary'} />
        {result}
      </p>
      {payment.cardSummary ? <p className="text-sm text-muted-foreground">{payment.cardSummary}</p> : null}
    </div>
  );
}

function PaymentDetails({ payment }: { payment: Payment }) {
  switch (payment.method) {
    case 'pix':
      return <PixDetails payment={payment} />;
    case 'boleto':
      return <BoletoDetails payment={payment} />;
    case 'credit_card':
      return <CardDetails payment={payment} />;
  }
}

type PaymentDialogProps = {
  /** The charge to pay; null keeps the dialog closed. */
  payment: Payment | null;
  onClose: () => void;
  /** The charge as the server tells it after 'Simular pagamento'. */
  onPaymentChange: (payment: Payment) => void;
};

/** Specification §4: after checkout, the payment dialog: Pix QR and code, the boleto, or the card's result. */
export function PaymentDialog({ payment, onClose, onPaymentChange }: PaymentDialogProps) {
  const simulate = useSimulatePayment();

  const simulatePayment = async (id: string) => {
    try {
      const paid = await simulate.mutateAsync(id);
      onPaymentChange(paid);
      toast.success(s.paid);
    } catch (error) {
      toast.error(formatMessage(s.simulateError, { message: errorMessage(error) }));
    }
  };

  return (
    <Dialog open={payment !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        onCloseAutoFocus={() => {
          // Opened from the checkout, whose button is gone: focus would drop to the page's start. The subscription it
          // made is where the patient goes on from.
          requestAnimationFrame(() => {
            if (document.activeElement === document.body) document.getElementById(SUBSCRIPTION_TITLE_ID)?.focus();
          });
        }}
      >
        <DialogHeader>
          <DialogTitle>{s.paymentTitle}</DialogTitle>
          {/* A card approved at once, or a charge just paid, has nothing left to conclude. */}
          <DialogDescription>{payment && isPaid(payment.status) ? s.paymentDoneDescription : s.paymentDescription}</DialogDescription>
        </DialogHeader>
        {payment ? (
          <div className="grid gap-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-2xl font-bold" data-testid="payment-amount">
                {formatMoney(payment.amountCents)}
              </p>
              <Badge variant={isPaid(payment.status) ? 'default' : 'secondary'}>{PAYMENT_STATUS_LABELS[payment.status]}</Badge>
            </div>
            {isPaid(payment.status) && payment.method !== 'credit_card' ? (
              <p className="flex items-center gap-2 font-medium">
                <CheckCircle2Icon aria-hidden="true" className="size-5 text-primary" />
                {s.paid}
              </p>
            ) : (
              <PaymentDetails payment={payment} />
            )}
          </div>
        ) : null}
        <DialogFooter>
          {payment?.canSimulate ? (
            <Button type="button" variant="outline" disabled={simulate.isPending} onClick={() => void simulatePayment(payment.id)}>
              {simulate.isPending ? s.simulating : messages.checkout.simulatePayment}
            </Button>
          ) : null}
          <Button type="button" onClick={onClose}>
            {s.close}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
