import { randomUUID } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicSettings, jobs, payments, subscriptions } from '../../db/schema.ts';
import { saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, createPatient, createProgramme, newKey, type Programme } from '../../../test/checkout-kit.ts';
import { benefitsActive, benefitsActiveSql, benefitsStateOf } from '../subscriptions/benefits.ts';
import { expireSubscriptions, markOverdueCharges, noticeSuspendedBenefits, runDelinquency, sendPaymentReminders, type DelinquencyDeps } from './delinquency.ts';
import { PATIENT_NOTICE_QUEUE, patientNoticeSchema, type PatientNotice } from '../subscriptions/follow-ups.ts';
import { recordLocalCharge } from './providers/local.ts';
import { createLocalRenewals, type LocalRenewalDeps } from './local-renewals.ts';
import { createClinicAsaasKeyBox } from './providers/index.ts';
import { asaasPaymentObjectOf } from './webhook-envelope.ts';
import { WEBHOOK_PATH, WEBHOOK_TOKEN_HEADER } from './webhook-routes.ts';

const HOUR_MS = 60 * 60 * 1000;
/** 24/11/2026 10:00 in São Paulo. */
const START = new Date('2026-11-24T13:00:00Z');
let clock = START;
let t: TestApp;
let programme: Programme;
const log = { info: () => undefined, warn: () => undefined };
/** The jobs take the follow-ups: the e-mails below are read from the queue they were written to. */
let deps: DelinquencyDeps;

/** A São Paulo day at 10:00. */
function at(day: string, hour = 10): Date {
  return new Date(saoPauloMidnight(day).getTime() + hour * HOUR_MS);
}

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock });
  deps = { jobs: t.app.jobs, log };
  programme = await createProgramme(t, 'Clínica da Inadimplência');
  await t.db.insert(clinicSettings).values({ clinicId: programme.clinicId, graceDays: 5 });
});
afterAll(async () => t.close());

async function subscribe(method: 'pix' | 'boleto') {
  const patient = await createPatient(t, programme);
  const response = await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme, { paymentMethod: method }), newKey());
  expect(response.statusCode).toBe(201);
  await t.app.background.settled();
  return { patient, paymentId: response.json().payment.id as string, subscriptionId: response.json().subscription.id as string };
}

async function subscription(id: string) {
  const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (!row) throw new Error('no subscription');
  return row;
}

async function payment(id: string) {
  const [row] = await t.db.select().from(payments).where(eq(payments.id, id));
  if (!row) throw new Error('no payment');
  return row;
}

async function simulate(cookie: string, paymentId: string) {
  const response = await callAs(t, cookie)('POST', `/api/patient/payments/${paymentId}/simulate`);
  expect(response.statusCode).toBe(200);
  await t.app.background.settled();
}

/** The provider makes the next cycle's charge (in its own record) and tells us (what Asaas's PAYMENT_CREATED carries). */
async function renewalCharge(subscriptionId: string, dueDate: string): Promise<string> {
  const row = await subscription(subscriptionId);
  const providerPaymentId = `loc_pay_${randomUUID()}`;
  await recordLocalCharge(t.db, row.clinicId, { id: providerPaymentId, subscriptionId: row.providerSubscriptionId, status: 'PENDING', method: 'pix', amountCents: 9990, dueDate, paidAt: null }, clock);
  const response = await t.app.inject({
    method: 'POST',
    url: WEBHOOK_PATH,
    headers: { [WEBHOOK_TOKEN_HEADER]: t.config.payments.webhookToken },
    payload: {
      id: `evt_${randomUUID()}`,
      event: 'PAYMENT_CREATED',
      payment: asaasPaymentObjectOf({ id: providerPaymentId, subscriptionId: row.providerSubscriptionId, status: 'PENDING', method: 'pix', amountCents: 9990, dueDate, paidAt: null, boletoUrl: null, invoiceUrl: null, externalReference: null }),
    },
  });
  expect(response.statusCode).toBe(200);
  await t.app.background.settled();
  const [charge] = await t.db.select().from(payments).where(and(eq(payments.providerPaymentId, providerPaymentId)));
  if (!charge) throw new Error('renewal not recorded');
  return charge.id;
}

/** The SQL form of the rule (what a list query would use), for the same subscription and instant. */
async function benefitsInSql(subscriptionId: string, now: Date): Promise<boolean | undefined> {
  const [row] = await t.db
    .select({ active: benefitsActiveSql(now) })
    .from(subscriptions)
    .leftJoin(clinicSettings, eq(clinicSettings.clinicId, subscriptions.clinicId))
    .where(eq(subscriptions.id, subscriptionId));
  return row?.active;
}

/** The patient's e-mails the jobs were given (each written in the transaction that decided it). */
async function noticesOf(userId: string): Promise<PatientNotice[]> {
  const rows = await t.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.queue, PATIENT_NOTICE_QUEUE));
  return rows.map((row) => patientNoticeSchema.parse(row.payload)).filter((notice) => notice.userId === userId);
}

async function noticesFor(userId: string, kind: PatientNotice['kind']): Promise<PatientNotice[]> {
  return (await noticesOf(userId)).filter((notice) => notice.kind === kind);
}

describe('reminders', () => {
  it('warns 3 days before and on the due date, once each', async () => {
    clock = START;
    const { patient, paymentId } = await subscribe('boleto');
    expect((await payment(paymentId)).dueDate).toBe('2026-11-29');

    await sendPaymentReminders(t.db, deps, at('2026-11-25'));
    expect(await noticesFor(patient.userId, 'reminderBefore')).toHaveLength(0);
    await sendPaymentReminders(t.db, deps, at('2026-11-26'));
    await sendPaymentReminders(t.db, deps, at('2026-11-27'));
    expect(await noticesFor(patient.userId, 'reminderBefore')).toEqual([expect.objectContaining({ dueDate: '2026-11-29', amountCents: 9990 })]);
    expect((await payment(paymentId)).reminderBeforeSentAt?.toISOString()).toBe(at('2026-11-26').toISOString());

    await sendPaymentReminders(t.db, deps, at('2026-11-29', 9));
    await sendPaymentReminders(t.db, deps, at('2026-11-29', 15));
    expect(await noticesFor(patient.userId, 'reminderDue')).toHaveLength(1);
  });

  it('a Pix charge due the day it was made gets no reminder that day', async () => {
    clock = START;
    const { patient } = await subscribe('pix');
    await sendPaymentReminders(t.db, deps, at('2026-11-24', 18));
    expect(await noticesOf(patient.userId)).toHaveLength(0);
  });
});

describe('delinquency', () => {
  it('an unpaid first charge goes overdue the day after its due date (no benefits to suspend)', async () => {
    clock = START;
    const { patient, paymentId, subscriptionId } = await subscribe('boleto');
    await markOverdueCharges(t.db, deps, at('2026-11-29', 23));
    expect((await payment(paymentId)).status).toBe('pending');
    await markOverdueCharges(t.db, deps, at('2026-11-30', 0.5));
    expect((await payment(paymentId)).status).toBe('overdue');
    expect((await subscription(subscriptionId)).status).toBe('overdue');
    expect(await noticesFor(patient.userId, 'overdue')).toEqual([expect.objectContaining({ dueDate: '2026-11-29', benefitsUntil: null })]);
    // Once: a second run finds nothing to do.
    await markOverdueCharges(t.db, deps, at('2026-11-30', 5));
    expect(await noticesFor(patient.userId, 'overdue')).toHaveLength(1);
    expect(benefitsActive(await subscription(subscriptionId), 5, at('2026-11-30'))).toBe(false);
  });

  it('overdue renewal → benefits through the grace → suspended (told once) → paying re-activates at once', async () => {
    clock = START;
    const { patient, paymentId, subscriptionId } = await subscribe('pix');
    await simulate(patient.cookie, paymentId);
    const paid = await subscription(subscriptionId);
    expect(paid.status).toBe('active');
    expect(paid.expiresAt?.toISOString()).toBe(saoPauloMidnight('2026-12-24').toISOString());

    const renewalId = await renewalCharge(subscriptionId, '2026-12-24');
    // The paid-through date passes with the renewal open: not expired, still active until the charge is late.
    await runDelinquency(t.db, deps, at('2026-12-24', 12));
    expect((await subscription(subscriptionId)).status).toBe('active');

    await runDelinquency(t.db, deps, at('2026-12-25', 1));
    const overdue = await subscription(subscriptionId);
    expect(overdue.status).toBe('overdue');
    expect((await payment(renewalId)).status).toBe('overdue');
    expect(benefitsStateOf(overdue, 5, at('2026-12-28'))).toBe('active');
    expect(await noticesFor(patient.userId, 'overdue')).toEqual([expect.objectContaining({ benefitsUntil: saoPauloMidnight('2026-12-29') })]);

    // Within the grace: nothing suspended yet.
    await noticeSuspendedBenefits(t.db, deps, at('2026-12-28', 23));
    expect(await noticesFor(patient.userId, 'suspended')).toHaveLength(0);
    // Grace over (5 days after the paid-through date): cards stop, the patient is told once.
    await runDelinquency(t.db, deps, at('2026-12-29', 1));
    await runDelinquency(t.db, deps, at('2026-12-30', 1));
    expect(await noticesFor(patient.userId, 'suspended')).toHaveLength(1);
    const suspended = await subscription(subscriptionId);
    expect(suspended.status).toBe('overdue');
    expect(benefitsStateOf(suspended, 5, at('2026-12-30'))).toBe('suspended');
    expect(await benefitsInSql(subscriptionId, at('2026-12-28'))).toBe(true);
    expect(await benefitsInSql(subscriptionId, at('2026-12-30'))).toBe(false);

    clock = at('2026-12-30', 11);
    await simulate(patient.cookie, renewalId);
    const restored = await subscription(subscriptionId);
    expect(restored.status).toBe('active');
    expect(restored.expiresAt?.toISOString()).toBe(saoPauloMidnight('2027-01-24').toISOString());
    expect(benefitsActive(restored, 5, clock)).toBe(true);
    expect(await benefitsInSql(subscriptionId, clock)).toBe(true);
  });

  it('expires a subscription with no renewal, and ends a cancelled one at its paid-through date', async () => {
    clock = START;
    const lapsed = await subscribe('pix');
    await simulate(lapsed.patient.cookie, lapsed.paymentId);
    const cancelled = await subscribe('pix');
    await simulate(cancelled.patient.cookie, cancelled.paymentId);
    await t.db.update(subscriptions).set({ canceledAt: START, cancelReason: 'patient' }).where(eq(subscriptions.id, cancelled.subscriptionId));

    expect(await expireSubscriptions(t.db, deps, at('2026-12-23', 23))).toEqual({ canceled: 0, expired: 0 });
    const cancelledRow = await subscription(cancelled.subscriptionId);
    // A cancelled subscription has no grace: its benefits end at the paid-through date exactly.
    expect(benefitsActive(cancelledRow, 5, at('2026-12-23', 23))).toBe(true);
    expect(benefitsActive(cancelledRow, 5, at('2026-12-24', 1))).toBe(false);
    expect(await benefitsInSql(cancelled.subscriptionId, at('2026-12-23', 23))).toBe(true);
    expect(await benefitsInSql(cancelled.subscriptionId, at('2026-12-24', 1))).toBe(false);

    await expireSubscriptions(t.db, deps, at('2026-12-24', 1));
    expect((await subscription(lapsed.subscriptionId)).status).toBe('expired');
    expect((await subscription(cancelled.subscriptionId)).status).toBe('canceled');

    // Paying again (a charge made later) re-activates an expired subscription.
    clock = at('2026-12-26');
    const late = await renewalCharge(lapsed.subscriptionId, '2026-12-26');
    await simulate(lapsed.patient.cookie, late);
    expect((await subscription(lapsed.subscriptionId)).status).toBe('active');
  });
});

describe('the embedded provider’s renewals', () => {
  it('makes the next cycle’s charge 10 days before the paid-through date, once, and paying it extends', async () => {
    clock = START;
    const renewalDeps: LocalRenewalDeps = { keyBox: createClinicAsaasKeyBox('test-secret-that-is-long-enough-0123456789'), pixKey: undefined, log };
    const { patient, paymentId, subscriptionId } = await subscribe('pix');
    await simulate(patient.cookie, paymentId);
    const nextOf = () => t.db.select().from(payments).where(and(eq(payments.subscriptionId, subscriptionId), gt(payments.dueDate, '2026-11-30')));

    await createLocalRenewals(t.db, renewalDeps, at('2026-12-13'));
    expect(await nextOf()).toHaveLength(0);
    await createLocalRenewals(t.db, renewalDeps, at('2026-12-14', 11));
    await createLocalRenewals(t.db, renewalDeps, at('2026-12-15'));
    const [renewal, ...more] = await nextOf();
    expect(more).toHaveLength(0);
    expect(renewal).toMatchObject({ provider: 'local', status: 'pending', method: 'pix', amountCents: 9990, dueDate: '2026-12-24', periodStart: '2026-12-24', periodEnd: '2027-01-24' });
    expect(isValidPixPayload(renewal?.pixPayload ?? '')).toBe(true);

    await sendPaymentReminders(t.db, deps, at('2026-12-21'));
    expect(await noticesFor(patient.userId, 'reminderBefore')).toEqual([expect.objectContaining({ dueDate: '2026-12-24' })]);

    clock = at('2026-12-22');
    await simulate(patient.cookie, renewal?.id ?? '');
    expect((await subscription(subscriptionId)).expiresAt?.toISOString()).toBe(saoPauloMidnight('2027-01-24').toISOString());
  });
});
