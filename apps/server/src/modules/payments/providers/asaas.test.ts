import { isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { startAsaasDouble, type AsaasDouble } from '../../../../test/asaas-double.ts';
import { AppError } from '../../../lib/app-error.ts';
import { createAsaasProvider, type AsaasProviderOptions } from './asaas.ts';
import type { CreateProviderSubscriptionInput, MerchantAccount } from './provider.ts';

const WALLET = 'c0c1a1de-0000-4000-8000-000000000001';
const card = { holderName: 'Maria da Silva', number: '4242 4242 4242 4242', expiryMonth: '7', expiryYear: '30', ccv: '123', postalCode: '01310-100', addressNumber: '100' };

let asaas: AsaasDouble;
let logged: unknown[];
let clinic: MerchantAccount;
let referenceCounter = 0;

beforeAll(async () => {
  asaas = await startAsaasDouble();
  clinic = { clinicId: 'clinic-1', apiKey: asaas.apiKey, merchantName: 'Clínica A', merchantCity: 'São Paulo' };
});
afterAll(() => asaas.close());

function provider(changes: Partial<AsaasProviderOptions> = {}) {
  logged = [];
  return createAsaasProvider({
    baseUrl: asaas.baseUrl,
    platformWalletId: WALLET,
    log: { warn: (details, message) => logged.push({ details, message }) },
    ...changes,
  });
}

function nextReference(): string {
  referenceCounter += 1;
  return `00000000-0000-4000-8000-${String(referenceCounter).padStart(12, '0')}`;
}

async function subscriptionInput(changes: Partial<CreateProviderSubscriptionInput> = {}): Promise<CreateProviderSubscriptionInput> {
  const customerId = await provider().ensureCustomer(clinic, { name: 'Maria da Silva', email: 'maria@teste.dev', cpfCnpj: '529.982.247-25', phone: '(11) 98765-4321', externalReference: 'user-1' });
  return {
    customerId,
    method: 'pix',
    amountCents: 4990,
    firstChargeExtraCents: 1000,
    cycle: 'monthly',
    firstDueDate: '2026-11-24',
    description: 'Plano Família',
    externalReference: nextReference(),
    remoteIp: '203.0.113.7',
    platformFeePercent: 10,
    ...changes,
  };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => null, (reason: unknown) => reason);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('the Asaas client, against the local double', () => {
  it('sends the key and a User-Agent, a JSON body only on writes, and finds a customer by CPF before creating one', async () => {
    const before = asaas.requests.length;
    const client = provider();
    const customer = { name: 'João Souza', email: 'joao@teste.dev', cpfCnpj: '111.444.777-35', externalReference: 'user-2' };
    const id = await client.ensureCustomer(clinic, customer);
    expect(id).toMatch(/^cus_/);
    expect(await client.ensureCustomer(clinic, customer)).toBe(id);
    const mine = asaas.requests.slice(before);
    expect(mine.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /customers', 'POST /customers', 'GET /customers']);
    for (const request of mine) {
      expect(request.headers.access_token).toBe(asaas.apiKey);
      expect(request.headers['user-agent']).toMatch(/^Carteirinha\//);
    }
    const [lookup, create] = mine;
    expect(lookup?.query.get('cpfCnpj')).toBe('11144477735');
    expect(lookup?.body).toBe('');
    expect(lookup?.headers['content-type']).toBeUndefined();
    expect(create?.headers['content-type']).toBe('application/json');
    expect(create?.json).toEqual({ name: 'João Souza', cpfCnpj: '11144477735', email: 'joao@teste.dev', externalReference: 'user-2', notificationDisabled: true });
  });

  it('subscribes by Pix in reais, splits 10 % to the platform, adds the adhesion fee to the first charge, and returns the QR', async () => {
    const input = await subscriptionInput({ amountCents: 1999, firstChargeExtraCents: 1001 });
    const { id, firstCharge } = await provider().createSubscription(clinic, input);
    const [created] = asaas.requestsTo('POST', '/subscriptions').filter((request) => request.body.includes(input.externalReference));
    expect(created?.json).toEqual({
      customer: input.customerId,
      billingType: 'PIX',
      value: 19.99,
      nextDueDate: '2026-11-24',
      cycle: 'MONTHLY',
      description: 'Plano Família',
      externalReference: input.externalReference,
      splits: [{ walletId: WALLET, percentualValue: 10 }],
    });
    const [raise] = asaas.requestsTo('PUT', `/payments/${firstCharge.id}`);
    expect(raise?.json).toEqual({ value: 30 });
    expect(firstCharge).toMatchObject({ subscriptionId: id, status: 'PENDING', method: 'pix', amountCents: 3000, dueDate: '2026-11-24', externalReference: input.externalReference });
    expect(isValidPixPayload(firstCharge.pixPayload ?? '')).toBe(true);
    expect(Buffer.from(firstCharge.pixQrCodePng ?? '', 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('reuses the subscription a retried checkout already made: one subscription, one charge, the fee added once', async () => {
    const input = await subscriptionInput();
    const client = provider();
    const first = await client.createSubscription(clinic, input);
    const retry = await client.createSubscription(clinic, input);
    expect(retry.id).toBe(first.id);
    expect(retry.firstCharge.id).toBe(first.firstCharge.id);
    expect(retry.firstCharge.amountCents).toBe(5990);
    expect(asaas.requestsTo('POST', '/subscriptions').filter((request) => request.body.includes(input.externalReference))).toHaveLength(1);
    expect(asaas.requestsTo('PUT', `/payments/${first.firstCharge.id}`)).toHaveLength(1);
    expect(asaas.requestsTo('GET', '/subscriptions').some((request) => request.query.get('externalReference') === input.externalReference)).toBe(true);
  });

  it('does not split on the platform’s own key, nor without a platform wallet', async () => {
    const onPlatformKey = await provider({ platformApiKey: asaas.apiKey }).createSubscription({ ...clinic, apiKey: null }, await subscriptionInput({ firstChargeExtraCents: 0 }));
    const noWallet = await provider({ platformWalletId: undefined }).createSubscription(clinic, await subscriptionInput({ firstChargeExtraCents: 0 }));
    for (const { id } of [onPlatformKey, noWallet]) {
      expect(asaas.subscriptions.get(id)?.splits).toBeNull();
    }
  });

  it('gives a boleto its PDF link and the digitable line fetched after the fee changed the charge', async () => {
    const input = await subscriptionInput({ method: 'boleto', firstDueDate: '2026-11-29' });
    const before = asaas.requests.length;
    const { firstCharge } = await provider().createSubscription(clinic, input);
    expect(firstCharge.boletoUrl).toMatch(/^https:\/\/sandbox\.asaas\.com\/b\/pdf\//);
    expect(firstCharge.boletoDigitableLine).toBe('00190000090114971860168524522114675860000102656');
    const order = asaas.requests.slice(before).map((request) => `${request.method} ${request.path}`);
    expect(order.indexOf(`GET /payments/${firstCharge.id}/identificationField`)).toBeGreaterThan(order.indexOf(`PUT /payments/${firstCharge.id}`));
  });

  it('charges a card with the holder data and the payer’s IP, keeps only brand and last digits, and bills later cycles at the plan price', async () => {
    const input = await subscriptionInput({ method: 'credit_card', creditCard: card });
    const { id, firstCharge } = await provider().createSubscription(clinic, input);
    const [created] = asaas.requestsTo('POST', '/subscriptions').filter((request) => request.body.includes(input.externalReference));
    expect(created?.json).toMatchObject({
      billingType: 'CREDIT_CARD',
      value: 59.9,
      creditCard: { holderName: 'Maria da Silva', number: '4242424242424242', expiryMonth: '07', expiryYear: '2030', ccv: '123' },
      creditCardHolderInfo: { name: 'Maria da Silva', email: 'maria@teste.dev', cpfCnpj: '52998224725', postalCode: '01310100', addressNumber: '100', mobilePhone: '11987654321' },
      remoteIp: '203.0.113.7',
    });
    // Later cycles at the plan's price: the subscription, and the second charge Asaas already generated; not the first.
    expect(asaas.requestsTo('PUT', `/subscriptions/${id}`).map((request) => request.json)).toEqual([{ value: 49.9, updatePendingPayments: false }]);
    const charges = [...asaas.payments.values()].filter((payment) => payment.subscription === id);
    expect(charges.map((payment) => [payment.status, payment.value])).toEqual([
      ['CONFIRMED', 59.9],
      ['PENDING', 49.9],
    ]);
    expect(asaas.requestsTo('PUT', `/payments/${firstCharge.id}`)).toHaveLength(0);
    expect(firstCharge).toMatchObject({ status: 'CONFIRMED', method: 'credit_card', amountCents: 5990, cardSummary: 'Visa •••• 4242' });
    expect(firstCharge.paidAt).toBeInstanceOf(Date);
    expect(JSON.stringify(firstCharge)).not.toContain('4242424242424242');
  });

  it('turns a declined card into a pt-BR refusal with Asaas’s reason, and logs no card', async () => {
    const input = await subscriptionInput({ method: 'credit_card', creditCard: { ...card, number: '4000000000000002' } });
    const error = await rejection(provider().createSubscription(clinic, input));
    expect(error.code).toBe('PAYMENT_REJECTED');
    expect(error.statusCode).toBe(422);
    expect(error.message).toBe('O provedor de pagamento recusou a operação: Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.');
    expect(JSON.stringify(logged)).not.toContain('4000000000000002');
  });

  it('maps a refused key, a 5xx, a 400 with errors, a timeout and a dead host to pt-BR errors, never logging the key', async () => {
    // The short timeout only where a slow answer is the point: on a loaded machine a loopback answer can take 200 ms.
    const client = provider();
    const wrongKey = await rejection(client.getCharge({ ...clinic, apiKey: '$aact_wrong' }, 'pay_x'));
    expect(wrongKey).toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE', statusCode: 503 });
    expect(wrongKey.message).toContain('chave de API do Asaas foi recusada');

    asaas.failNext({ status: 500 });
    const serverError = await rejection(client.getCharge(clinic, 'pay_x'));
    expect(serverError.code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
    expect(serverError.message).toBe('O provedor de pagamento está indisponível no momento. Nada foi cobrado; tente novamente em instantes.');

    asaas.failNext({ status: 400, errors: [{ code: 'invalid_cpfCnpj', description: 'O CPF/CNPJ informado é inválido.' }] });
    const refused = await rejection(client.ensureCustomer(clinic, { name: 'Ana', email: 'ana@teste.dev', cpfCnpj: '123', externalReference: 'u' }));
    expect(refused).toMatchObject({ code: 'PAYMENT_REJECTED', message: 'O provedor de pagamento recusou a operação: O CPF/CNPJ informado é inválido.' });

    asaas.failNext({ delayMs: 1_000 });
    const slow = await rejection(provider({ timeoutMs: 200 }).getCharge(clinic, 'pay_x'));
    expect(slow.code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
    expect(logged).toContainEqual(expect.objectContaining({ details: expect.objectContaining({ reason: 'timeout' }) }));

    const dead = await rejection(provider({ baseUrl: 'http://127.0.0.1:9/v3' }).getCharge(clinic, 'pay_x'));
    expect(dead.code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');

    const noKey = await rejection(provider().getCharge({ ...clinic, apiKey: null }, 'pay_x'));
    expect(noKey.message).toBe('A clínica ainda não conectou uma conta de pagamento. Tente novamente mais tarde.');
    expect(JSON.stringify(logged)).not.toContain(asaas.apiKey);
  });

  it('cancels (twice is fine), changes the payment method, refunds and reads a charge', async () => {
    const client = provider();
    const { id, firstCharge } = await client.createSubscription(clinic, await subscriptionInput({ firstChargeExtraCents: 0 }));
    await client.updateSubscriptionMethod(clinic, id, 'credit_card', card, '198.51.100.4');
    const [newCard] = asaas.requestsTo('PUT', `/subscriptions/${id}/creditCard`);
    expect(newCard?.json).toMatchObject({ remoteIp: '198.51.100.4', creditCard: { number: '4242424242424242' }, creditCardHolderInfo: { cpfCnpj: '52998224725', email: 'maria@teste.dev' } });
    expect(asaas.requestsTo('PUT', `/subscriptions/${id}`).map((request) => request.json)).toEqual([{ billingType: 'CREDIT_CARD', updatePendingPayments: true }]);
    const declined = await rejection(client.updateSubscriptionMethod(clinic, id, 'credit_card', { ...card, number: '4000000000000002' }, '198.51.100.4'));
    expect(declined.code).toBe('PAYMENT_REJECTED');
    await client.updateSubscriptionMethod(clinic, id, 'boleto');
    expect(asaas.subscriptions.get(id)?.billingType).toBe('BOLETO');

    asaas.settle(firstCharge.id, 'RECEIVED');
    const paid = await client.getCharge(clinic, firstCharge.id);
    expect(paid).toMatchObject({ id: firstCharge.id, status: 'RECEIVED', amountCents: 4990, pixPayload: null });
    expect(paid?.paidAt).toBeInstanceOf(Date);
    await client.refundCharge(clinic, firstCharge.id);
    expect(asaas.requestsTo('POST', `/payments/${firstCharge.id}/refund`)).toHaveLength(1);
    expect((await client.getCharge(clinic, firstCharge.id))?.status).toBe('REFUNDED');
    expect(await client.getCharge(clinic, 'pay_does_not_exist')).toBeNull();

    await client.cancelSubscription(clinic, id);
    await client.cancelSubscription(clinic, id);
    expect(asaas.requestsTo('DELETE', `/subscriptions/${id}`)).toHaveLength(2);
    expect(asaas.subscriptions.get(id)?.deleted).toBe(true);
  });

  it('makes an upgrade’s one-off charge with POST /payments (split, reference), finds it again on a retry, and deletes it', async () => {
    const client = provider();
    const { customerId } = await subscriptionInput();
    const reference = nextReference();
    const input = { customerId, method: 'pix' as const, amountCents: 3333, dueDate: '2026-12-04', description: 'Troca de plano: Plano Família', externalReference: reference, remoteIp: '203.0.113.7', platformFeePercent: 10 };
    const charge = await client.createCharge(clinic, input);
    const [created] = asaas.requestsTo('POST', '/payments');
    expect(created?.json).toEqual({ customer: customerId, billingType: 'PIX', value: 33.33, dueDate: '2026-12-04', description: 'Troca de plano: Plano Família', externalReference: reference, splits: [{ walletId: WALLET, percentualValue: 10 }] });
    // No subscription at the provider: what the webhooks' read-back checks for an upgrade's charge.
    expect(charge).toMatchObject({ subscriptionId: null, status: 'PENDING', method: 'pix', amountCents: 3333, externalReference: reference });
    expect(isValidPixPayload(charge.pixPayload ?? '')).toBe(true);

    // A retried call (its answer lost) finds the same charge instead of making a second.
    expect((await client.createCharge(clinic, input)).id).toBe(charge.id);
    expect(asaas.requestsTo('POST', '/payments')).toHaveLength(1);

    await client.deleteCharge(clinic, charge.id);
    await client.deleteCharge(clinic, 'pay_does_not_exist');
    expect(asaas.requestsTo('DELETE', `/payments/${charge.id}`)).toHaveLength(1);

    const byCard = await client.createCharge(clinic, { ...input, method: 'credit_card', externalReference: nextReference(), creditCard: card });
    expect(byCard).toMatchObject({ status: 'CONFIRMED', method: 'credit_card', subscriptionId: null });
  });

  it('checks a key with GET /wallets/ and answers its wallet; a refused key is a 422, an unreachable Asaas a 503', async () => {
    const client = provider();
    expect(await client.accountWalletId(asaas.apiKey)).toBe(asaas.walletId);
    const [check] = asaas.requestsTo('GET', '/wallets/');
    expect(check?.headers.access_token).toBe(asaas.apiKey);
    expect(check?.body).toBe('');

    const refused = await rejection(client.accountWalletId('$aact_not_a_real_key_0000000000'));
    expect(refused).toMatchObject({ code: 'PAYMENT_REJECTED', statusCode: 422, message: messages.billingSettings.asaasKeyRefused });
    asaas.failNext({ status: 403, path: '/wallets' });
    expect(await rejection(client.accountWalletId(asaas.apiKey))).toMatchObject({ code: 'PAYMENT_REJECTED', message: messages.billingSettings.asaasKeyRefused });

    asaas.failNext({ status: 502, path: '/wallets' });
    expect(await rejection(client.accountWalletId(asaas.apiKey))).toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE', statusCode: 503, message: messages.billingSettings.asaasUnreachable });
    asaas.failNext({ delayMs: 1_000, path: '/wallets' });
    expect(await rejection(provider({ timeoutMs: 200 }).accountWalletId(asaas.apiKey))).toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE', message: messages.billingSettings.asaasUnreachable });
    const dead = await rejection(provider({ baseUrl: 'http://127.0.0.1:9/v3' }).accountWalletId(asaas.apiKey));
    expect(dead).toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE', message: messages.billingSettings.asaasUnreachable });
    expect(JSON.stringify(logged)).not.toContain(asaas.apiKey);
  });

  it('lists the recent charges page by page, created or paid since the day asked', async () => {
    const separate = await startAsaasDouble({ now: () => new Date('2026-11-24T15:00:00Z') });
    try {
      for (let index = 0; index < 130; index += 1) separate.addPayment({ id: `pay_new_${index}`, value: 10.1 });
      separate.addPayment({ id: 'pay_old_unpaid', dateCreated: '2026-10-01' });
      separate.addPayment({ id: 'pay_old_paid_now', dateCreated: '2026-10-01', status: 'RECEIVED', paymentDate: '2026-11-24' });
      const client = createAsaasProvider({ baseUrl: separate.baseUrl });
      const charges = await client.listRecentCharges({ ...clinic, apiKey: separate.apiKey }, new Date('2026-11-24T02:00:00Z'));
      const ids = charges.map((charge) => charge.id);
      expect(ids).toHaveLength(131);
      expect(ids).toContain('pay_old_paid_now');
      expect(ids).not.toContain('pay_old_unpaid');
      expect(charges.find((charge) => charge.id === 'pay_new_0')?.amountCents).toBe(1010);
      const pages = separate.requestsTo('GET', '/payments');
      // 02:00 UTC is still 23/11 in Brasília: the day Asaas filters by.
      expect(pages.map((request) => [request.query.get('dateCreated[ge]') ?? request.query.get('paymentDate[ge]'), request.query.get('offset')])).toEqual([
        ['2026-11-23', '0'],
        ['2026-11-23', '100'],
        ['2026-11-23', '0'],
      ]);
    } finally {
      await separate.close();
    }
  });
});
