import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, emailOutbox, payments, subscriptions, users as usersTable } from '../../db/schema.ts';
import { cookieHeaderOf, createSubscriptionWithPayments, createTestApp, settleWork, signIn, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, createPatient, createProgramme, newKey, TEST_CARD, type Programme } from '../../../test/checkout-kit.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const START = new Date('2026-11-24T12:00:00Z');
let clock = START;
let t: TestApp;
let programme: Programme;

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock });
  programme = await createProgramme(t, 'Clínica do Cancelamento');
});
afterAll(async () => t.close());

/** A patient who subscribed at START by Pix, and whose first charge was then paid (what settlement writes). */
async function paidSubscriber() {
  clock = START;
  const patient = await createPatient(t, programme);
  const call = callAs(t, patient.cookie);
  const created = (await call('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey())).json();
  const expiresAt = new Date(START.getTime() + 30 * DAY_MS);
  await t.db.update(payments).set({ status: 'received', paidAt: START }).where(eq(payments.id, created.payment.id));
  await t.db.update(subscriptions).set({ status: 'active', startedAt: START, expiresAt }).where(eq(subscriptions.id, created.subscription.id));
  return { patient, call, created, expiresAt };
}

/** The cancellation receipt (the account's own e-mails, such as its confirmation, are jobs too and may come after it). */
async function receiptTo(email: string) {
  await settleWork(t);
  const [mail] = await t.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), eq(emailOutbox.subject, messages.cancellation.receiptSubject)))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  return mail;
}

describe('cancellation within 7 days (CDC art. 49)', () => {
  it('previews a free withdrawal with the full refund (no visit yet), then refunds every paid charge and ends at once', async () => {
    const { patient, call, created } = await paidSubscriber();
    clock = new Date(START.getTime() + 6 * DAY_MS);
    const preview = (await call('GET', '/api/patient/subscription/cancellation')).json();
    expect(preview).toEqual({
      kind: 'freeWithdrawal',
      freeWithdrawal: true,
      withdrawalEndsAt: new Date(START.getTime() + 7 * DAY_MS).toISOString(),
      paidCents: 9990,
      discountsCents: 0,
      refundCents: 9990,
      benefitsUntil: null,
      rule: messages.cancellation.freeWithdrawalRule,
    });

    const cancelled = await call('POST', '/api/patient/subscription/cancel', {});
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ refundCents: 9990, subscription: { status: 'canceled' } });
    // The patient's page says what is true at once: ended, the protocol, the refund asked of the provider...
    const protocol = cancelled.json().protocol;
    expect((await call('GET', '/api/patient/subscription')).json().subscription).toMatchObject({
      status: 'canceled',
      cancellation: { protocol, refundCents: 9990, refundedCents: 0, refundStatus: 'processing' },
    });
    // The refund is the payments module's job (at the provider, then recorded on the charge), with the receipt.
    const mail = await receiptTo(patient.email);
    // ...and, once the provider has given it back, that it was.
    expect((await call('GET', '/api/patient/subscription')).json().subscription.cancellation).toEqual({ protocol, refundCents: 9990, refundedCents: 9990, refundStatus: 'done' });
    const [payment] = await t.db.select().from(payments).where(eq(payments.id, created.payment.id));
    expect(payment).toMatchObject({ status: 'refunded', refundedCents: null });
    expect(payment?.refundedAt).not.toBeNull();

    expect(mail?.subject).toBe(messages.cancellation.receiptSubject);
    expect(mail?.text).toContain(cancelled.json().protocol);
    expect(mail?.text).toContain('R$ 99,90');
    const audit = await t.db.select().from(auditLog).where(and(eq(auditLog.entityId, created.subscription.id), eq(auditLog.action, 'subscription.canceled')));
    expect(audit).toHaveLength(1);

    const again = await call('POST', '/api/patient/subscription/cancel', {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(messages.cancellation.alreadyCanceled);
  });

  it('cancels a subscription that was never paid at once, its open charge no longer payable', async () => {
    clock = START;
    const patient = await createPatient(t, programme);
    const call = callAs(t, patient.cookie);
    const created = (await call('POST', '/api/patient/subscriptions', checkoutBody(programme, { paymentMethod: 'boleto' }))).json();
    clock = new Date(START.getTime() + 10 * DAY_MS);
    expect((await call('GET', '/api/patient/subscription/cancellation')).json()).toMatchObject({ kind: 'unpaid', freeWithdrawal: false, refundCents: 0, rule: messages.cancellation.pendingRule });
    const cancelled = (await call('POST', '/api/patient/subscription/cancel', {})).json();
    expect(cancelled).toMatchObject({ refundCents: 0, subscription: { status: 'canceled' } });
    const [payment] = await t.db.select().from(payments).where(eq(payments.id, created.payment.id));
    expect(payment?.status).toBe('canceled');
    // And the patient may subscribe again.
    expect((await call('POST', '/api/patient/subscriptions', checkoutBody(programme))).statusCode).toBe(201);
  });
});

describe('a subscription from before checkout (the demo seed: no provider named)', () => {
  it('is cancelled and refunded through the embedded provider its charges name', async () => {
    const { userId, subscriptionId } = await createSubscriptionWithPayments(t, programme, [{ status: 'received', amountCents: 9990, dueDate: '2026-11-24' }]);
    await t.db.update(subscriptions).set({ createdAt: START }).where(eq(subscriptions.id, subscriptionId));
    clock = new Date(START.getTime() + DAY_MS);
    const [user] = await t.db.select().from(usersTable).where(eq(usersTable.id, userId));
    const cookie = cookieHeaderOf(await signIn(t.app, user!.email));
    const cancelled = (await callAs(t, cookie)('POST', '/api/patient/subscription/cancel', {})).json();
    expect(cancelled).toMatchObject({ refundCents: 9990, subscription: { status: 'canceled' } });
  });
});

describe('cancellation after 7 days', () => {
  it('charges nothing more and keeps the benefits until the paid-through date', async () => {
    const { patient, call, created, expiresAt } = await paidSubscriber();
    clock = new Date(START.getTime() + 8 * DAY_MS);
    const preview = (await call('GET', '/api/patient/subscription/cancellation')).json();
    expect(preview).toMatchObject({ kind: 'endOfPaidPeriod', freeWithdrawal: false, refundCents: 0, benefitsUntil: expiresAt.toISOString(), rule: messages.cancellation.afterWithdrawalRule });

    const response = await call('POST', '/api/patient/subscription/cancel', {});
    expect(response.body).toContain('refundCents');
    const cancelled = response.json();
    expect(cancelled.refundCents).toBe(0);
    expect(cancelled.subscription).toMatchObject({ status: 'active', canceledAt: clock.toISOString(), expiresAt: expiresAt.toISOString() });
    const [payment] = await t.db.select().from(payments).where(eq(payments.id, created.payment.id));
    expect(payment?.status).toBe('received');
    const mail = await receiptTo(patient.email);
    expect(mail?.text).toContain('24/12/2026');
    // No second cancellation, and no second subscription while the paid period runs.
    expect((await call('POST', '/api/patient/subscription/cancel', {})).statusCode).toBe(409);
  });

  it('says there is nothing to cancel without a subscription', async () => {
    const patient = await createPatient(t, programme);
    const response = await callAs(t, patient.cookie)('GET', '/api/patient/subscription/cancellation');
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(messages.cancellation.nothingToCancel);
  });
});

describe('changing the payment method', () => {
  it('replaces an open Pix charge by a boleto the patient can pay now', async () => {
    clock = START;
    const patient = await createPatient(t, programme);
    const call = callAs(t, patient.cookie);
    const created = (await call('POST', '/api/patient/subscriptions', checkoutBody(programme))).json();
    const changed = await call('PUT', '/api/patient/subscription/payment-method', { paymentMethod: 'boleto' });
    expect(changed.statusCode).toBe(200);
    const body = changed.json();
    expect(body.subscription.paymentMethod).toBe('boleto');
    expect(body.payment).toMatchObject({ method: 'boleto', status: 'pending', amountCents: 9990, dueDate: '2026-11-29' });
    const [old] = await t.db.select().from(payments).where(eq(payments.id, created.payment.id));
    expect(old?.status).toBe('canceled');
    const list = (await call('GET', '/api/patient/payments')).json().items;
    expect(list.map((item: { id: string; status: string }) => [item.id, item.status])).toEqual([
      [body.payment.id, 'pending'],
      [created.payment.id, 'canceled'],
    ]);
  });

  it('changes only the next charges when nothing is open, and refuses the same method or a missing card', async () => {
    const { call } = await paidSubscriber();
    const same = await call('PUT', '/api/patient/subscription/payment-method', { paymentMethod: 'pix' });
    expect(same.statusCode).toBe(409);
    expect(same.json().error.message).toBe(messages.checkoutRules.sameMethod);
    const noCard = await call('PUT', '/api/patient/subscription/payment-method', { paymentMethod: 'credit_card' });
    expect(noCard.statusCode).toBe(400);
    expect(noCard.json().error.message).toBe(messages.checkoutRules.cardRequired);
    const changed = (await call('PUT', '/api/patient/subscription/payment-method', { paymentMethod: 'credit_card', creditCard: TEST_CARD })).json();
    expect(changed).toMatchObject({ subscription: { paymentMethod: 'credit_card', status: 'active' }, payment: null });
  });
});
