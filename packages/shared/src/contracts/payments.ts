import { z } from 'zod';
import { messages } from '../messages.ts';

/** How a patient pays a charge (specification §7: create-subscription's payment_method). */
export const PAYMENT_METHODS = ['pix', 'boleto', 'credit_card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * A charge's life, after the payment provider's own statuses (Asaas: PENDING, CONFIRMED, RECEIVED, OVERDUE,
 * REFUNDED, and a deleted charge): `confirmed` is a card payment whose money is not yet available.
 */
export const PAYMENT_STATUSES = ['pending', 'confirmed', 'received', 'overdue', 'refunded', 'canceled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The statuses in which the patient has paid: what counts as a clinic's revenue. */
export const PAID_PAYMENT_STATUSES = ['confirmed', 'received'] as const satisfies readonly PaymentStatus[];


/** pt-BR label of each charge status, as the patient's charges list shows it. */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Pendente',
  // A card's charge is 'confirmed' at once and 'received' when the money lands a month later: to the patient both are
  // simply paid, one word whatever the method (issue 23).
  confirmed: 'Pago',
  received: 'Pago',
  overdue: 'Vencido',
  refunded: 'Estornado',
  canceled: 'Cancelado',
};

/** pt-BR label of each payment method (checkout and charges list). */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  pix: 'PIX',
  boleto: 'Boleto',
  credit_card: 'Cartão de Crédito',
};

const isoDay = z.iso.date();
const isoInstant = z.iso.datetime({ offset: true });

/**
 * One charge as its payer sees it (specification §3 "payment": pix_qr_code, pix_copy_paste, boleto_url): never a card
 * number, only `cardSummary` ("Visa •••• 4242").
 */
export const paymentSchema = z.object({
  id: z.uuid(),
  status: z.enum(PAYMENT_STATUSES),
  method: z.enum(PAYMENT_METHODS),
  amountCents: z.number().int(),
  /** Of which the one-off adhesion fee (first charge only). */
  adhesionFeeCents: z.number().int(),
  dueDate: isoDay,
  paidAt: isoInstant.nullable(),
  periodStart: isoDay.nullable(),
  periodEnd: isoDay.nullable(),
  /** Base64 PNG of the Pix QR code, without a `data:` prefix. */
  pixQrCode: z.string().nullable(),
  /** The Pix BR Code ("copia e cola"). */
  pixCopyPaste: z.string().nullable(),
  boletoUrl: z.string().nullable(),
  boletoDigitableLine: z.string().nullable(),
  invoiceUrl: z.string().nullable(),
  cardSummary: z.string().nullable(),
  /** Where the paid charge's receipt is (our page or the provider's); null until paid. */
  receiptUrl: z.string().nullable(),
  /** The embedded provider's 'Simular pagamento' is offered (local provider, charge still open). */
  canSimulate: z.boolean(),
  /** An upgrade's charge for the difference (ADR 028), not a cycle's. */
  planChange: z.boolean(),
  createdAt: isoInstant,
});
export type Payment = z.infer<typeof paymentSchema>;

/**
 * GET /api/patient/payments/:id: one charge with the parties a receipt and a boleto print — the clinic that receives,
 * with its CNPJ, and the holder who pays, with the CPF the subscription was made with (null when paid under a CNPJ,
 * which only the payment provider keeps).
 */
export const paymentDocumentSchema = paymentSchema.extend({
  beneficiary: z.object({ name: z.string(), cnpj: z.string() }),
  payer: z.object({ name: z.string(), cpf: z.string().nullable() }),
});
export type PaymentDocument = z.infer<typeof paymentDocumentSchema>;

export const paymentListSchema = z.object({ items: z.array(paymentSchema) });

/** Days a charge may stay overdue before the cards stop validating: a clinic setting (issue 14: default 5). */
export const GRACE_DAYS_MIN = 0;
export const GRACE_DAYS_MAX = 60;
export const GRACE_DAYS_DEFAULT = 5;

/**
 * GET /api/clinic/billing-settings (clinic_admin): the grace period and whether the clinic's own Asaas account is
 * connected. The key itself is write-only: no answer ever carries it.
 */
export const billingSettingsSchema = z.object({
  graceDays: z.number().int(),
  asaasConnected: z.boolean(),
  asaasWalletId: z.string().nullable(),
});
export type BillingSettings = z.infer<typeof billingSettingsSchema>;

export const graceDaysSchema = z
  .number({ error: messages.billingSettings.graceDaysRange })
  .int(messages.billingSettings.graceDaysRange)
  .min(GRACE_DAYS_MIN, messages.billingSettings.graceDaysRange)
  .max(GRACE_DAYS_MAX, messages.billingSettings.graceDaysRange);

/**
 * PUT /api/clinic/billing-settings. `asaasApiKey`: absent keeps the connected key, a key connects (it is sealed before
 * it is stored), an empty string disconnects. `asaasWalletId` (the subaccount's wallet, a UUID): null or '' clears it.
 */
export const updateBillingSettingsRequestSchema = z.object({
  graceDays: graceDaysSchema,
  asaasApiKey: z
    .string({ error: messages.billingSettings.asaasKeyInvalid })
    .trim()
    .max(512, messages.billingSettings.asaasKeyInvalid)
    .regex(/^(|\S{20,})$/, messages.billingSettings.asaasKeyInvalid)
    .optional(),
  asaasWalletId: z
    .union([z.literal(''), z.uuid(messages.billingSettings.walletIdInvalid)], { error: messages.billingSettings.walletIdInvalid })
    .nullable()
    .optional(),
});
export type UpdateBillingSettingsRequest = z.infer<typeof updateBillingSettingsRequestSchema>;
