/**
 * Follow-up at the provider (ADR 013): a refund that ends a subscription here cancels it at the provider, and a
 * charge paid after cancelling is refunded there — each by a durable job written in the ledger's transaction, on the
 * embedded provider and against the Asaas double.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, emailOutbox, jobs, payments, subscriptions, users } from '../../db/schema.ts';
import { startAsaasDouble, type AsaasDouble } from '../../../test/asaas-double.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { asaasEnvelopeOf, callAs, checkoutBody, createPatient, createProgramme, newKey, paymentRowOf, subscribeAtAsaasDouble, subscriptionRowOf, type Patient, type Programme } from '../../../test/checkout-kit.ts';
import { PROVIDER_WORK_QUEUE } from '../subscriptions/follow-ups.ts';
import { recordLocalCharge } from './providers/local.ts';
import { WEBHOOK_PATH, WEBHOOK_TOKEN_HEADER } from './webhook-routes.ts';

const MINUTE_MS = 60_000;
const START = new Date('2026-11-24T13:00:00Z');
let clock = START;
let asaas: AsaasDouble;
let t: TestApp;
let programme: Programme;

beforeAll(async () => {
  asaas = await startAsaasDouble({ now: () => clock });
  // New subscriptions go to the embedded provider; the Asaas rows below are made by hand against the double.
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000', ASAAS_BASE_URL: asaas.baseUrl, ASAAS_API_KEY: asaas.apiKey }, { now: () => clock });
  programme = await createProgramme(t, 'Clínica do Estorno');
});
afterEach(() => {
  vi.restoreAllMocks();
  clock = START;
});
afterAll(async () => {
  await t.close();
  await asaas.close();
});

const paymentRow = (id: string) => paymentRowOf(t, id);
const subscriptionRow = (id: string) => subscriptionRowOf(t, id);

/** An Asaas-shaped envelope about one of our charges. */
function envelope(paymentId: string, event: string, status: string): Promise<Record<string, unknown>> {
  return asaasEnvelopeOf(t, { paymentId, event, status, paidAt: clock });
}

async function deliver(body: Record<string, unknown>): Promise<void> {
  const response = await t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { [WEBHOOK_TOKEN_HEADER]: t.config.payments.webhookToken }, payload: body });
  expect(response.statusCode).toBe(200);
  await t.app.background.settled();
}

async function drain(): Promise<void> {
  await t.app.jobs.drain();
  await t.app.background.settled();
}

/** The provider job whose key starts with `key` (a cancellation's names the provider's subscription after it). */
async function workJob(key: string) {
  const [row] = await t.db.select().from(jobs).where(and(eq(jobs.queue, PROVIDER_WORK_QUEUE), like(jobs.singletonKey, `${key}%`)));
  return row ?? null;
}

async function audits(action: string, entityId: string) {
  return t.db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)));
}

async function mailsTo(userId: string, subject: string): Promise<number> {
  const [user] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const [row] = await t.db.select({ total: count() }).from(emailOutbox).where(and(eq(emailOutbox.to, user?.email ?? ''), eq(emailOutbox.subject, subject)));
  return row?.total ?? 0;
}

type Subscribed = { patient: Patient; paymentId: string; subscriptionId: string };

/** A Pix subscription made through checkout with the embedded provider (its first charge pending). */
async function subscribeLocally(): Promise<Subscribed> {
  const patient = await createPatient(t, programme);
  const response = await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey());
  expect(response.statusCode).toBe(201);
  const created = response.json();
  await t.app.background.settled();
  return { patient, paymentId: created.payment.id, subscriptionId: created.subscription.id };
}

/** A subscription billed through the Asaas double: the same rows checkout writes, and the double's own records. */
function subscribeAtAsaas(options: { atDouble?: boolean } = {}): Promise<Subscribed> {
  return subscribeAtAsaasDouble(t, asaas, programme, { at: clock, ...options });
}

describe('a refund that ends the subscription here cancels it at the provider', () => {
  it('embedded provider: PAYMENT_REFUNDED of the only paid charge ends it, and a job (not the webhook) cancels it at the provider, audited', async () => {
    const { paymentId, subscriptionId } = await subscribeLocally();
    const cancel = vi.spyOn(t.app.paymentProviders.byName('local'), 'cancelSubscription');
    await deliver(await envelope(paymentId, 'PAYMENT_RECEIVED', 'RECEIVED'));
    await deliver(await envelope(paymentId, 'PAYMENT_REFUNDED', 'REFUNDED'));

    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'canceled', cancelReason: 'refunded' });
    const [reversal] = await audits('payment.refunded', paymentId);
    expect(reversal?.details).toMatchObject({ to: 'canceled', cancelAtProvider: true });
    // Decided in the webhook's transaction, done later by the job: nothing was called while processing the event.
    expect(cancel).not.toHaveBeenCalled();
    expect((await workJob(`cancelSubscription:${subscriptionId}`))?.completedAt).toBeNull();

    await drain();
    const providerSubscriptionId = (await subscriptionRow(subscriptionId)).providerSubscriptionId;
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(cancel).toHaveBeenCalledWith(expect.objectContaining({ clinicId: programme.clinicId }), providerSubscriptionId);
    expect((await workJob(`cancelSubscription:${subscriptionId}`))?.completedAt).not.toBeNull();
    const [done] = await audits('subscription.provider_canceled', subscriptionId);
    expect(done?.details).toMatchObject({ provider: 'local', providerSubscriptionId });

    // The same refund delivered again under another event id: one job per subscription, no second cancellation.
    await deliver(await envelope(paymentId, 'PAYMENT_REFUNDED', 'REFUNDED'));
    await drain();
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('embedded provider: a chargeback only suspends (overdue; paying again restores it), so the provider keeps its subscription', async () => {
    const { paymentId, subscriptionId } = await subscribeLocally();
    await deliver(await envelope(paymentId, 'PAYMENT_RECEIVED', 'RECEIVED'));
    await deliver(await envelope(paymentId, 'PAYMENT_CHARGEBACK_REQUESTED', 'CHARGEBACK_REQUESTED'));
    expect((await subscriptionRow(subscriptionId)).status).toBe('overdue');
    expect(await workJob(`cancelSubscription:${subscriptionId}`)).toBeNull();
  });

  it('Asaas double: DELETE /subscriptions/{id} from the job, retried with back-off after a 5xx; the provider’s SUBSCRIPTION_DELETED then changes nothing', async () => {
    const { paymentId, subscriptionId } = await subscribeAtAsaas();
    const { providerSubscriptionId, providerPaymentId } = { ...(await subscriptionRow(subscriptionId)), ...(await paymentRow(paymentId)) };
    asaas.settle(providerPaymentId, 'RECEIVED');
    await deliver({ id: `evt_${randomUUID()}`, event: 'PAYMENT_RECEIVED', payment: asaas.payments.get(providerPaymentId) });
    expect((await subscriptionRow(subscriptionId)).status).toBe('active');
    await deliver({ id: `evt_${randomUUID()}`, event: 'PAYMENT_REFUNDED', payment: { ...asaas.payments.get(providerPaymentId), status: 'REFUNDED' } });
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'canceled', cancelReason: 'refunded' });
    const path = `/subscriptions/${providerSubscriptionId}`;
    expect(asaas.requestsTo('DELETE', path)).toHaveLength(0);

    asaas.failNext({ status: 503, path });
    await drain();
    const retried = await workJob(`cancelSubscription:${subscriptionId}`);
    expect(retried).toMatchObject({ completedAt: null, failedAt: null, attempts: 1 });
    expect(retried?.lastError).toContain('indisponível');
    expect(asaas.subscriptions.get(providerSubscriptionId ?? '')?.deleted).toBe(false);
    expect(await audits('subscription.provider_canceled', subscriptionId)).toHaveLength(0);

    clock = new Date(START.getTime() + 2 * MINUTE_MS);
    await drain();
    expect(asaas.requestsTo('DELETE', path)).toHaveLength(2);
    expect(asaas.requestsTo('DELETE', path)[1]?.headers.access_token).toBe(asaas.apiKey);
    expect(asaas.subscriptions.get(providerSubscriptionId ?? '')?.deleted).toBe(true);
    expect((await workJob(`cancelSubscription:${subscriptionId}`))?.completedAt).not.toBeNull();
    expect(await audits('subscription.provider_canceled', subscriptionId)).toHaveLength(1);

    const before = await subscriptionRow(subscriptionId);
    await deliver({ id: `evt_${randomUUID()}`, event: 'SUBSCRIPTION_DELETED', subscription: { object: 'subscription', id: providerSubscriptionId, deleted: true } });
    expect(await subscriptionRow(subscriptionId)).toEqual(before);
  });

  it('Asaas double: a subscription Asaas no longer has (404: already cancelled there) counts as cancelled', async () => {
    const { paymentId, subscriptionId } = await subscribeAtAsaas({ atDouble: false });
    const { providerPaymentId, providerSubscriptionId } = { ...(await subscriptionRow(subscriptionId)), ...(await paymentRow(paymentId)) };
    asaas.settle(providerPaymentId, 'RECEIVED');
    await deliver({ id: `evt_${randomUUID()}`, event: 'PAYMENT_RECEIVED', payment: asaas.payments.get(providerPaymentId) });
    await deliver({ id: `evt_${randomUUID()}`, event: 'PAYMENT_REFUNDED', payment: { ...asaas.payments.get(providerPaymentId), status: 'REFUNDED' } });
    await drain();
    expect(asaas.requestsTo('DELETE', `/subscriptions/${providerSubscriptionId}`)).toHaveLength(1);
    expect((await workJob(`cancelSubscription:${subscriptionId}`))?.completedAt).not.toBeNull();
    expect(await audits('subscription.provider_canceled', subscriptionId)).toHaveLength(1);
  });

  it('Asaas double: after the last attempt fails, the job fails and the clinic is told through the audit trail', async () => {
    const { paymentId, subscriptionId } = await subscribeAtAsaas();
    const { providerPaymentId, providerSubscriptionId } = { ...(await subscriptionRow(subscriptionId)), ...(await paymentRow(paymentId)) };
    asaas.settle(providerPaymentId, 'RECEIVED');
    await deliver({ id: `evt_${randomUUID()}`, event: 'PAYMENT_RECEIVED', payment: asaas.payments.get(providerPaymentId) });
    await deliver({ id: `evt_${randomUUID()}`, event: 'PAYMENT_REFUNDED', payment: { ...asaas.payments.get(providerPaymentId), status: 'REFUNDED' } });
    // As if the earlier attempts had all failed: this is the last one.
    await t.db.update(jobs).set({ maxAttempts: 1 }).where(and(eq(jobs.queue, PROVIDER_WORK_QUEUE), like(jobs.singletonKey, `cancelSubscription:${subscriptionId}%`)));
    asaas.failNext({ status: 500, path: `/subscriptions/${providerSubscriptionId}` });
    await drain();
    expect((await workJob(`cancelSubscription:${subscriptionId}`))?.failedAt).not.toBeNull();
    const [failure] = await audits('subscription.provider_cancel_failed', subscriptionId);
    expect(failure?.details).toMatchObject({ provider: 'asaas', providerSubscriptionId, attempts: 1 });
    expect(await audits('subscription.provider_canceled', subscriptionId)).toHaveLength(0);
  });
});

describe('a charge paid after the subscription was cancelled is refunded automatically', () => {
  it('embedded provider: refunded by the job, recorded on the charge, audited, the patient e-mailed once; the subscription stays cancelled', async () => {
    const { patient, paymentId, subscriptionId } = await subscribeLocally();
    const cancelled = await callAs(t, patient.cookie)('POST', '/api/patient/subscription/cancel', {});
    expect(cancelled.statusCode).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe('canceled');
    const refund = vi.spyOn(t.app.paymentProviders.byName('local'), 'refundCharge');

    // The patient paid the QR anyway.
    await deliver(await envelope(paymentId, 'PAYMENT_RECEIVED', 'RECEIVED'));
    expect((await paymentRow(paymentId)).status).toBe('received');
    expect(await audits('payment.paid_after_cancellation', paymentId)).toHaveLength(1);
    expect(refund).not.toHaveBeenCalled();

    await drain();
    const providerPaymentId = (await paymentRow(paymentId)).providerPaymentId;
    expect(refund).toHaveBeenCalledTimes(1);
    // All of it (no amount): what was paid after cancelling comes back whole.
    expect(refund).toHaveBeenCalledWith(expect.objectContaining({ clinicId: programme.clinicId }), providerPaymentId, null);
    const payment = await paymentRow(paymentId);
    expect(payment.status).toBe('refunded');
    expect(payment.refundedAt?.toISOString()).toBe(clock.toISOString());
    const [recorded] = await audits('payment.refunded_after_cancellation', paymentId);
    expect(recorded?.details).toMatchObject({ provider: 'local', providerPaymentId, amountCents: payment.amountCents });
    expect(await mailsTo(patient.userId, messages.paymentNotices.refundedAfterCancellationSubject)).toBe(1);
    const subscription = await subscriptionRow(subscriptionId);
    expect(subscription).toMatchObject({ status: 'canceled', cancelReason: 'patient', expiresAt: null, startedAt: null });

    // The provider's PAYMENT_REFUNDED of that refund, and a rerun: nothing more, no second e-mail.
    await deliver(await envelope(paymentId, 'PAYMENT_REFUNDED', 'REFUNDED'));
    await drain();
    expect(refund).toHaveBeenCalledTimes(1);
    expect(await mailsTo(patient.userId, messages.paymentNotices.refundedAfterCancellationSubject)).toBe(1);
    expect(await subscriptionRow(subscriptionId)).toEqual(subscription);
  });

  it('embedded provider: when PAYMENT_REFUNDED arrives before the job, the benefits paid through are not cut and no second refund is asked', async () => {
    const { patient, paymentId, subscriptionId } = await subscribeLocally();
    await deliver(await envelope(paymentId, 'PAYMENT_RECEIVED', 'RECEIVED'));
    // Cancelled after the 7 days: it runs until the paid-through date, with canceled_at set.
    const paidThrough = (await subscriptionRow(subscriptionId)).expiresAt;
    await t.db.update(subscriptions).set({ canceledAt: clock, cancelReason: 'patient' }).where(eq(subscriptions.id, subscriptionId));
    const [renewal] = await t.db
      .insert(payments)
      .values({ clinicId: programme.clinicId, subscriptionId, provider: 'local', providerPaymentId: `loc_pay_${randomUUID()}`, method: 'pix', amountCents: 9990, dueDate: '2026-12-24', status: 'canceled', periodStart: '2026-12-24', periodEnd: '2027-01-24', createdAt: clock })
      .returning();
    if (!renewal) throw new Error('no renewal');
    // The embedded provider made that renewal (its own record has it), and then the payer paid it.
    const { providerSubscriptionId } = await subscriptionRow(subscriptionId);
    await recordLocalCharge(t.db, programme.clinicId, { id: renewal.providerPaymentId, subscriptionId: providerSubscriptionId, status: 'PENDING', method: 'pix', amountCents: 9990, dueDate: '2026-12-24', paidAt: null }, clock);
    const refund = vi.spyOn(t.app.paymentProviders.byName('local'), 'refundCharge');

    await deliver(await envelope(renewal.id, 'PAYMENT_RECEIVED', 'RECEIVED'));
    await deliver(await envelope(renewal.id, 'PAYMENT_REFUNDED', 'REFUNDED'));
    expect((await subscriptionRow(subscriptionId)).expiresAt?.toISOString()).toBe(paidThrough?.toISOString());
    expect((await audits('payment.refunded', renewal.id))[0]?.details).toMatchObject({ paidAfterCancellation: true });

    await drain();
    expect(refund).not.toHaveBeenCalled();
    expect((await paymentRow(renewal.id)).status).toBe('refunded');
    expect(await audits('payment.refunded_after_cancellation', renewal.id)).toHaveLength(1);
    expect(await mailsTo(patient.userId, messages.paymentNotices.refundedAfterCancellationSubject)).toBe(1);
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'active', expiresAt: paidThrough });
  });

  it('Asaas double: POST /payments/{id}/refund from the job, retried after a 5xx, never asked twice', async () => {
    const { patient, paymentId, subscriptionId } = await subscribeAtAsaas();
    const { providerPaymentId } = await paymentRow(paymentId);
    await t.db.update(subscriptions).set({ status: 'canceled', canceledAt: clock, cancelReason: 'patient' }).where(eq(subscriptions.id, subscriptionId));
    await t.db.update(payments).set({ status: 'canceled', canceledAt: clock }).where(eq(payments.id, paymentId));
    asaas.settle(providerPaymentId, 'RECEIVED');
    await deliver({ id: `evt_${randomUUID()}`, event: 'PAYMENT_RECEIVED', payment: asaas.payments.get(providerPaymentId) });
    expect((await paymentRow(paymentId)).status).toBe('received');

    const refundPath = `/payments/${providerPaymentId}/refund`;
    asaas.failNext({ status: 500, path: refundPath });
    await drain();
    expect(asaas.requestsTo('POST', refundPath)).toHaveLength(1);
    expect((await paymentRow(paymentId)).status).toBe('received');
    expect((await workJob(`refundCharge:${paymentId}`))?.completedAt).toBeNull();
    expect(await mailsTo(patient.userId, messages.paymentNotices.refundedAfterCancellationSubject)).toBe(0);

    clock = new Date(START.getTime() + 2 * MINUTE_MS);
    await drain();
    expect(asaas.requestsTo('POST', refundPath)).toHaveLength(2);
    expect(asaas.payments.get(providerPaymentId)?.status).toBe('REFUNDED');
    expect((await paymentRow(paymentId)).status).toBe('refunded');
    expect(await audits('payment.refunded_after_cancellation', paymentId)).toHaveLength(1);
    expect(await mailsTo(patient.userId, messages.paymentNotices.refundedAfterCancellationSubject)).toBe(1);
    expect((await subscriptionRow(subscriptionId)).status).toBe('canceled');

    // Asaas's PAYMENT_REFUNDED of our refund changes nothing more.
    await deliver({ id: `evt_${randomUUID()}`, event: 'PAYMENT_REFUNDED', payment: asaas.payments.get(providerPaymentId) });
    await drain();
    expect(asaas.requestsTo('POST', refundPath)).toHaveLength(2);
    expect((await subscriptionRow(subscriptionId)).status).toBe('canceled');
  });

  it('Asaas double: a refund Asaas refuses (4xx) is not retried and is audited for the clinic to settle by hand', async () => {
    const { patient, paymentId, subscriptionId } = await subscribeAtAsaas();
    const { providerPaymentId } = await paymentRow(paymentId);
    await t.db.update(subscriptions).set({ status: 'canceled', canceledAt: clock, cancelReason: 'patient' }).where(eq(subscriptions.id, subscriptionId));
    asaas.settle(providerPaymentId, 'RECEIVED');
    await deliver({ id: `evt_${randomUUID()}`, event: 'PAYMENT_RECEIVED', payment: asaas.payments.get(providerPaymentId) });
    const refundPath = `/payments/${providerPaymentId}/refund`;
    asaas.failNext({ status: 400, path: refundPath, errors: [{ code: 'invalid_action', description: 'Saldo insuficiente para estornar.' }] });
    await drain();
    expect((await workJob(`refundCharge:${paymentId}`))?.completedAt).not.toBeNull();
    const [failure] = await audits('payment.refund_after_cancellation_failed', paymentId);
    expect(failure?.details).toMatchObject({ providerPaymentId, reason: expect.stringContaining('Saldo insuficiente') });
    expect((await paymentRow(paymentId)).status).toBe('received');
    expect(await mailsTo(patient.userId, messages.paymentNotices.refundedAfterCancellationSubject)).toBe(0);
  });
});
