import { getBoletoInfo, getPixPayloadInfo, isValidBoleto, isValidPixKey, isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { AppError } from '../../../lib/app-error.ts';
import { createClinic, createTestDatabase } from '../../../../test/helpers.ts';
import { createPaymentProviders } from './index.ts';
import { createLocalProvider, demoPixKeyOf, type LocalProvider } from './local.ts';
import type { CreateProviderSubscriptionInput, MerchantAccount } from './provider.ts';

const NOW = new Date('2026-11-24T12:00:00Z');
const subscriptionId = '0b8f6a52-3a1e-4c1d-9f7e-5d2c4b6a8e90';
let database: DatabaseHandle;
let account: MerchantAccount;
let otherClinic: MerchantAccount;
let provider: LocalProvider;

beforeAll(async () => {
  database = await createTestDatabase();
  account = { clinicId: (await createClinic(database.db, 'Clínica Saúde & Vida')).clinicId, apiKey: null, merchantName: 'Clínica Saúde & Vida', merchantCity: 'São Paulo' };
  otherClinic = { ...account, clinicId: (await createClinic(database.db, 'Outra Clínica')).clinicId };
  provider = createLocalProvider({ db: database.db, now: () => NOW });
});
afterAll(async () => database.close());

function input(changes: Partial<CreateProviderSubscriptionInput> = {}): CreateProviderSubscriptionInput {
  return {
    customerId: 'loc_cus_x',
    method: 'pix',
    amountCents: 4990,
    firstChargeExtraCents: 1000,
    cycle: 'monthly',
    firstDueDate: '2026-11-24',
    description: 'Plano Família',
    externalReference: subscriptionId,
    remoteIp: '203.0.113.7',
    platformFeePercent: 10,
    ...changes,
  };
}

const card = { holderName: 'Maria da Silva', number: '4242 4242 4242 4242', expiryMonth: '12', expiryYear: '2030', ccv: '123', postalCode: '01310100', addressNumber: '100' };

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => null, (reason: unknown) => reason);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('the local provider', () => {
  it('makes a real Pix BR Code: valid CRC, the amount with the adhesion fee, the clinic as merchant, a txid', async () => {
    const { id, firstCharge } = await provider.createSubscription(account, input());
    expect(id).toBe(`loc_sub_${subscriptionId}`);
    expect(firstCharge.id).toMatch(/^loc_pay_[0-9a-f-]{36}$/);
    expect(firstCharge).toMatchObject({ status: 'PENDING', method: 'pix', amountCents: 5990, dueDate: '2026-11-24', subscriptionId: id, externalReference: subscriptionId });
    const payload = firstCharge.pixPayload ?? '';
    expect(isValidPixPayload(payload)).toBe(true);
    const info = getPixPayloadInfo(payload);
    expect(info).toMatchObject({ amount: 59.9, merchantName: 'Clinica Saude & Vida', merchantCity: 'Sao Paulo', key: demoPixKeyOf(account.clinicId) });
    expect(info?.txid).toMatch(/^[0-9a-f]{25}$/);
    // A corrupted copy-and-paste text (one digit of the amount changed) fails the CRC.
    expect(isValidPixPayload(payload.replace('59.90', '59.91'))).toBe(false);
    expect(isValidPixPayload(`${payload.slice(0, -1)}${payload.endsWith('0') ? '1' : '0'}`)).toBe(false);
  });

  it('draws the QR as a PNG and uses PIX_KEY when one is configured', async () => {
    const withKey = createLocalProvider({ db: database.db, pixKey: 'financeiro@clinica.com.br', now: () => NOW });
    const { firstCharge } = await withKey.createSubscription(account, input({ firstChargeExtraCents: 0 }));
    const png = Buffer.from(firstCharge.pixQrCodePng ?? '', 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(getPixPayloadInfo(firstCharge.pixPayload ?? '')).toMatchObject({ key: 'financeiro@clinica.com.br', amount: 49.9 });
  });

  it('gives each clinic a stable demo key that is a valid random Pix key', () => {
    expect(demoPixKeyOf(account.clinicId)).toBe(demoPixKeyOf(account.clinicId));
    expect(demoPixKeyOf(account.clinicId)).not.toBe(demoPixKeyOf(subscriptionId));
    expect(isValidPixKey(demoPixKeyOf(account.clinicId))).toBe(true);
  });

  it('prints a boleto line that a boleto validator accepts, with the amount and the due date, and no URL', async () => {
    const { firstCharge } = await provider.createSubscription(account, input({ method: 'boleto', firstDueDate: '2026-11-29' }));
    const line = firstCharge.boletoDigitableLine ?? '';
    expect(line).toMatch(/^\d{47}$/);
    expect(isValidBoleto(line)).toBe(true);
    const info = getBoletoInfo(line, { referenceDate: NOW });
    expect(info?.amount).toBe(5990);
    expect(info?.expirationDate?.getFullYear()).toBe(2026);
    expect(info?.expirationDate?.getMonth()).toBe(10);
    expect(info?.expirationDate?.getDate()).toBe(29);
    expect(firstCharge.boletoUrl).toBeNull();
    expect(firstCharge.pixPayload).toBeNull();
    expect(isValidBoleto(`${line.slice(0, 40)}${line.charAt(40) === '9' ? '8' : '9'}${line.slice(41)}`)).toBe(false);
  });

  it('approves a good test card at once and keeps only its brand and last digits', async () => {
    const { firstCharge } = await provider.createSubscription(account, input({ method: 'credit_card', creditCard: card }));
    expect(firstCharge).toMatchObject({ status: 'CONFIRMED', paidAt: NOW, cardSummary: 'Visa •••• 4242', amountCents: 5990 });
    expect(JSON.stringify(firstCharge)).not.toContain('424242424242');
    const mastercard = await provider.createSubscription(account, input({ method: 'credit_card', creditCard: { ...card, number: '5555555555554444' } }));
    expect(mastercard.firstCharge.cardSummary).toBe('Mastercard •••• 4444');
  });

  it('declines the test card ending in 0002 and refuses bad numbers, past dates and CVVs in pt-BR', async () => {
    const declined = await rejection(provider.createSubscription(account, input({ method: 'credit_card', creditCard: { ...card, number: '4000000000000002' } })));
    expect(declined.code).toBe('PAYMENT_REJECTED');
    expect(declined.statusCode).toBe(422);
    expect(declined.message).toBe('O provedor de pagamento recusou a operação: Transação não autorizada pela operadora do cartão.');
    const luhn = await rejection(provider.createSubscription(account, input({ method: 'credit_card', creditCard: { ...card, number: '4242424242424241' } })));
    expect(luhn.message).toContain('Número do cartão inválido.');
    const expired = await rejection(provider.createSubscription(account, input({ method: 'credit_card', creditCard: { ...card, expiryMonth: '10', expiryYear: '26' } })));
    expect(expired.message).toContain('Cartão vencido');
    const ccv = await rejection(provider.createSubscription(account, input({ method: 'credit_card', creditCard: { ...card, ccv: '12' } })));
    expect(ccv.message).toContain('CVV');
    const missing = await rejection(provider.createSubscription(account, input({ method: 'credit_card' })));
    expect(missing.code).toBe('VALIDATION');
    // The card expiring this very month is still good.
    await expect(provider.updateSubscriptionMethod(account, 'loc_sub_x', 'credit_card', { ...card, expiryMonth: '11', expiryYear: '2026' })).resolves.toBeUndefined();
  });

  it('keeps its own record: answers the read-back of what it made and what the payer paid, to that clinic only', async () => {
    await expect(provider.ensureCustomer(account, { name: 'Maria', email: 'maria@teste.dev', cpfCnpj: '52998224725', externalReference: 'u1' })).resolves.toBe('loc_cus_u1');
    const { id, firstCharge } = await provider.createSubscription(account, input({ externalReference: '5c1f0e7a-2d3b-4c5d-8e9f-0a1b2c3d4e5f' }));
    await expect(provider.getCharge(account, firstCharge.id)).resolves.toMatchObject({ id: firstCharge.id, subscriptionId: id, status: 'PENDING', amountCents: 5990, paidAt: null });
    // Another clinic's key does not open this clinic's charges; an unknown charge is unknown.
    await expect(provider.getCharge(otherClinic, firstCharge.id)).resolves.toBeNull();
    await expect(provider.getCharge(account, 'loc_pay_x')).resolves.toBeNull();
    await expect(provider.payerPaid(otherClinic, firstCharge.id)).resolves.toBeNull();

    await expect(provider.payerPaid(account, firstCharge.id)).resolves.toMatchObject({ status: 'RECEIVED', paidAt: NOW });
    await expect(provider.getCharge(account, firstCharge.id)).resolves.toMatchObject({ status: 'RECEIVED', amountCents: 5990 });
    await provider.refundCharge(account, firstCharge.id, 1000);
    await expect(provider.getCharge(account, firstCharge.id)).resolves.toMatchObject({ status: 'REFUNDED' });
    await expect(provider.refundCharge(account, 'loc_pay_x')).rejects.toMatchObject({ code: 'PAYMENT_REJECTED' });

    // Cancelling the subscription deletes its open charges, as Asaas does; a card charge is captured at once.
    const boleto = await provider.createSubscription(account, input({ method: 'boleto', externalReference: '6d2a1f8b-3e4c-4d6e-9f0a-1b2c3d4e5f60' }));
    await provider.cancelSubscription(account, boleto.id);
    await expect(provider.getCharge(account, boleto.firstCharge.id)).resolves.toMatchObject({ status: 'DELETED' });
    const carded = await provider.createSubscription(account, input({ method: 'credit_card', creditCard: card, externalReference: '7e3b2a9c-4f5d-4e7f-8a1b-2c3d4e5f6071' }));
    await expect(provider.getCharge(account, carded.firstCharge.id)).resolves.toMatchObject({ status: 'CONFIRMED', paidAt: NOW });
    await expect(provider.listRecentCharges(account, NOW)).resolves.toEqual([]);
    await expect(provider.updateSubscriptionMethod(account, 'loc_sub_x', 'pix')).resolves.toBeUndefined();
  });
});

describe('createPaymentProviders', () => {
  it('makes new subscriptions with the configured provider and keeps both for existing rows', () => {
    const local = createPaymentProviders(loadConfig({}).payments, { db: database.db });
    expect(local.default.name).toBe('local');
    expect(local.byName('asaas').name).toBe('asaas');
    expect(local.byName('local')).toBe(local.default);
    expect(local.local).toBe(local.default);

    const config = loadConfig({ PAYMENT_PROVIDER: 'asaas', ASAAS_WEBHOOK_TOKEN: 'token-do-webhook-com-tamanho' }).payments;
    const asaas = createPaymentProviders(config, { db: database.db });
    expect(asaas.default.name).toBe('asaas');
    expect(asaas.byName('local').name).toBe('local');
    expect(asaas.webhookToken).toBe('token-do-webhook-com-tamanho');
  });
});
