/**
 * Issue 22, "repeatable free withdrawal": a patient subscribed, paid, used R$ 1 000 of discounts and cancelled within
 * the 7 days with everything back — three rounds in a row. Within the 7 days (CDC art. 49) the refund is now what
 * was paid minus the discounts received on visits (never below zero; a visit called off does not count), the screen
 * says so before the patient confirms, and the clinic sees which visits came before a withdrawal. The patient keeps
 * one card number across the rounds.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CancellationPreview } from '@carteirinha/shared/contracts/subscriptions';
import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import type { Visit } from '@carteirinha/shared/contracts/visits';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, emailOutbox, jobs, localProviderCharges, payments } from '../../db/schema.ts';
import { PROVIDER_WORK_QUEUE } from '../subscriptions/follow-ups.ts';
import { createSignedInUser, createTestApp, PUBLIC_URL, settleWork, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, createPatient, createProgramme, newKey, paymentRowOf, type Patient, type Programme } from '../../../test/checkout-kit.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const START = new Date('2026-11-24T13:00:00Z');
let clock = START;
let t: TestApp;
let programme: Programme;
let staffCookie: string;

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock });
  programme = await createProgramme(t, 'Clínica do Arrependimento');
  staffCookie = (await createSignedInUser(t, 'clinic_staff', programme.clinicId)).cookie;
});
afterAll(async () => t.close());

const staff = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie: staffCookie, origin: PUBLIC_URL }, ...(payload ? { payload } : {}) });

/** Subscribes by Pix and pays ('Simular pagamento'): active, its card issued. Answers the charge and the card. */
async function subscribeAndPay(patient: Patient): Promise<{ paymentId: string; subscriptionId: string; card: PatientCard }> {
  const call = callAs(t, patient.cookie);
  const created = await call('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey());
  expect(created.statusCode).toBe(201);
  const paymentId: string = created.json().payment.id;
  expect((await call('POST', `/api/patient/payments/${paymentId}/simulate`)).statusCode).toBe(200);
  await settleWork(t);
  const [card] = (await call('GET', '/api/patient/cards')).json<{ items: PatientCard[] }>().items;
  if (!card) throw new Error('no card issued');
  expect(card.active).toBe(true);
  return { paymentId, subscriptionId: created.json().subscription.id, card };
}

/** 'Registrar Atendimento' at the reception: a consulta at the plan's 30 %. */
async function visit(cardId: string, priceCents: number): Promise<Visit> {
  const response = await staff('POST', '/api/clinic/visits', { cardId, serviceName: 'Consulta', category: 'consulta', priceCents });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Visit>();
}

describe('the 7-day withdrawal keeps the discounts already received', () => {
  it('refunds what was paid minus the discounts of the visits (a visit called off does not count), said before confirming, and shows the clinic the visits before it', async () => {
    const patient = await createPatient(t, programme);
    const call = callAs(t, patient.cookie);
    const first = await subscribeAndPay(patient);
    const consulta = await visit(first.card.id, 10_000);
    expect(consulta.discountCents).toBe(3_000);
    const calledOff = await visit(first.card.id, 5_000);
    const cancelled = await staff('PATCH', `/api/clinic/visits/${calledOff.id}/status`, { status: 'cancelado', reason: 'Registrado por engano' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<Visit>()).toMatchObject({ status: 'cancelado', canceledAt: clock.toISOString(), cancelReason: 'Registrado por engano' });
    const again = await staff('PATCH', `/api/clinic/visits/${calledOff.id}/status`, { status: 'cancelado', reason: 'De novo' });
    expect(again.statusCode).toBe(409);

    clock = new Date(START.getTime() + 3 * DAY_MS);
    const preview = (await call('GET', '/api/patient/subscription/cancellation')).json<CancellationPreview>();
    expect(preview).toMatchObject({ kind: 'freeWithdrawal', paidCents: 9_990, discountsCents: 3_000, refundCents: 6_990, rule: messages.cancellation.freeWithdrawalRule });

    const answer = await call('POST', '/api/patient/subscription/cancel', {});
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ refundCents: 6_990, subscription: { status: 'canceled' } });
    await settleWork(t);
    const charge = await paymentRowOf(t, first.paymentId);
    expect(charge).toMatchObject({ status: 'refunded', refundedCents: 6_990 });
    // Asked of the provider: R$ 69,90 of the R$ 99,90 charge.
    const [atProvider] = await t.db.select().from(localProviderCharges).where(eq(localProviderCharges.id, charge.providerPaymentId));
    expect(atProvider).toMatchObject({ status: 'REFUNDED', refundedCents: 6_990 });
    expect(await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'payment.withdrawal_refunded'), eq(auditLog.entityId, first.paymentId)))).toHaveLength(1);
    const [receipt] = await t.db.select().from(emailOutbox).where(and(eq(emailOutbox.to, patient.email), eq(emailOutbox.subject, messages.cancellation.receiptSubject)));
    expect(receipt?.text).toContain('R$ 69,90');

    // The clinic's Atendimentos: both visits marked as made before the withdrawal, the one called off as such.
    const listed = (await staff('GET', `/api/clinic/visits?cardId=${first.card.id}`)).json<{ items: Visit[] }>().items;
    // Both were recorded at the same instant, so the list's order between them is the id's: compare them by id.
    const byId = (a: [string, ...unknown[]], b: [string, ...unknown[]]) => a[0].localeCompare(b[0]);
    const rows = listed.map((item): [string, string | null, boolean] => [item.id, item.subscriptionWithdrawnAt, item.canceledAt !== null]);
    const expected: [string, string | null, boolean][] = [
      [calledOff.id, clock.toISOString(), true],
      [consulta.id, clock.toISOString(), false],
    ];
    expect(rows.sort(byId)).toEqual(expected.sort(byId));
  });

  it('never refunds below zero, and the next rounds keep the same card number', async () => {
    clock = START;
    const patient = await createPatient(t, programme);
    const call = callAs(t, patient.cookie);
    const first = await subscribeAndPay(patient);
    await visit(first.card.id, 100_000);
    const preview = (await call('GET', '/api/patient/subscription/cancellation')).json<CancellationPreview>();
    expect(preview).toMatchObject({ kind: 'freeWithdrawal', paidCents: 9_990, discountsCents: 30_000, refundCents: 0 });
    expect((await call('POST', '/api/patient/subscription/cancel', {})).json()).toMatchObject({ refundCents: 0, subscription: { status: 'canceled' } });
    await settleWork(t);
    expect((await paymentRowOf(t, first.paymentId)).status).toBe('received');
    const refundJobs = await t.db.select().from(jobs).where(and(eq(jobs.queue, PROVIDER_WORK_QUEUE), eq(jobs.singletonKey, `refundCharge:${first.paymentId}`)));
    expect(refundJobs).toHaveLength(0);

    // Subscribing again: the printed number of the first round still works, now for the new subscription.
    clock = new Date(START.getTime() + DAY_MS);
    const second = await subscribeAndPay(patient);
    expect(second.card.number).toBe(first.card.number);
    expect(second.card.id).toBe(first.card.id);
    const validated = await staff('POST', '/api/clinic/card-validations', { cardToken: first.card.number, source: 'manual' });
    expect(validated.json()).toMatchObject({ valid: true, card: { number: first.card.number } });
    const [stillOne] = await t.db.select({ subscriptionId: payments.subscriptionId }).from(payments).where(eq(payments.id, second.paymentId));
    expect(stillOne?.subscriptionId).toBe(second.subscriptionId);
  });
});
