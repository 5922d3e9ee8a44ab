import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mySubscriptionResponseSchema } from '@carteirinha/shared/contracts/subscriptions';
import { messages } from '@carteirinha/shared/messages';
import { payments } from '../../db/schema.ts';
import { startAsaasDouble, type AsaasDouble } from '../../../test/asaas-double.ts';
import { createTestApp, PUBLIC_URL, settleWork, TEST_AUTH_SECRET, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, createPatient, createProgramme, newKey, subscribeAtAsaasDouble, subscriptionRowOf, type Patient, type Programme } from '../../../test/checkout-kit.ts';
import { createLocalRenewals } from '../payments/local-renewals.ts';
import { createClinicAsaasKeyBox } from '../payments/providers/index.ts';
import { WEBHOOK_PATH, WEBHOOK_TOKEN_HEADER } from '../payments/webhook-routes.ts';

/** 24/11/2026 10:00 in São Paulo: a checkout then is paid through 24/12. */
const START = new Date('2026-11-24T13:00:00Z');
let clock = START;
let asaas: AsaasDouble;
let t: TestApp;
let programme: Programme;

beforeAll(async () => {
  asaas = await startAsaasDouble({ now: () => clock });
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000', ASAAS_BASE_URL: asaas.baseUrl, ASAAS_API_KEY: asaas.apiKey }, { now: () => clock });
  programme = await createProgramme(t, 'Clínica da Renovação');
});
afterAll(async () => {
  await t.close();
  await asaas.close();
});

function put(cookie: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'PUT', url: '/api/patient/subscription/auto-renewal', headers: { cookie, origin: PUBLIC_URL }, payload });
}

async function autoRenewalOf(cookie: string) {
  const response = await t.app.inject({ method: 'GET', url: '/api/patient/subscription', headers: { cookie } });
  return mySubscriptionResponseSchema.parse(response.json()).subscription?.autoRenewal;
}

/** A patient who checked out by Pix on START (the embedded provider) and paid. */
async function paidPatient(): Promise<Patient & { subscriptionId: string }> {
  clock = START;
  const patient = await createPatient(t, programme);
  const response = await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey());
  expect(response.statusCode).toBe(201);
  await t.app.background.settled();
  expect((await callAs(t, patient.cookie)('POST', `/api/patient/payments/${response.json().payment.id}/simulate`)).statusCode).toBe(200);
  await settleWork(t);
  return { ...patient, subscriptionId: response.json().subscription.id };
}

describe('PUT /api/patient/subscription/auto-renewal', () => {
  it('off within the 7 days ends the plan at the paid date with no refund; on again renews it, and the next charge is made', async () => {
    const patient = await paidPatient();
    expect(await autoRenewalOf(patient.cookie)).toBe('on');
    clock = new Date('2026-11-26T13:00:00Z');
    const off = await put(patient.cookie, { enabled: false });
    expect(off.statusCode).toBe(200);
    // Not a withdrawal: still active, benefits to the date paid for, nothing given back.
    expect(await subscriptionRowOf(t, patient.subscriptionId)).toMatchObject({ status: 'active', cancelReason: 'patient', expiresAt: new Date('2026-12-24T03:00:00Z') });
    await settleWork(t);
    const refunded = await t.db.select().from(payments).where(eq(payments.subscriptionId, patient.subscriptionId));
    expect(refunded.map((charge) => charge.status)).toEqual(['received']);
    expect(await autoRenewalOf(patient.cookie)).toBe('off');
    // Twice off is refused in pt-BR.
    expect((await put(patient.cookie, { enabled: false })).json().error.message).toBe(messages.autoRenewal.cannotTurnOff);

    const keyBox = createClinicAsaasKeyBox(TEST_AUTH_SECRET);
    const renewals = { keyBox, pixKey: undefined, log: { info: () => undefined, warn: () => undefined, error: () => undefined } };
    clock = new Date('2026-12-16T13:00:00Z');
    // While off, the embedded provider makes no renewal.
    expect(await createLocalRenewals(t.db, renewals, clock)).toBe(0);
    const on = await put(patient.cookie, { enabled: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ autoRenewal: 'on' });
    expect(await autoRenewalOf(patient.cookie)).toBe('on');
    await createLocalRenewals(t.db, renewals, clock);
    const charges = await t.db.select().from(payments).where(eq(payments.subscriptionId, patient.subscriptionId));
    expect(charges.find((charge) => charge.periodStart === '2026-12-24')).toMatchObject({ status: 'pending', amountCents: 9990 });
  });

  it('cannot be turned back on after the paid date, nor after a withdrawal, nor by a patient with nothing paid', async () => {
    const late = await paidPatient();
    expect((await put(late.cookie, { enabled: false })).statusCode).toBe(200);
    clock = new Date('2026-12-25T13:00:00Z');
    const refused = await put(late.cookie, { enabled: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(messages.autoRenewal.cannotTurnOn);

    const withdrawn = await paidPatient();
    expect((await callAs(t, withdrawn.cookie)('POST', '/api/patient/subscription/cancel', {}, newKey())).statusCode).toBe(200);
    expect(await autoRenewalOf(withdrawn.cookie)).toBe('fixed');
    expect((await put(withdrawn.cookie, { enabled: true })).statusCode).toBe(409);

    const unpaid = await createPatient(t, programme);
    expect((await put(unpaid.cookie, { enabled: false })).statusCode).toBe(409);
    expect((await put(unpaid.cookie, { enabled: 'sim' })).statusCode).toBe(400);
  });

  it('Asaas double: off stops the recurring subscription there; on makes a new one due at the paid date, which a late stop of the old one leaves alone', async () => {
    clock = START;
    const { patient, paymentId, subscriptionId, providerSubscriptionId } = await subscribeAtAsaasDouble(t, asaas, programme, { at: START });
    const providerPaymentId = (await t.db.select({ id: payments.providerPaymentId }).from(payments).where(eq(payments.id, paymentId)))[0]?.id ?? '';
    asaas.settle(providerPaymentId, 'RECEIVED');
    const paid = { id: `evt_paid_${paymentId}`, event: 'PAYMENT_RECEIVED', payment: asaas.payments.get(providerPaymentId) };
    expect((await t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { [WEBHOOK_TOKEN_HEADER]: t.config.payments.webhookToken }, payload: paid })).statusCode).toBe(200);
    await settleWork(t);
    expect((await subscriptionRowOf(t, subscriptionId)).status).toBe('active');

    clock = new Date('2026-12-10T13:00:00Z');
    expect((await put(patient.cookie, { enabled: false })).statusCode).toBe(200);
    const on = await put(patient.cookie, { enabled: true });
    expect(on.statusCode).toBe(200);
    const [created] = asaas.requestsTo('POST', '/subscriptions').filter((request) => request.body.includes(subscriptionId));
    expect(created?.json).toMatchObject({ billingType: 'PIX', value: 99.9, nextDueDate: '2026-12-24', cycle: 'MONTHLY' });
    const row = await subscriptionRowOf(t, subscriptionId);
    expect(row.canceledAt).toBeNull();
    expect(row.providerSubscriptionId).not.toBe(providerSubscriptionId);
    // The stop of the old one runs now: the new one is left alone.
    await settleWork(t);
    expect(asaas.subscriptions.get(providerSubscriptionId)?.deleted).toBe(true);
    expect(asaas.subscriptions.get(row.providerSubscriptionId ?? '')?.deleted).toBe(false);
    const next = await t.db.select().from(payments).where(eq(payments.subscriptionId, subscriptionId));
    expect(next.find((charge) => charge.periodStart === '2026-12-24')).toMatchObject({ status: 'pending', provider: 'asaas' });
  });
});
