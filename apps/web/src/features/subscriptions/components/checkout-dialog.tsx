import type { Payment } from '@carteirinha/shared/contracts/payments';
import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { ErrorCode } from '@carteirinha/shared/errors';
import type { PatientProfile } from '@carteirinha/shared/contracts/profiles';
import { useMe } from '@/app/session';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { MaskedField, maskValue } from '@/components/ui/masked-field';
import { CenteredSpinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { useMyProfile } from '@/features/profiles/api/get-my-profile';
import { toast } from '@/lib/toasts';
import { useCreateSubscription } from '../api/create-subscription';
import { usePatientTerms } from '../api/get-terms';
import { checkoutFormSchema, EMPTY_CARD, type CheckoutFormInput, type CheckoutFormOutput } from '../lib/checkout-form';
import { planPriceLabel } from '../lib/plan-display';
import { cardRegistrations, CreditCardFields, PaymentMethodChoice } from './payment-method-fields';
import { TermsPanel } from './terms-panel';

const s = messages.subscriptionPage;

/** Server refusals that belong to one field: shown under it as well as in the toast. */
const CPF_MESSAGES: readonly string[] = [messages.checkoutRules.invalidCpfCnpj, messages.checkoutRules.cpfLocked];
/** The provider refused the operation: with a card, the operator's reason for that card. */
const REFUSED: ErrorCode = 'PAYMENT_REJECTED';

type CheckoutFormProps = {
  plan: SubscriptionPlan;
  /** What the form starts from; null when it could not be read (the patient then types everything). */
  profile: PatientProfile | null;
  onCreated: (payment: Payment) => void;
  onCancel: () => void;
  /** The request is on its way: the dialog must not close under it (its answer would land nowhere). */
  onPendingChange: (pending: boolean) => void;
};

function CheckoutForm({ plan, profile, onCreated, onCancel, onPendingChange }: CheckoutFormProps) {
  const terms = usePatientTerms(true);
  const termsBoxId = useId();
  const createSubscription = useCreateSubscription();
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors },
  } = useForm<CheckoutFormInput, unknown, CheckoutFormOutput>({
    resolver: zodResolver(checkoutFormSchema),
    // Filled from the profile: the patient checks rather than types (specification §2, issue 14), and a returning
    // patient finds the CPF that is read-only once set instead of mistyping it.
    defaultValues: {
      customerData: {
        name: profile?.fullName ?? '',
        email: profile?.email ?? '',
        cpfCnpj: maskValue('cpfCnpj', profile?.cpf),
        phone: maskValue('phone', profile?.phone),
      },
      paymentMethod: 'pix',
      acceptTerms: false,
      card: EMPTY_CARD,
    },
  });
  const [name, email, cpfCnpj, paymentMethod] = useWatch({
    control,
    name: ['customerData.name', 'customerData.email', 'customerData.cpfCnpj', 'paymentMethod'],
  });
  // Specification §5: confirm is disabled while the request is pending or a required field is empty.
  const missingRequired = [name, email, cpfCnpj].some((value) => !value?.trim());
  const pending = createSubscription.isPending;
  useEffect(() => onPendingChange(pending), [pending, onPendingChange]);
  // The answer the patient waits for is shown in the dialog, in view beside what it concerns, not in a toast that
  // vanishes or covers the dialog's title on a phone: a card's refusal over the card fields, anything else above the
  // buttons.
  const [cardRefusal, setCardRefusal] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const onValid = async (values: CheckoutFormOutput) => {
    const termsId = terms.data?.id;
    if (!termsId) return;
    setCardRefusal(null);
    setFailure(null);
    try {
      const { payment } = await createSubscription.mutateAsync({ planId: plan.id, termsId, ...values });
      setValue('card', EMPTY_CARD);
      toast.success(messages.checkout.created);
      onCreated(payment);
    } catch (error) {
      const message = formatMessage(messages.checkout.createError, { message: errorMessage(error) });
      const refusedCard = values.paymentMethod === 'credit_card' && error instanceof ApiError && error.code === REFUSED;
      if (refusedCard) setCardRefusal(message);
      else setFailure(message);
      if (error instanceof ApiError && CPF_MESSAGES.includes(error.message)) setError('customerData.cpfCnpj', { message: error.message });
      if (error instanceof ApiError && error.message === messages.contractTerms.outdated) {
        // New terms were published meanwhile: show them and ask again.
        setValue('acceptTerms', false);
        void terms.refetch();
      }
      // The number and the CVV never stay behind once sent (PCI: the patient types them again); the holder, expiry
      // and address stay, so a declined card is corrected rather than typed again from scratch.
      setValue('card.number', '');
      setValue('card.ccv', '');
    } finally {
      // Nor in the mutation's memory.
      createSubscription.reset();
    }
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid))}>
      <p className="text-sm font-medium">
        {planPriceLabel(plan)}
        {plan.adhesionFeeCents > 0 ? ` · ${formatMessage(s.adhesionFee, { price: formatMoney(plan.adhesionFeeCents) })}` : null}
      </p>
      <TextField label={s.name} autoComplete="name" error={errors.customerData?.name?.message} {...register('customerData.name')} />
      <TextField label={s.email} type="email" autoComplete="email" error={errors.customerData?.email?.message} {...register('customerData.email')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <MaskedField control={control} name="customerData.cpfCnpj" kind="cpfCnpj" label={s.cpfCnpj} error={errors.customerData?.cpfCnpj?.message} />
        <MaskedField control={control} name="customerData.phone" kind="phone" label={s.phone} placeholder="(00) 00000-0000" error={errors.customerData?.phone?.message} />
      </div>
      <PaymentMethodChoice radio={register('paymentMethod')} selected={paymentMethod} />
      {paymentMethod === 'credit_card' ? (
        <CreditCardFields
          refusal={cardRefusal}
          errors={errors.card}
          fields={cardRegistrations(register)}
        />
      ) : null}
      <TermsPanel query={terms} />
      {/* Room below for the sticky footer, when focus (an unticked box) scrolls it into view on a phone. */}
      <div className="grid scroll-mb-32 gap-1">
        <div className="flex scroll-mb-32 items-start gap-2">
          <Controller
            control={control}
            name="acceptTerms"
            render={({ field }) => (
              <Checkbox
                id={termsBoxId}
                ref={field.ref}
                className="mt-0.5"
                checked={field.value}
                disabled={!terms.data}
                aria-invalid={errors.acceptTerms ? true : undefined}
                aria-describedby={errors.acceptTerms ? `${termsBoxId}-error` : undefined}
                onBlur={field.onBlur}
                onCheckedChange={(checked) => field.onChange(checked === true)}
              />
            )}
          />
          <Label htmlFor={termsBoxId} className="leading-snug font-normal">
            {s.termsAccept}
          </Label>
        </div>
        {errors.acceptTerms ? (
          <p id={`${termsBoxId}-error`} className="text-sm font-medium text-destructive">
            {errors.acceptTerms.message}
          </p>
        ) : null}
      </div>
      {failure ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm font-medium text-destructive">
          {failure}
        </p>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={pending} onClick={onCancel}>
          {messages.common.cancel}
        </Button>
        <Button type="submit" disabled={pending || missingRequired || !terms.data}>
          {pending ? s.confirming : s.confirm}
        </Button>
      </DialogFooter>
    </form>
  );
}

type CheckoutDialogProps = {
  /** The plan being bought; null keeps the dialog closed. */
  plan: SubscriptionPlan | null;
  onClose: () => void;
  onCreated: (payment: Payment) => void;
};

/** Specification §4 "Checkout flow": fill in, choose a method, accept the terms, confirm. */
export function CheckoutDialog({ plan, onClose, onCreated }: CheckoutDialogProps) {
  const profile = useMyProfile(plan !== null);
  const { data: me } = useMe();
  const [pending, setPending] = useState(false);
  // Should the profile be unreadable, the account still gives the name and e-mail.
  const startFrom = profile.data ?? (me ? { fullName: me.user.fullName, email: me.user.email, cpf: null, phone: null, birthDate: null, photoUrl: null } : null);
  return (
    // While 'Processando...' the dialog stays: closed under a request, its payment would appear 8 s later unannounced.
    <Dialog open={plan !== null} onOpenChange={(open) => (open || pending ? undefined : onClose())}>
      <DialogContent
        className="sm:max-w-2xl"
        // Focus starts on the first field to fill, not on the ✕ a keyboard or screen reader would meet first.
        onOpenAutoFocus={(event) => {
          const first = event.currentTarget instanceof HTMLElement ? event.currentTarget.querySelector<HTMLElement>('form input:not([type=hidden])') : null;
          if (!first) return;
          event.preventDefault();
          first.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{plan ? formatMessage(s.checkoutTitle, { plan: plan.name }) : s.confirm}</DialogTitle>
          <DialogDescription>{s.checkoutDescription}</DialogDescription>
        </DialogHeader>
        {plan && profile.isPending ? <CenteredSpinner /> : null}
        {plan && !profile.isPending ? <CheckoutForm key={plan.id} plan={plan} profile={startFrom} onCreated={onCreated} onCancel={onClose} onPendingChange={setPending} /> : null}
      </DialogContent>
    </Dialog>
  );
}
