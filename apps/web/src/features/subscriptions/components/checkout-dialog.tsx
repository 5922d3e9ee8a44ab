import type { Payment } from '@carteirinha/shared/contracts/payments';
import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
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
import { errorMessage } from '@/lib/error-message';
import { useMyProfile } from '@/features/patient/api/get-my-profile';
import { toast } from '@/lib/toasts';
import { useCreateSubscription } from '../api/create-subscription';
import { usePatientTerms } from '../api/get-terms';
import { checkoutFormSchema, EMPTY_CARD, type CheckoutFormInput, type CheckoutFormOutput } from '../lib/checkout-form';
import { planPriceLabel } from '../lib/plan-display';
import { CreditCardFields, PaymentMethodChoice } from './payment-method-fields';
import { TermsPanel } from './terms-panel';

const s = messages.subscriptionPage;

/** Server refusals that belong to one field: shown under it as well as in the toast. */
const CPF_MESSAGES: readonly string[] = [messages.checkoutRules.invalidCpfCnpj, messages.checkoutRules.cpfLocked];

type CheckoutFormProps = {
  plan: SubscriptionPlan;
  /** What the form starts from; null when it could not be read (the patient then types everything). */
  profile: PatientProfile | null;
  onCreated: (payment: Payment) => void;
  onCancel: () => void;
};

function CheckoutForm({ plan, profile, onCreated, onCancel }: CheckoutFormProps) {
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

  const onValid = async (values: CheckoutFormOutput) => {
    const termsId = terms.data?.id;
    if (!termsId) return;
    try {
      const { payment } = await createSubscription.mutateAsync({ planId: plan.id, termsId, ...values });
      toast.success(messages.checkout.created);
      onCreated(payment);
    } catch (error) {
      toast.error(formatMessage(messages.checkout.createError, { message: errorMessage(error) }));
      if (error instanceof ApiError && CPF_MESSAGES.includes(error.message)) setError('customerData.cpfCnpj', { message: error.message });
      if (error instanceof ApiError && error.message === messages.contractTerms.outdated) {
        // New terms were published meanwhile: show them and ask again.
        setValue('acceptTerms', false);
        void terms.refetch();
      }
    } finally {
      // The card's data never stays behind once sent: not in the form, not in the mutation's memory.
      setValue('card', EMPTY_CARD);
      createSubscription.reset();
    }
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={handleSubmit(onValid)}>
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
          errors={errors.card}
          fields={{
            number: register('card.number'),
            holderName: register('card.holderName'),
            expiry: register('card.expiry'),
            ccv: register('card.ccv'),
            postalCode: register('card.postalCode'),
            addressNumber: register('card.addressNumber'),
          }}
        />
      ) : null}
      <TermsPanel query={terms} />
      <div className="grid gap-1">
        <div className="flex items-start gap-2">
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
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
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
  // Should the profile be unreadable, the account still gives the name and e-mail.
  const startFrom = profile.data ?? (me ? { fullName: me.user.fullName, email: me.user.email, cpf: null, phone: null } : null);
  return (
    <Dialog open={plan !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{plan ? formatMessage(s.checkoutTitle, { plan: plan.name }) : s.confirm}</DialogTitle>
          <DialogDescription>{s.checkoutDescription}</DialogDescription>
        </DialogHeader>
        {plan && profile.isPending ? <CenteredSpinner /> : null}
        {plan && !profile.isPending ? <CheckoutForm key={plan.id} plan={plan} profile={startFrom} onCreated={onCreated} onCancel={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
