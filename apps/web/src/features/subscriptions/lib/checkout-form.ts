import { PAYMENT_METHODS, type PaymentMethod } from '@carteirinha/shared/contracts/payments';
import { creditCardSchema, customerDataSchema, type CreditCardInput } from '@carteirinha/shared/contracts/subscriptions';
import { digitsOnly } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { z } from 'zod';

/** The card as the dialog's fields hold it: the expiry in one "MM/AA" field, as it is printed on the card. */
export const cardFieldsSchema = z.object({
  number: z.string(),
  holderName: z.string(),
  expiry: z.string(),
  ccv: z.string(),
  postalCode: z.string(),
  addressNumber: z.string(),
});
export type CardFields = z.infer<typeof cardFieldsSchema>;

export const EMPTY_CARD: CardFields = { number: '', holderName: '', expiry: '', ccv: '', postalCode: '', addressNumber: '' };

/** "12/29", "1229", "12/2029" → month and year as the shared card schema takes them. */
export function splitExpiry(expiry: string): { expiryMonth: string; expiryYear: string } {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  if (!match) return { expiryMonth: expiry.slice(0, 2), expiryYear: '' };
  return { expiryMonth: match[1] ?? '', expiryYear: match[2] ?? '' };
}

/** The shared card schema's input for what the fields hold. */
export function creditCardOf(card: CardFields): Record<keyof CreditCardInput, string> {
  return {
    holderName: card.holderName,
    number: card.number,
    ...splitExpiry(card.expiry),
    ccv: digitsOnly(card.ccv),
    postalCode: card.postalCode,
    addressNumber: card.addressNumber,
  };
}

/** Where the shared schema's card issue is shown: both expiry parts belong to the one 'Validade' field. */
function cardFieldOf(path: PropertyKey | undefined): keyof CardFields {
  switch (path) {
    case 'expiryMonth':
    case 'expiryYear':
      return 'expiry';
    case 'holderName':
    case 'number':
    case 'ccv':
    case 'postalCode':
    case 'addressNumber':
      return path;
    // An issue of the whole card (no field named) is shown on its number.
    case undefined:
    default:
      return 'number';
  }
}

/** A card checked by the shared schema on submit, so the patient sees a mistyped number before anything is sent. */
const cardForMethodSchema = z.object({ paymentMethod: z.enum(PAYMENT_METHODS), card: cardFieldsSchema });

/**
 * The checkout dialog's form: the shared customer data schema (CPF/CNPJ by its check digits, phone optional), the
 * method, the terms box, and the card only for 'Cartão de Crédito'. Its output is what the request carries besides
 * the plan and the terms version.
 */
export const checkoutFormSchema = z
  .object({
    customerData: customerDataSchema,
    paymentMethod: z.enum(PAYMENT_METHODS),
    acceptTerms: z.boolean().refine((accepted) => accepted, messages.contractTerms.mustAccept),
    card: cardFieldsSchema,
  })
  .superRefine((form, context) => cardIssues(form, context))
  .transform(({ customerData, paymentMethod, card }) => ({
    customerData,
    paymentMethod,
    acceptTerms: true as const,
    creditCard: paymentMethod === 'credit_card' ? creditCardSchema.parse(creditCardOf(card)) : undefined,
  }));
export type CheckoutFormInput = z.input<typeof checkoutFormSchema>;
export type CheckoutFormOutput = z.output<typeof checkoutFormSchema>;

/** The payment-method dialog: the method and, for a card, its fields. */
export const paymentMethodFormSchema = cardForMethodSchema
  .superRefine((form, context) => cardIssues(form, context))
  .transform(({ paymentMethod, card }) => ({
    paymentMethod,
    creditCard: paymentMethod === 'credit_card' ? creditCardSchema.parse(creditCardOf(card)) : undefined,
  }));
export type PaymentMethodFormInput = z.input<typeof paymentMethodFormSchema>;
export type PaymentMethodFormOutput = z.output<typeof paymentMethodFormSchema>;

function cardIssues(form: { paymentMethod: PaymentMethod; card: CardFields }, context: z.RefinementCtx): void {
  if (form.paymentMethod !== 'credit_card') return;
  const parsed = creditCardSchema.safeParse(creditCardOf(form.card));
  if (parsed.success) return;
  const seen = new Set<string>();
  for (const issue of parsed.error.issues) {
    const field = cardFieldOf(issue.path[0]);
    // One message per field: the first is the one to fix.
    if (seen.has(field)) continue;
    seen.add(field);
    context.addIssue({ code: 'custom', path: ['card', field], message: issue.message });
  }
}

/**
 * What identifies a submit for its Idempotency-Key without keeping the card number in memory: the card's last four
 * digits, expiry and holder tell one card from another well enough to tell a retry from a new attempt.
 */
export function submitFingerprint<T extends { creditCard?: CreditCardInput | undefined }>(request: T): unknown {
  const { creditCard, ...rest } = request;
  if (!creditCard) return rest;
  return { ...rest, card: [creditCard.number.slice(-4), creditCard.expiryMonth, creditCard.expiryYear, creditCard.holderName] };
}
