import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from '@carteirinha/shared/contracts/payments';
import { messages } from '@carteirinha/shared/messages';
import { BarcodeIcon, CreditCardIcon, QrCodeIcon, type LucideIcon } from 'lucide-react';
import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '@/components/ui/text-field';
import { cardExpiryAsTyped, cardNumberAsTyped, cepAsTyped, maskedAsTyped } from '@/lib/mask-as-typed';
import { cn } from '@/lib/utils';
import type { CardFields } from '../lib/checkout-form';

const s = messages.subscriptionPage;

/** Specification §9: what each method promises, under its name. */
const METHOD_HINTS: Record<PaymentMethod, { hint: string; icon: LucideIcon }> = {
  pix: { hint: messages.checkout.pixDescription, icon: QrCodeIcon },
  boleto: { hint: messages.checkout.boletoDue, icon: BarcodeIcon },
  credit_card: { hint: messages.checkout.cardDescription, icon: CreditCardIcon },
};

type PaymentMethodChoiceProps = {
  /** `register('paymentMethod')` of the form. */
  radio: UseFormRegisterReturn;
  selected: PaymentMethod;
  /** A method that cannot be chosen (the one already in use, when changing it). */
  disabledMethod?: PaymentMethod | null;
};

/** Pix, boleto or card as three radio cards (a native radio group: arrows move between them). */
export function PaymentMethodChoice({ radio, selected, disabledMethod = null }: PaymentMethodChoiceProps) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">{s.paymentMethodLegend}</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {PAYMENT_METHODS.map((method) => {
          const { hint, icon: Icon } = METHOD_HINTS[method];
          const disabled = method === disabledMethod;
          return (
            <label
              key={method}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm transition-colors has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
                selected === method && 'border-primary bg-accent',
                disabled && 'cursor-not-allowed opacity-50',
              )}
            >
              <input type="radio" value={method} disabled={disabled} className="mt-1 accent-primary" {...radio} />
              <span className="grid gap-1">
                <span className="flex items-center gap-2 font-medium">
                  <Icon aria-hidden="true" className="size-4" />
                  {PAYMENT_METHOD_LABELS[method]}
                </span>
                <span className="text-muted-foreground">{hint}</span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** `register('card.<field>')` of the form, for each card field. */
export type CardRegistrations = Record<keyof CardFields, UseFormRegisterReturn>;

/** The card's fields registered in a form that keeps them under `card` (checkout, method, plan change, renewal). */
export function cardRegistrations(register: (name: `card.${keyof CardFields}`) => UseFormRegisterReturn): CardRegistrations {
  return {
    number: register('card.number'),
    holderName: register('card.holderName'),
    expiry: register('card.expiry'),
    ccv: register('card.ccv'),
    postalCode: register('card.postalCode'),
    addressNumber: register('card.addressNumber'),
  };
}

type CreditCardFieldsProps = {
  fields: CardRegistrations;
  errors: FieldErrors<CardFields> | undefined;
  /** Why the last attempt with this card was refused (the operator's reason), shown beside the fields it concerns. */
  refusal?: string | null;
};

/**
 * The card, with the autocomplete names browsers and password managers fill from a saved card. The values live only
 * in the form until it is sent; the dialogs clear them right after.
 */
export function CreditCardFields({ fields, errors, refusal = null }: CreditCardFieldsProps) {
  return (
    <div className="grid gap-4 rounded-md border p-4">
      <p className="text-sm text-muted-foreground">{s.cardNotice}</p>
      {refusal ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm font-medium text-destructive">
          {refusal}
        </p>
      ) : null}
      <TextField
        label={s.cardNumber}
        error={errors?.number?.message}
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="0000 0000 0000 0000"
        {...maskedAsTyped(fields.number, cardNumberAsTyped)}
      />
      <TextField label={s.cardHolder} error={errors?.holderName?.message} autoComplete="cc-name" {...fields.holderName} />
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label={s.cardExpiry}
          error={errors?.expiry?.message}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/AA"
          {...maskedAsTyped(fields.expiry, cardExpiryAsTyped)}
        />
        <TextField label={s.cardCvv} error={errors?.ccv?.message} inputMode="numeric" autoComplete="cc-csc" placeholder="000" {...fields.ccv} />
      </div>
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label={s.cardPostalCode}
          error={errors?.postalCode?.message}
          inputMode="numeric"
          autoComplete="postal-code"
          placeholder="00000-000"
          {...maskedAsTyped(fields.postalCode, cepAsTyped)}
        />
        <TextField label={s.cardAddressNumber} error={errors?.addressNumber?.message} autoComplete="off" {...fields.addressNumber} />
      </div>
    </div>
  );
}
