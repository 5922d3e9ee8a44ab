import { createHash, randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { generatePixPayload } from '@brazilian-utils/brazilian-utils';
import QRCode from 'qrcode';
import { messages } from '@carteirinha/shared/messages';
import type { CreditCardInput } from '@carteirinha/shared/contracts/subscriptions';
import type { PaymentMethod } from '@carteirinha/shared/contracts/payments';
import { AppError } from '../../../lib/app-error.ts';
import { boletoDigitableLine } from './boleto-line.ts';
import { cardSummaryOf, checkTestCard } from './card-check.ts';
import { centsToReais } from './money.ts';
import type { CreateProviderChargeInput, CreateProviderSubscriptionInput, MerchantAccount, PaymentProvider, ProviderCharge } from './provider.ts';
import type { Database } from '../../../db/client.ts';
import { localProviderCharges } from '../../../db/schema.ts';

export type LocalProviderOptions = {
  /** Where the provider keeps its own record of the charges it made (local_provider_charges). */
  db: Database;
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

/** What the embedded provider adds to the interface: the payer's side of 'Simular pagamento'. */
export type LocalProvider = PaymentProvider & {
  /**
   * The payer paid this charge at the provider (what a bank does for a real Pix or boleto, and the card acquirer for
   * a card): the provider's record says RECEIVED (Pix, boleto) or CONFIRMED (card) from now on. Answers the charge,
   * or null when the provider made no such charge for this clinic.
   */
  payerPaid: (account: MerchantAccount, providerChargeId: string) => Promise<ProviderCharge | null>;
};

type LocalChargeRow = typeof localProviderCharges.$inferSelect;

function chargeOfRow(row: LocalChargeRow): ProviderCharge {
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    status: row.status,
    method: row.method,
    amountCents: row.amountCents,
    dueDate: row.dueDate,
    paidAt: row.paidAt,
    pixPayload: null,
    pixQrCodePng: null,
    boletoUrl: null,
    boletoDigitableLine: null,
    invoiceUrl: null,
    cardSummary: null,
    externalReference: null,
  };
}

/**
 * Records a charge the embedded provider made, in its own record: its first charges (createSubscription) and the
 * renewals the payments module makes on its behalf (local-renewals.ts, in the renewal's transaction).
 */
export async function recordLocalCharge(
  db: Database,
  clinicId: string,
  charge: Pick<ProviderCharge, 'id' | 'subscriptionId' | 'status' | 'method' | 'amountCents' | 'dueDate' | 'paidAt'>,
  now: Date,
): Promise<void> {
  await db
    .insert(localProviderCharges)
    .values({ id: charge.id, clinicId, subscriptionId: charge.subscriptionId, status: charge.status, method: charge.method, amountCents: charge.amountCents, dueDate: charge.dueDate, paidAt: charge.paidAt, createdAt: now, updatedAt: now })
    .onConflictDoNothing();
}

const OPEN_AT_PROVIDER = ['PENDING', 'OVERDUE'];

/**
 * The embedded default provider: no network. It charges nothing; it produces what a payer needs (a real Pix BR Code
 * with a valid CRC and its QR, a well-formed boleto line for our printable page, a sandbox-like card check), and
 * 'Simular pagamento' confirms through the same webhook endpoint a real provider calls.
 *
 * Like a real provider it keeps its own record of its charges (local_provider_charges): `getCharge` answers from it,
 * so a settlement is read back here as an Asaas one is read back from Asaas, and a local event the provider never
 * saw paid settles nothing. Each clinic reads only its own charges (as a clinic's Asaas key opens only its account).
 * `listRecentCharges` answers an empty list: its events are posted by ourselves and never lost.
 */
export function createLocalProvider(options: LocalProviderOptions): LocalProvider {
  const now = options.now ?? (() => new Date());
  const { db } = options;

  type ChargeInput = Pick<CreateProviderChargeInput, 'method' | 'amountCents' | 'dueDate' | 'description' | 'externalReference' | 'creditCard'>;

  async function firstCharge(account: MerchantAccount, input: CreateProviderSubscriptionInput, subscriptionId: string): Promise<ProviderCharge> {
    const { firstDueDate, amountCents, firstChargeExtraCents, ...rest } = input;
    return newCharge(account, { ...rest, amountCents: amountCents + firstChargeExtraCents, dueDate: firstDueDate }, subscriptionId);
  }

  /** A charge as a payer receives it: a real Pix BR Code and QR, a boleto line, or a card checked and captured. */
  async function newCharge(account: MerchantAccount, input: ChargeInput, subscriptionId: string | null): Promise<ProviderCharge> {
    const paymentUuid = randomUUID();
    const { amountCents } = input;
    const base: ProviderCharge = {
      id: `loc_pay_${paymentUuid}`,
      subscriptionId,
      status: 'PENDING',
      method: input.method,
      amountCents,
      dueDate: input.dueDate,
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
        return { ...base, boletoDigitableLine: boletoDigitableLine({ amountCents, dueDate: input.dueDate, reference: base.id }) };
      case 'credit_card': {
        const card = checkTestCard(requireCard(input.creditCard), now());
        // Like a card acquirer: authorised and captured at once, the money not yet available (Asaas CONFIRMED).
        return { ...base, status: 'CONFIRMED', paidAt: now(), cardSummary: cardSummaryOf(card.brand, card.last4) };
      }
    }
  }

  async function ownCharge(account: MerchantAccount, providerChargeId: string): Promise<LocalChargeRow | null> {
    const [row] = await db
      .select()
      .from(localProviderCharges)
      .where(and(eq(localProviderCharges.id, providerChargeId), eq(localProviderCharges.clinicId, account.clinicId)))
      .limit(1);
    return row ?? null;
  }

  return {
    name: 'local',
    async ensureCustomer(_account, customer) {
      return `loc_cus_${customer.externalReference}`;
    },
    async createSubscription(account, input) {
      // Our subscription id in theirs: a retried checkout names the same subscription.
      const id = `loc_sub_${input.externalReference}`;
      const charge = await firstCharge(account, input, id);
      await recordLocalCharge(db, account.clinicId, charge, now());
      return { id, firstCharge: charge };
    },
    async cancelSubscription(account, providerSubscriptionId) {
      // As Asaas deletes a removed subscription's open charges.
      await db
        .update(localProviderCharges)
        .set({ status: 'DELETED', updatedAt: now() })
        .where(and(eq(localProviderCharges.subscriptionId, providerSubscriptionId), eq(localProviderCharges.clinicId, account.clinicId), inArray(localProviderCharges.status, OPEN_AT_PROVIDER)));
    },
    async updateSubscriptionMethod(_account, _subscriptionId, method: PaymentMethod, creditCard) {
      if (method === 'credit_card') checkTestCard(requireCard(creditCard), now());
    },
    // Its renewals are made from the subscription's own amount (local-renewals.ts): nothing to keep here.
    async updateSubscriptionAmount() {},
    async refundCharge(account, providerChargeId, amountCents) {
      const row = await ownCharge(account, providerChargeId);
      if (!row) throw new AppError('PAYMENT_REJECTED', messages.paymentProviders.chargeUnknown);
      await db
        .update(localProviderCharges)
        .set({ status: 'REFUNDED', refundedCents: amountCents ?? row.amountCents, updatedAt: now() })
        .where(eq(localProviderCharges.id, row.id));
    },
    async createCharge(account, input) {
      const charge = await newCharge(account, input, null);
      await recordLocalCharge(db, account.clinicId, charge, now());
      return charge;
    },
    async deleteCharge(account, providerChargeId) {
      await db
        .update(localProviderCharges)
        .set({ status: 'DELETED', updatedAt: now() })
        .where(and(eq(localProviderCharges.id, providerChargeId), eq(localProviderCharges.clinicId, account.clinicId), inArray(localProviderCharges.status, OPEN_AT_PROVIDER)));
    },
    async getCharge(account, providerChargeId) {
      const row = await ownCharge(account, providerChargeId);
      return row ? chargeOfRow(row) : null;
    },
    async listRecentCharges() {
      return [];
    },
    async payerPaid(account, providerChargeId) {
      const row = await ownCharge(account, providerChargeId);
      if (!row) return null;
      if (!OPEN_AT_PROVIDER.includes(row.status) && row.status !== 'DELETED') return chargeOfRow(row);
      // A deleted charge's QR or boleto can still be paid (the bank does not know): the provider takes the money.
      const status = row.method === 'credit_card' ? 'CONFIRMED' : 'RECEIVED';
      const [paid] = await db.update(localProviderCharges).set({ status, paidAt: now(), updatedAt: now() }).where(eq(localProviderCharges.id, row.id)).returning();
      return paid ? chargeOfRow(paid) : null;
    },
  };
}
