import { messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorText } from '@/components/ui/error-text';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { useSetAutoRenewal } from '../api/auto-renewal';
import { EMPTY_CARD, paymentMethodFormSchema, type PaymentMethodFormInput, type PaymentMethodFormOutput } from '../lib/checkout-form';
import { cardRegistrations, CreditCardFields } from './payment-method-fields';

const m = messages.autoRenewal;

type AutoRenewalCardDialogProps = { open: boolean; onClose: () => void; onDone: () => void };

/** The renewal back on for a subscription paid by card: the card is asked again (it is never stored). */
export function AutoRenewalCardDialog({ open, onClose, onDone }: AutoRenewalCardDialogProps) {
  const setAutoRenewal = useSetAutoRenewal();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<PaymentMethodFormInput, unknown, PaymentMethodFormOutput>({ resolver: zodResolver(paymentMethodFormSchema), defaultValues: { paymentMethod: 'credit_card', card: EMPTY_CARD } });

  const onValid = async (values: PaymentMethodFormOutput) => {
    setFailure(null);
    try {
      await setAutoRenewal.mutateAsync({ enabled: true, ...(values.creditCard ? { creditCard: values.creditCard } : {}) });
      onDone();
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setValue('card', EMPTY_CARD);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{m.cardTitle}</DialogTitle>
          <DialogDescription>{m.cardDescription}</DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid))}>
          <CreditCardFields
            errors={errors.card}
            fields={cardRegistrations(register)}
          />
          {failure ? <ErrorText>{failure}</ErrorText> : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {messages.common.cancel}
            </Button>
            <Button type="submit" disabled={setAutoRenewal.isPending}>
              {setAutoRenewal.isPending ? m.saving : m.confirm}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
