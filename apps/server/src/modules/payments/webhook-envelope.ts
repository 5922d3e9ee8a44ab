import { z } from 'zod';
import type { PaymentMethod } from '@carteirinha/shared/contracts/payments';
import { centsToReais, reaisToCents } from './providers/money.ts';
import type { ProviderCharge } from './providers/provider.ts';

/**
 * Asaas's webhook envelope (`{ id, event, dateCreated, payment | subscription }`), read tolerantly: Asaas adds fields
 * without notice, so unknown ones pass through and are kept in the stored payload.
 */
const asaasPaymentObjectSchema = z.looseObject({
  id: z.string().min(1).max(200),
  subscription: z.string().max(200).nullish(),
  status: z.string().max(100).nullish(),
  billingType: z.string().max(100).nullish(),
  value: z.number().finite().nullish(),
  dueDate: z.string().max(40).nullish(),
  paymentDate: z.string().max(40).nullish(),
  clientPaymentDate: z.string().max(40).nullish(),
  confirmedDate: z.string().max(40).nullish(),
  bankSlipUrl: z.string().max(2000).nullish(),
  invoiceUrl: z.string().max(2000).nullish(),
  externalReference: z.string().max(200).nullish(),
  deleted: z.boolean().nullish(),
});
export type AsaasPaymentObject = z.infer<typeof asaasPaymentObjectSchema>;

const asaasSubscriptionObjectSchema = z.looseObject({
  id: z.string().min(1).max(200),
  status: z.string().max(100).nullish(),
  externalReference: z.string().max(200).nullish(),
  deleted: z.boolean().nullish(),
});

export const webhookEnvelopeSchema = z.looseObject({
  id: z.string().trim().min(1).max(200),
  event: z.string().trim().min(1).max(100),
  dateCreated: z.string().max(40).nullish(),
  payment: asaasPaymentObjectSchema.nullish(),
  subscription: asaasSubscriptionObjectSchema.nullish(),
});
export type WebhookEnvelope = z.infer<typeof webhookEnvelopeSchema>;

function methodOf(billingType: string | null | undefined): PaymentMethod | null {
  switch (billingType) {
    case 'PIX':
      return 'pix';
    case 'BOLETO':
    case 'UNDEFINED':
      return 'boleto';
    case 'CREDIT_CARD':
    case 'DEBIT_CARD':
      return 'credit_card';
    // An event without a billing type, or one Asaas adds later, names no method we know.
    case null:
    case undefined:
    default:
      return null;
  }
}

/** Asaas gives days in Brasília time; midday there keeps the day whatever zone displays it. */
function instantOfDay(text: string | null | undefined): Date | null {
  if (!text || !/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  return new Date(`${text.slice(0, 10)}T12:00:00-03:00`);
}

function dayOf(text: string | null | undefined): string | null {
  return text && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null;
}

/** What an event says about one charge, in the ledger's terms; fields the event lacks are null. */
export type ChargeSnapshot = {
  id: string;
  providerSubscriptionId: string | null;
  providerStatus: string | null;
  method: PaymentMethod | null;
  amountCents: number | null;
  dueDate: string | null;
  paidAt: Date | null;
  boletoUrl: string | null;
  invoiceUrl: string | null;
  externalReference: string | null;
};

export function snapshotOfPayment(payment: AsaasPaymentObject): ChargeSnapshot {
  const amount = payment.value;
  return {
    id: payment.id,
    providerSubscriptionId: payment.subscription ?? null,
    providerStatus: payment.deleted ? 'DELETED' : (payment.status ?? null),
    method: methodOf(payment.billingType),
    amountCents: typeof amount === 'number' && amount > 0 ? reaisToCents(amount) : null,
    dueDate: dayOf(payment.dueDate),
    paidAt: instantOfDay(payment.clientPaymentDate ?? payment.paymentDate ?? payment.confirmedDate),
    boletoUrl: payment.bankSlipUrl ?? null,
    invoiceUrl: payment.invoiceUrl ?? null,
    externalReference: payment.externalReference ?? null,
  };
}

const BILLING_TYPE_OF: Record<PaymentMethod, string> = { pix: 'PIX', boleto: 'BOLETO', credit_card: 'CREDIT_CARD' };

/** yyyy-MM-dd in Brasília, as Asaas writes payment dates. */
function brasiliaDay(instant: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(instant);
}

/**
 * A charge as an Asaas payment object: the envelope the local provider's 'Simular pagamento' posts and the one a
 * reconciliation finding is stored under, so that every path is read by the same parser.
 */
export function asaasPaymentObjectOf(charge: Pick<ProviderCharge, 'id' | 'subscriptionId' | 'status' | 'method' | 'amountCents' | 'dueDate' | 'paidAt' | 'boletoUrl' | 'invoiceUrl' | 'externalReference'>): Record<string, unknown> {
  const paidDay = charge.paidAt ? brasiliaDay(charge.paidAt) : null;
  return {
    object: 'payment',
    id: charge.id,
    subscription: charge.subscriptionId,
    status: charge.status === 'DELETED' ? 'PENDING' : charge.status,
    deleted: charge.status === 'DELETED',
    billingType: BILLING_TYPE_OF[charge.method],
    value: centsToReais(charge.amountCents),
    dueDate: charge.dueDate,
    paymentDate: paidDay,
    clientPaymentDate: paidDay,
    confirmedDate: charge.status === 'CONFIRMED' ? paidDay : null,
    bankSlipUrl: charge.boletoUrl,
    invoiceUrl: charge.invoiceUrl,
    externalReference: charge.externalReference,
  };
}
