import type { Payment, PaymentMethod } from '@carteirinha/shared/contracts/payments';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useChangePaymentMethod } from '../api/change-payment-method';
import { EMPTY_CARD, paymentMethodFormSchema, type PaymentMethodFormInput, type PaymentMethodFormOutput } from '../lib/checkout-form';
import { cardRegistrations, CreditCardFields, PaymentMethodChoice } from './payment-method-fields';

const s = messages.subscriptionPage;

type PaymentMethodFormProps = {
  current: PaymentMethod | null;
  onChanged: (openCharge: Payment | null) => void;
  onCancel: () => void;
};

function PaymentMethodForm({ current, onChanged, onCancel }: PaymentMethodFormProps) {
  const change = useChangePaymentMethod();
  const firstOther: PaymentMethod = current === 'pix' ? 'boleto' : 'pix';
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<PaymentMethodFormInput, unknown, PaymentMethodFormOutput>({
    resolver: zodResolver(paymentMethodFormSchema),
    defaultValues: { paymentMethod: firstOther, card: EMPTY_CARD },
  });
  const paymentMethod = useWatch({ control, name: 'paymentMethod' });

  const onValid = async (values: PaymentMethodFormOutput) => {
    try {
      const { payment } = await change.mutateAsync(values);
      toast.success(messages.checkoutRules.methodChanged);
      onChanged(payment);
    } catch (error) {
      toast.error(formatMessage(s.changeMethodError, { message: errorMessage(error) }));
    } finally {
      // The card is handed to the provider and forgotten here.
      setValue('card', EMPTY_CARD);
      change.reset();
    }
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid))}>
      <PaymentMethodChoice radio={register('paymentMethod')} selected={paymentMethod} disabledMethod={current === 'credit_card' ? null : current} />
      {paymentMethod === 'credit_card' ? (
        <CreditCardFields
          errors={errors.card}
          fields={cardRegistrations(register)}
        />
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          {messages.common.cancel}
        </Button>
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? messages.common.saving : messages.common.save}
        </Button>
      </DialogFooter>
    </form>
  );
}

type PaymentMethodDialogProps = {
  open: boolean;
  current: PaymentMethod | null;
  onClose: () => void;
  /** The method changed; an open charge, re-issued for the new method, is handed over to be paid. */
  onChanged: (openCharge: Payment | null) => void;
};

/** 'Alterar forma de pagamento' (issue 14): Pix, boleto or another card for the next charges. */
export function PaymentMethodDialog({ open, current, onClose, onChanged }: PaymentMethodDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{s.changeMethod}</DialogTitle>
          <DialogDescription>{s.changeMethodDescription}</DialogDescription>
        </DialogHeader>
        {open ? <PaymentMethodForm current={current} onChanged={onChanged} onCancel={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
