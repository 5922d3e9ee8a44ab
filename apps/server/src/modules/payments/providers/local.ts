import { createHash, randomUUID } from 'node:crypto';
import { generatePixPayload } from '@brazilian-utils/brazilian-utils';
import QRCode from 'qrcode';
import { messages } from '@carteirinha/shared/messages';
import type { CreditCardInput } from '@carteirinha/shared/contracts/subscriptions';
import type { PaymentMethod } from '@carteirinha/shared/contracts/payments';
import { AppError } from '../../../lib/app-error.ts';
import { boletoDigitableLine } from './boleto-line.ts';
import { cardSummaryOf, checkTestCard } from './card-check.ts';
import { centsToReais } from './money.ts';
import type { CreateProviderSubscriptionInput, MerchantAccount, PaymentProvider, ProviderCharge } from './provider.ts';

export type LocalProviderOptions = {
  /** PIX_KEY: the key every BR Code names; without it each clinic gets a stable random-key (EVP) look-alike. */
  pixKey?: string;
  now?: () => Date;
};

/**
 * A Pix random key (EVP, a UUID v4) of its own for each clinic, stable across restarts, so that the demo's BR Codes
 * look like a real clinic's. It is not registered in the DICT: a bank app reads the code but cannot pay it.
 */
export function demoPixKeyOf(clinicId: string): string {
  const hex = createHash('sha256').update(`carteirinha-local-pix:${clinicId}`).digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The Pix "copia e cola" (static BR Code with amount and txid) and its QR as a base64 PNG. */
export async function localPixCharge(input: { pixKey: string; account: MerchantAccount; amountCents: number; txid: string; description: string }) {
  const payload = generatePixPayload({
    key: input.pixKey,
    merchantName: input.account.merchantName,
    merchantCity: input.account.merchantCity,
    amount: centsToReais(input.amountCents),
    txid: input.txid,
    description: input.description,
  });
  // Only a broken key, name or amount makes the library refuse: a fault of ours, not the payer's.
  if (payload === null) throw new Error('generatePixPayload refused the local charge');
  const png = await QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
  return { pixPayload: payload, pixQrCodePng: png.toString('base64') };
}

function requireCard(card: CreditCardInput | undefined): CreditCardInput {
  if (!card) throw new AppError('VALIDATION', messages.paymentProviders.cardRequired);
  return card;
}

/**
 * The embedded default provider: no network. It charges nothing; it produces what a payer needs (a real Pix BR Code
 * with a valid CRC and its QR, a well-formed boleto line for our printable page, a sandbox-like card check), and
 * 'Simular pagamento' confirms through the same webhook endpoint a real provider calls.
 *
 * It keeps no state: the rows the core writes are the only record. So `getCharge` answers null and
 * `listRecentCharges` an empty list: reconciliation has nothing to compare for local charges (its webhooks never get
 * lost, they are posted by ourselves), and cancelling or refunding has nothing to undo here.
 */
export function createLocalProvider(options: LocalProviderOptions = {}): PaymentProvider {
  const now = options.now ?? (() => new Date());

  async function firstCharge(account: MerchantAccount, input: CreateProviderSubscriptionInput, subscriptionId: string): Promise<ProviderCharge> {
    const paymentUuid = randomUUID();
    const amountCents = input.amountCents + input.firstChargeExtraCents;
    const base: ProviderCharge = {
      id: `loc_pay_${paymentUuid}`,
      subscriptionId,
      status: 'PENDING',
      method: input.method,
      amountCents,
      dueDate: input.firstDueDate,
      paidAt: null,
      pixPayload: null,
      pixQrCodePng: null,
      boletoUrl: null,
      boletoDigitableLine: null,
      invoiceUrl: null,
      cardSummary: null,
      externalReference: input.externalReference,
    };
    switch (input.method) {
      case 'pix': {
        const pixKey = options.pixKey ?? demoPixKeyOf(account.clinicId);
        const txid = paymentUuid.replaceAll('-', '').slice(0, 25);
        return { ...base, ...(await localPixCharge({ pixKey, account, amountCents, txid, description: input.description })) };
      }
      case 'boleto':
        // boletoUrl stays null: the core points it at our own printable boleto page.
        return { ...base, boletoDigitableLine: boletoDigitableLine({ amountCents, dueDate: input.firstDueDate, reference: base.id }) };
      case 'credit_card': {
        const card = checkTestCard(requireCard(input.creditCard), now());
        // Like a card acquirer: authorised and captured at once, the money not yet available (Asaas CONFIRMED).
        return { ...base, status: 'CONFIRMED', paidAt: now(), cardSummary: cardSummaryOf(card.brand, card.last4) };
      }
    }
  }

  return {
    name: 'local',
    async ensureCustomer(_account, customer) {
      return `loc_cus_${customer.externalReference}`;
    },
    async createSubscription(account, input) {
      // Our subscription id in theirs: a retried checkout names the same subscription.
      const id = `loc_sub_${input.externalReference}`;
      return { id, firstCharge: await firstCharge(account, input, id) };
    },
    async cancelSubscription() {},
    async updateSubscriptionMethod(_account, _subscriptionId, method: PaymentMethod, creditCard) {
      if (method === 'credit_card') checkTestCard(requireCard(creditCard), now());
    },
    async refundCharge() {},
    async getCharge() {
      return null;
    },
    async listRecentCharges() {
      return [];
    },
  };
}
