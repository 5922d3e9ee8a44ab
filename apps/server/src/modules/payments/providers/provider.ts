import type { BillingCycle } from '@carteirinha/shared/contracts/subscription-plans';
import type { CreditCardInput } from '@carteirinha/shared/contracts/subscriptions';
import type { PaymentMethod } from '@carteirinha/shared/contracts/payments';

/** The providers the platform bills through (DESIGN.md §2 "Payments"). */
export type ProviderName = 'local' | 'asaas';

/**
 * A charge's status in the provider's own words (Asaas v3 payment statuses). The webhook processor maps them to
 * ours (ADR 013); parsing stays tolerant because providers add values.
 */
export type ProviderChargeStatus =
  | 'PENDING'
  | 'RECEIVED'
  | 'CONFIRMED'
  | 'OVERDUE'
  | 'REFUNDED'
  | 'RECEIVED_IN_CASH'
  | 'REFUND_REQUESTED'
  | 'REFUND_IN_PROGRESS'
  | 'CHARGEBACK_REQUESTED'
  | 'CHARGEBACK_DISPUTE'
  | 'AWAITING_CHARGEBACK_REVERSAL'
  | 'DUNNING_REQUESTED'
  | 'DUNNING_RECEIVED'
  | 'AWAITING_RISK_ANALYSIS'
  /** Ours, not an Asaas status: the charge was deleted at the provider (Asaas keeps its last status with `deleted: true`). */
  | 'DELETED'
  | (string & {});

/** Whose merchant account a call runs on: each clinic is its own merchant (its Asaas subaccount key). */
export type MerchantAccount = {
  clinicId: string;
  /** The clinic's subaccount key (opened from clinic_settings); null → the platform's ASAAS_API_KEY. */
  apiKey: string | null;
  /** The clinic's name as the payer sees it (Pix merchant name, boleto beneficiary). */
  merchantName: string;
  merchantCity: string;
};

export type ProviderCustomerInput = {
  name: string;
  email: string;
  /** Digits (a CNPJ may carry letters). */
  cpfCnpj: string;
  phone?: string;
  /** Our user id: the provider's `externalReference`. */
  externalReference: string;
};

/** One charge as the provider reports it: what `payments` stores. */
export type ProviderCharge = {
  id: string;
  subscriptionId: string | null;
  status: ProviderChargeStatus;
  method: PaymentMethod;
  amountCents: number;
  /** yyyy-MM-dd. */
  dueDate: string;
  /** When settled (RECEIVED / CONFIRMED). */
  paidAt: Date | null;
  pixPayload: string | null;
  /** Base64 PNG, no `data:` prefix. */
  pixQrCodePng: string | null;
  boletoUrl: string | null;
  boletoDigitableLine: string | null;
  invoiceUrl: string | null;
  cardSummary: string | null;
  /** Our payment id or subscription id as sent; how a lost charge is matched back. */
  externalReference: string | null;
};

export type CreateProviderSubscriptionInput = {
  customerId: string;
  method: PaymentMethod;
  /** Each cycle's price. */
  amountCents: number;
  /** Added to the first charge only (the plan's adhesion fee). */
  firstChargeExtraCents: number;
  cycle: BillingCycle;
  /** yyyy-MM-dd of the first charge (today for Pix and card; today + 5 for boleto). */
  firstDueDate: string;
  description: string;
  /** Our subscription id. */
  externalReference: string;
  /** Only for 'credit_card': passed through to the provider, never stored or logged. */
  creditCard?: CreditCardInput;
  holder?: { name: string; email: string; cpfCnpj: string; phone?: string };
  /** The payer's address (Asaas `remoteIp`). */
  remoteIp: string;
  /** The platform's fee as a split to its wallet (10 %), when the provider supports it. */
  platformFeePercent: number;
};

export type ProviderSubscription = { id: string; firstCharge: ProviderCharge };

/** A one-off charge beside the recurring subscription (an upgrade's difference, ADR 028). */
export type CreateProviderChargeInput = {
  customerId: string;
  method: PaymentMethod;
  amountCents: number;
  /** yyyy-MM-dd. */
  dueDate: string;
  description: string;
  /** Our reference (the plan change's id): a retried call finds the charge it made. */
  externalReference: string;
  creditCard?: CreditCardInput;
  remoteIp: string;
  platformFeePercent: number;
};

/**
 * What the platform needs from a payment provider. Implementations: `local` (embedded default: real Pix BR Code and
 * QR, printable boleto page, payments confirmed through the same webhook endpoint) and `asaas` (v3 HTTP client).
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** Finds the customer by CPF/CNPJ or creates it; returns the provider's id. */
  ensureCustomer(account: MerchantAccount, customer: ProviderCustomerInput): Promise<string>;
  /** Creates the recurring subscription and returns its first charge, ready to pay (Pix QR, boleto, card result). */
  createSubscription(account: MerchantAccount, input: CreateProviderSubscriptionInput): Promise<ProviderSubscription>;
  /** Stops future charges (self-service cancellation); open charges are deleted by the provider. */
  cancelSubscription(account: MerchantAccount, providerSubscriptionId: string): Promise<void>;
  /** Changes how the next charges are paid ('Alterar forma de pagamento'). */
  updateSubscriptionMethod(account: MerchantAccount, providerSubscriptionId: string, method: PaymentMethod, creditCard?: CreditCardInput, remoteIp?: string): Promise<void>;
  /**
   * Refunds a paid charge: all of it (null), or `amountCents` of it (the 7-day withdrawal keeps the discounts the
   * patient received, CDC art. 49).
   */
  refundCharge(account: MerchantAccount, providerChargeId: string, amountCents?: number | null): Promise<void>;
  /** The price of each next charge (a plan changed, a dependent added or removed); open charges follow. */
  updateSubscriptionAmount(account: MerchantAccount, providerSubscriptionId: string, amountCents: number): Promise<void>;
  /** Makes a one-off charge, ready to pay (Pix QR, boleto line, or a card captured at once). */
  createCharge(account: MerchantAccount, input: CreateProviderChargeInput): Promise<ProviderCharge>;
  /** Deletes an open one-off charge no longer wanted (already gone is fine; a paid one stays paid). */
  deleteCharge(account: MerchantAccount, providerChargeId: string): Promise<void>;
  getCharge(account: MerchantAccount, providerChargeId: string): Promise<ProviderCharge | null>;
  /** The charges created or changed since `since`: what reconciliation compares with the ledger. */
  listRecentCharges(account: MerchantAccount, since: Date): Promise<ProviderCharge[]>;
}
