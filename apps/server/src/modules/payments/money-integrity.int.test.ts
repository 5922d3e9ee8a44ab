/**
 * Issue 22: money a clinic can trust. A settlement is believed only as the provider itself reports it (read back with
 * the clinic's own key), a short payment is held, a charge refunded before it was paid buys nothing, an event that
 * fails for good alerts the platform admin, and a clinic's own Asaas account posts to its own URL with its own token.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdminDashboard } from '@carteirinha/shared/contracts/dashboard';
import { auditLog, clinicSettings, jobs, payments, webhookEvents } from '../../db/schema.ts';
import { saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { startAsaasDouble, type AsaasDouble } from '../../../test/asaas-double.ts';
import { createSignedInUser, createTestApp, PUBLIC_URL, settleWork, type TestApp } from '../../../test/helpers.ts';
import { asaasEnvelopeOf, callAs, checkoutBody, createPatient, createProgramme, newKey, paymentRowOf, subscribeAtAsaasDouble, subscriptionRowOf, type Programme } from '../../../test/checkout-kit.ts';
import { WEBHOOK_EVENT_QUEUE } from './webhook-events.ts';
import { clinicWebhookPath, WEBHOOK_PATH, WEBHOOK_TOKEN_HEADER } from './webhook-routes.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const START = new Date('2026-11-24T13:00:00Z');
let clock = START;
let asaas: AsaasDouble;
let t: TestApp;
let programme: Programme;
let other: Programme;
let adminCookie: string;

beforeAll(async () => {
  asaas = await startAsaasDouble({ now: () => clock });
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000', ASAAS_BASE_URL: asaas.baseUrl, ASAAS_API_KEY: asaas.apiKey }, { now: () => clock });
  programme = await createProgramme(t, 'Clínica do Dinheiro Certo');
  other = await createProgramme(t, 'Clínica Vizinha');
  adminCookie = (await createSignedInUser(t, 'admin')).cookie;
});
afterEach(() => {
  clock = START;
});
afterAll(async () => {
  await t.close();
  await asaas.close();
});

function post(url: string, body: Record<string, unknown>, token: string | null = t.config.payments.webhookToken) {
  return t.app.inject({ method: 'POST', url, headers: token === null ? {} : { [WEBHOOK_TOKEN_HEADER]: token }, payload: body });
}

/** Asaas posts an event about one of its charges as the double holds it now. */
async function deliverFromAsaas(event: string, providerPaymentId: string, url = WEBHOOK_PATH, token?: string): Promise<void> {
  const response = await post(url, { id: `evt_${randomUUID()}`, event, payment: asaas.payments.get(providerPaymentId) }, token);
  expect(response.statusCode).toBe(200);
  await settleWork(t);
}

async function audits(action: string, entityId: string) {
  return t.db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)));
}

async function dashboardAlerts(): Promise<AdminDashboard['alerts']> {
  const response = await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: { cookie: adminCookie } });
  expect(response.statusCode).toBe(200);
  return response.json<AdminDashboard>().alerts;
}

describe('a settlement is believed only as the provider reports it', () => {
  it('holds a short payment (R$ 0,01 received for R$ 99,90): nothing extended, audited, an alert for the platform admin; the full amount then settles one cycle', async () => {
    const subscribed = await subscribeAtAsaasDouble(t, asaas, programme, { at: clock });
    const atAsaas = asaas.payments.get(subscribed.providerPaymentId);
    if (!atAsaas) throw new Error('no charge at the double');
    atAsaas.value = 0.01;
    asaas.settle(subscribed.providerPaymentId, 'RECEIVED');
    await deliverFromAsaas('PAYMENT_RECEIVED', subscribed.providerPaymentId);

    const held = await paymentRowOf(t, subscribed.paymentId);
    expect(held).toMatchObject({ status: 'pending', receivedCents: 1, paidAt: null });
    expect(held.heldAt?.toISOString()).toBe(clock.toISOString());
    expect(await subscriptionRowOf(t, subscribed.subscriptionId)).toMatchObject({ status: 'pending', expiresAt: null, startedAt: null });
    const [mismatch] = await audits('payment.amount_mismatch', subscribed.paymentId);
    expect(mismatch?.details).toMatchObject({ expectedCents: 9990, receivedCents: 1 });
    expect(await dashboardAlerts()).toContainEqual({ kind: 'payment_held', clinicId: programme.clinicId, clinicName: 'Clínica do Dinheiro Certo', date: clock.toISOString() });

    // The provider's record is put right (the payer paid the rest): the charge settles, once, for one cycle.
    atAsaas.value = 99.9;
    await deliverFromAsaas('PAYMENT_RECEIVED', subscribed.providerPaymentId);
    expect(await paymentRowOf(t, subscribed.paymentId)).toMatchObject({ status: 'received', receivedCents: 9990, heldAt: null });
    expect((await subscriptionRowOf(t, subscribed.subscriptionId)).expiresAt?.toISOString()).toBe(saoPauloMidnight('2026-12-24').toISOString());
    expect((await dashboardAlerts()).filter((alert) => alert.kind === 'payment_held' && alert.clinicId === programme.clinicId)).toEqual([]);
  });

  it('settles nothing when the provider does not report the charge paid, whatever the event says', async () => {
    const subscribed = await subscribeAtAsaasDouble(t, asaas, programme, { at: clock });
    // A RECEIVED event (a forged body, with the right token) about a charge Asaas still has as PENDING.
    const forged = { ...asaas.payments.get(subscribed.providerPaymentId), status: 'RECEIVED', paymentDate: '2026-11-24' };
    const response = await post(WEBHOOK_PATH, { id: `evt_${randomUUID()}`, event: 'PAYMENT_RECEIVED', payment: forged });
    expect(response.statusCode).toBe(200);
    await settleWork(t);
    expect((await paymentRowOf(t, subscribed.paymentId)).status).toBe('pending');
    expect((await subscriptionRowOf(t, subscribed.subscriptionId)).status).toBe('pending');
    const [refused] = await audits('payment.settlement_unconfirmed', subscribed.paymentId);
    expect(refused?.details).toMatchObject({ reason: 'status at the provider: PENDING' });
    const readBack = asaas.requestsTo('GET', `/payments/${subscribed.providerPaymentId}`);
    expect(readBack.length).toBeGreaterThan(0);
  });

  it('the embedded provider answers the same read-back: a payment the payer never made is not settled', async () => {
    const patient = await createPatient(t, programme);
    const created = (await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey())).json();
    const row = await paymentRowOf(t, created.payment.id);
    const subscription = await subscriptionRowOf(t, row.subscriptionId);
    const forged = {
      id: `evt_${randomUUID()}`,
      event: 'PAYMENT_RECEIVED',
      payment: { object: 'payment', id: row.providerPaymentId, subscription: subscription.providerSubscriptionId, status: 'RECEIVED', billingType: 'PIX', value: 99.9, dueDate: row.dueDate, paymentDate: '2026-11-24' },
    };
    expect((await post(WEBHOOK_PATH, forged)).statusCode).toBe(200);
    await settleWork(t);
    expect((await paymentRowOf(t, row.id)).status).toBe('pending');
    expect(await audits('payment.settlement_unconfirmed', row.id)).toHaveLength(1);

    // 'Simular pagamento': the payer pays at the provider first, then the same kind of event settles it.
    const simulated = await callAs(t, patient.cookie)('POST', `/api/patient/payments/${row.id}/simulate`);
    expect(simulated.statusCode).toBe(200);
    expect(simulated.json()).toMatchObject({ status: 'received' });
  });
});

describe('periods start at the paid-through date', () => {
  it('a charge refunded before it was paid never counts: the next payment extends one cycle, not two', async () => {
    const subscribed = await subscribeAtAsaasDouble(t, asaas, programme, { at: clock });
    asaas.settle(subscribed.providerPaymentId, 'RECEIVED');
    await deliverFromAsaas('PAYMENT_RECEIVED', subscribed.providerPaymentId);
    expect((await subscriptionRowOf(t, subscribed.subscriptionId)).expiresAt?.toISOString()).toBe(saoPauloMidnight('2026-12-24').toISOString());

    // Asaas makes the next cycle's charge, which is refunded (the clinic gave it back) before anyone paid it.
    const second = asaas.addPayment({ id: `pay_${randomUUID().slice(0, 8)}`, subscription: subscribed.providerSubscriptionId, value: 99.9, dueDate: '2026-12-24', billingType: 'PIX', status: 'PENDING' });
    await deliverFromAsaas('PAYMENT_CREATED', String(second.id));
    second.status = 'REFUNDED';
    await deliverFromAsaas('PAYMENT_REFUNDED', String(second.id));
    expect((await subscriptionRowOf(t, subscribed.subscriptionId)).expiresAt?.toISOString()).toBe(saoPauloMidnight('2026-12-24').toISOString());

    // A new charge for that same cycle, paid: the subscription is paid through one more cycle from 24/12.
    clock = new Date('2026-12-20T13:00:00Z');
    const third = asaas.addPayment({ id: `pay_${randomUUID().slice(0, 8)}`, subscription: subscribed.providerSubscriptionId, value: 99.9, dueDate: '2026-12-24', billingType: 'PIX', status: 'PENDING' });
    await deliverFromAsaas('PAYMENT_CREATED', String(third.id));
    asaas.settle(String(third.id), 'RECEIVED');
    await deliverFromAsaas('PAYMENT_RECEIVED', String(third.id));
    expect((await subscriptionRowOf(t, subscribed.subscriptionId)).expiresAt?.toISOString()).toBe(saoPauloMidnight('2027-01-24').toISOString());
    const [paid] = await t.db.select().from(payments).where(eq(payments.providerPaymentId, String(third.id)));
    expect(paid).toMatchObject({ status: 'received', periodStart: '2026-12-24', periodEnd: '2027-01-24' });
  });
});

describe('an event whose processing fails on its last attempt', () => {
  it('stays unprocessed, is audited and alerts the platform admin on the dashboard', async () => {
    const subscribed = await subscribeAtAsaasDouble(t, asaas, other, { at: clock });
    asaas.settle(subscribed.providerPaymentId, 'RECEIVED');
    // Asaas cannot be reached for the read-back, by the processing after the answer and by the job's last attempt.
    for (let attempt = 0; attempt < 2; attempt += 1) asaas.failNext({ status: 500, path: `/payments/${subscribed.providerPaymentId}` });
    const eventId = `evt_${randomUUID()}`;
    expect((await post(WEBHOOK_PATH, { id: eventId, event: 'PAYMENT_RECEIVED', payment: asaas.payments.get(subscribed.providerPaymentId) })).statusCode).toBe(200);
    await t.app.background.settled();
    await t.db.update(jobs).set({ maxAttempts: 1 }).where(and(eq(jobs.queue, WEBHOOK_EVENT_QUEUE), eq(jobs.singletonKey, `asaas:${eventId}`)));
    await t.app.jobs.drain();

    const [event] = await t.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, eventId));
    expect(event?.processedAt).toBeNull();
    expect(event?.failedAt?.toISOString()).toBe(clock.toISOString());
    const failures = await t.db.select().from(auditLog).where(eq(auditLog.action, 'payment.webhook_failed'));
    expect(failures.find((entry) => entry.details?.eventId === eventId)?.details).toMatchObject({ provider: 'asaas', event: 'PAYMENT_RECEIVED' });
    expect(await dashboardAlerts()).toContainEqual({ kind: 'webhook_failed', clinicId: other.clinicId, clinicName: 'Clínica Vizinha', date: clock.toISOString() });
    expect((await paymentRowOf(t, subscribed.paymentId)).status).toBe('pending');
  });
});

describe("a clinic's own Asaas account", () => {
  const url = (clinicId: string) => clinicWebhookPath(clinicId);
  let clinicToken = '';

  it('registers its own webhook URL and token at Asaas when the key is connected, and updates it on a reconnect', async () => {
    const clinicAdmin = await createSignedInUser(t, 'clinic_admin', programme.clinicId);
    const connect = () => t.app.inject({ method: 'PUT', url: '/api/clinic/billing-settings', headers: { cookie: clinicAdmin.cookie, origin: PUBLIC_URL }, payload: { graceDays: 5, asaasApiKey: asaas.apiKey } });
    expect((await connect()).statusCode).toBe(200);
    const [registered, ...more] = [...asaas.webhooks.values()];
    expect(more).toHaveLength(0);
    expect(registered).toMatchObject({ url: `${PUBLIC_URL}${url(programme.clinicId)}`, enabled: true, interrupted: false, sendType: 'SEQUENTIALLY' });
    expect(registered?.events).toEqual(expect.arrayContaining(['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED', 'PAYMENT_REFUNDED', 'SUBSCRIPTION_DELETED']));
    clinicToken = String(registered?.authToken);
    expect(clinicToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [settings] = await t.db.select().from(clinicSettings).where(eq(clinicSettings.clinicId, programme.clinicId));
    expect(settings).toMatchObject({ asaasWebhookId: registered?.id, asaasWebhookRegisteredAt: clock });
    expect(settings?.asaasWebhookTokenEncrypted).not.toContain(clinicToken);

    // Connecting again updates the same webhook with a new token: the old one stops working.
    expect((await connect()).statusCode).toBe(200);
    expect(asaas.webhooks.size).toBe(1);
    const renewed = String([...asaas.webhooks.values()][0]?.authToken);
    expect(renewed).not.toBe(clinicToken);
    expect((await post(url(programme.clinicId), { id: `evt_${randomUUID()}`, event: 'PAYMENT_BANK_SLIP_VIEWED' }, clinicToken)).statusCode).toBe(401);
    clinicToken = renewed;
  });

  it("takes the clinic's events at its URL with its token only, and refuses one about another clinic's charge", async () => {
    const own = await subscribeAtAsaasDouble(t, asaas, programme, { at: clock });
    const foreign = await subscribeAtAsaasDouble(t, asaas, other, { at: clock });
    const before = (await t.db.select().from(webhookEvents)).length;
    // No token, the shared token, another clinic's URL: 401 before the body is read, nothing stored.
    for (const [target, token] of [[url(programme.clinicId), null], [url(programme.clinicId), t.config.payments.webhookToken], [url(other.clinicId), clinicToken], [url(randomUUID()), clinicToken]] as const) {
      const response = await post(target, { id: `evt_${randomUUID()}`, event: 'PAYMENT_CREATED' }, token);
      expect(response.statusCode).toBe(401);
    }
    expect((await t.db.select().from(webhookEvents)).length).toBe(before);

    // The clinic's token cannot settle another clinic's charge (even one Asaas really reports paid).
    asaas.settle(foreign.providerPaymentId, 'RECEIVED');
    await deliverFromAsaas('PAYMENT_RECEIVED', foreign.providerPaymentId, url(programme.clinicId), clinicToken);
    expect((await paymentRowOf(t, foreign.paymentId)).status).toBe('pending');
    const refusals = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'payment.webhook_foreign_clinic'), eq(auditLog.clinicId, other.clinicId)));
    expect(refusals).toHaveLength(1);

    // Its own charge settles from its own URL.
    asaas.settle(own.providerPaymentId, 'RECEIVED');
    await deliverFromAsaas('PAYMENT_RECEIVED', own.providerPaymentId, url(programme.clinicId), clinicToken);
    expect((await subscriptionRowOf(t, own.subscriptionId)).status).toBe('active');
  });

  it("keeps taking the clinic's events on the shared URL during the transition, and refuses them after it", async () => {
    const during = await subscribeAtAsaasDouble(t, asaas, programme, { at: clock });
    asaas.settle(during.providerPaymentId, 'RECEIVED');
    await deliverFromAsaas('PAYMENT_RECEIVED', during.providerPaymentId);
    expect((await subscriptionRowOf(t, during.subscriptionId)).status).toBe('active');

    clock = new Date(START.getTime() + 31 * DAY_MS);
    const after = await subscribeAtAsaasDouble(t, asaas, programme, { at: clock, dueDate: '2026-12-25' });
    asaas.settle(after.providerPaymentId, 'RECEIVED');
    await deliverFromAsaas('PAYMENT_RECEIVED', after.providerPaymentId);
    expect((await subscriptionRowOf(t, after.subscriptionId)).status).toBe('pending');
    const retired = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'payment.webhook_shared_token_retired'), eq(auditLog.clinicId, programme.clinicId)));
    expect(retired).toHaveLength(1);
    // The clinic's own URL takes it.
    const redelivery = { ...(await asaasEnvelopeOf(t, { paymentId: after.paymentId, event: 'PAYMENT_RECEIVED', status: 'RECEIVED', paidAt: clock })), payment: asaas.payments.get(after.providerPaymentId) };
    expect((await post(url(programme.clinicId), redelivery, clinicToken)).statusCode).toBe(200);
    await settleWork(t);
    expect((await subscriptionRowOf(t, after.subscriptionId)).status).toBe('active');
  });
});
