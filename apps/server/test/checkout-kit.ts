import { createHash, randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import { auditLog, contractTerms, idempotencyKeys, payments, profiles, subscriptions, termsAcceptances } from '../src/db/schema.ts';
import { asaasPaymentObjectOf } from '../src/modules/payments/webhook-envelope.ts';
import { addCycleToDay } from '../src/modules/subscriptions/periods.ts';
import type { AsaasDouble } from './asaas-double.ts';
import { createClinicAsaasKeyBox, merchantAccountFor } from '../src/modules/payments/providers/index.ts';
import { createClinic, createSignedInUser, settleWork, TEST_AUTH_SECRET, type TestApp } from './helpers.ts';

/** Valid documents (check digits right) and a card that passes Luhn. */
export const VALID_CPF = '529.982.247-25';
export const OTHER_VALID_CPF = '111.444.777-35';
export const VALID_CNPJ = '11.222.333/0001-81';
export const TEST_CARD = { holderName: 'Maria da Silva', number: '4111 1111 1111 1111', expiryMonth: '12', expiryYear: '2035', ccv: '123', postalCode: '01310-100', addressNumber: '100' };

export type Programme = { clinicId: string; planId: string; termsId: string };

/** A clinic with an active plan and version 1 of its terms (createClinic makes both, as a new clinic starts). */
export async function createProgramme(t: TestApp, name = 'Clínica do Checkout'): Promise<Programme> {
  const { clinicId, planId } = await createClinic(t.db, name);
  const [terms] = await t.db.select({ id: contractTerms.id }).from(contractTerms).where(eq(contractTerms.clinicId, clinicId));
  if (!terms) throw new Error('terms not created');
  return { clinicId, planId, termsId: terms.id };
}

export type Patient = { userId: string; email: string; cookie: string };

export async function createPatient(t: TestApp, programme: Programme): Promise<Patient> {
  return createSignedInUser(t, 'patient', programme.clinicId);
}

/**
 * The CPF a checkout body carries unless a test names one: `callAs` puts the caller's own CPF there (`cpfOfCaller`).
 * A CPF is one person's per clinic (issue 22), so every test patient needs a CPF of their own, the same on every call.
 */
export const CALLER_CPF = 'cpf-do-paciente';

/** A valid CPF (check digits right) of its own for each session: digits from a hash of the cookie. */
export function cpfOfCaller(cookie: string): string {
  const hash = createHash('sha256').update(cookie).digest();
  const base = Array.from(hash.subarray(0, 9), (byte) => byte % 10);
  if (base.every((digit) => digit === base[0])) base[8] = ((base[8] ?? 0) + 1) % 10;
  const checkDigit = (digits: number[]) => {
    const sum = digits.reduce((total, digit, index) => total + digit * (digits.length + 1 - index), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const first = checkDigit(base);
  const second = checkDigit([...base, first]);
  return [...base, first, second].join('');
}

/** The body as `callAs` sends it: CALLER_CPF replaced by the caller's own CPF. */
export function withCallerCpf(payload: Record<string, unknown>, cookie: string): Record<string, unknown> {
  const customer = payload['customerData'];
  if (typeof customer !== 'object' || customer === null || !('cpfCnpj' in customer) || customer.cpfCnpj !== CALLER_CPF) return payload;
  return { ...payload, customerData: { ...customer, cpfCnpj: cpfOfCaller(cookie) } };
}

export function checkoutBody(programme: Programme, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    planId: programme.planId,
    paymentMethod: 'pix',
    customerData: { name: 'Maria da Silva', email: 'maria@teste.dev', cpfCnpj: CALLER_CPF, phone: '(11) 98765-4321' },
    termsId: programme.termsId,
    acceptTerms: true,
    ...changes,
  };
}

/** Calls the API as the browser does: the session cookie, and an Idempotency-Key on creates when given. */
export function callAs(t: TestApp, cookie: string) {
  return (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>, key?: string): Promise<LightMyRequestResponse> =>
    t.app.inject({ method, url, headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) }, ...(payload ? { payload: withCallerCpf(payload, cookie) } : {}) });
}

export function newKey(): string {
  return randomUUID();
}

/** Row counts of every table a checkout writes: a refused request must leave them as they were. */
export async function moneyTableCounts(t: TestApp): Promise<Record<string, number>> {
  const total = (rows: { total: number }[]) => rows[0]?.total ?? 0;
  return {
    subscriptions: total(await t.db.select({ total: count() }).from(subscriptions)),
    payments: total(await t.db.select({ total: count() }).from(payments)),
    termsAcceptances: total(await t.db.select({ total: count() }).from(termsAcceptances)),
    auditLog: total(await t.db.select({ total: count() }).from(auditLog)),
    idempotencyKeys: total(await t.db.select({ total: count() }).from(idempotencyKeys)),
    profilesWithCpf: total(await t.db.select({ total: count() }).from(profiles).where(eq(profiles.cpf, '52998224725'))),
  };
}

export type PaymentRow = typeof payments.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

export async function paymentRowOf(t: TestApp, id: string): Promise<PaymentRow> {
  const [row] = await t.db.select().from(payments).where(eq(payments.id, id));
  if (!row) throw new Error('payment not found');
  return row;
}

export async function subscriptionRowOf(t: TestApp, id: string): Promise<SubscriptionRow> {
  const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (!row) throw new Error('subscription not found');
  return row;
}

/**
 * The payer paid one of the embedded provider's charges: the provider's own record says so from now on (what
 * 'Simular pagamento' does first), so a settlement's read-back finds it paid.
 */
export async function payAtLocalProvider(t: TestApp, paymentId: string): Promise<void> {
  const row = await paymentRowOf(t, paymentId);
  if (row.provider !== 'local') throw new Error('not a charge of the embedded provider');
  const account = await merchantAccountFor(t.db, createClinicAsaasKeyBox(TEST_AUTH_SECRET), row.clinicId);
  if (!(await t.app.paymentProviders.local.payerPaid(account, row.providerPaymentId))) throw new Error('the embedded provider has no such charge');
}

/**
 * A webhook envelope about one of our charges, as Asaas posts it; a RECEIVED or CONFIRMED charge was paid at `paidAt`.
 * For the embedded provider the payer pays first (its own record then says so, as Asaas's would): what a provider
 * reports paid, it has been paid.
 */
export async function asaasEnvelopeOf(t: TestApp, charge: { paymentId: string; event: string; status: string; paidAt: Date; id?: string }): Promise<Record<string, unknown>> {
  const row = await paymentRowOf(t, charge.paymentId);
  const subscription = await subscriptionRowOf(t, row.subscriptionId);
  const paid = charge.status === 'RECEIVED' || charge.status === 'CONFIRMED';
  if (paid && row.provider === 'local') await payAtLocalProvider(t, row.id);
  return {
    id: charge.id ?? `evt_${randomUUID()}`,
    event: charge.event,
    dateCreated: '2026-11-24 10:00:00',
    payment: asaasPaymentObjectOf({
      id: row.providerPaymentId,
      subscriptionId: subscription.providerSubscriptionId,
      status: charge.status,
      method: row.method,
      amountCents: row.amountCents,
      dueDate: row.dueDate,
      paidAt: paid ? charge.paidAt : null,
      boletoUrl: null,
      invoiceUrl: null,
      externalReference: null,
    }),
  };
}

/**
 * A patient subscribed through Asaas (the double): the rows checkout writes (a pending subscription with its first
 * charge, due `dueDate`) and the double's own records of the subscription and the charge.
 */
export async function subscribeAtAsaasDouble(
  t: TestApp,
  asaas: AsaasDouble,
  programme: Programme,
  options: { at: Date; dueDate?: string; atDouble?: boolean },
): Promise<{ patient: Patient; paymentId: string; subscriptionId: string; providerPaymentId: string; providerSubscriptionId: string }> {
  const patient = await createPatient(t, programme);
  const suffix = randomUUID().slice(0, 8);
  const providerSubscriptionId = `sub_${suffix}`;
  const providerPaymentId = `pay_${suffix}`;
  const dueDate = options.dueDate ?? '2026-11-24';
  const [subscription] = await t.db
    .insert(subscriptions)
    .values({ clinicId: programme.clinicId, userId: patient.userId, planId: programme.planId, status: 'pending', provider: 'asaas', providerSubscriptionId, amountCents: 9990, paymentMethod: 'pix', createdAt: options.at })
    .returning();
  if (!subscription) throw new Error('no subscription');
  const [payment] = await t.db
    .insert(payments)
    .values({ clinicId: programme.clinicId, subscriptionId: subscription.id, provider: 'asaas', providerPaymentId, method: 'pix', amountCents: 9990, dueDate, periodStart: dueDate, periodEnd: addCycleToDay(dueDate, 'monthly'), createdAt: options.at })
    .returning();
  if (!payment) throw new Error('no payment');
  if (options.atDouble !== false) {
    asaas.subscriptions.set(providerSubscriptionId, { object: 'subscription', id: providerSubscriptionId, status: 'ACTIVE', billingType: 'PIX', value: 99.9, cycle: 'MONTHLY', deleted: false });
  }
  asaas.addPayment({ id: providerPaymentId, subscription: providerSubscriptionId, value: 99.9, dueDate, billingType: 'PIX', status: 'PENDING' });
  return { patient, paymentId: payment.id, subscriptionId: subscription.id, providerPaymentId, providerSubscriptionId };
}

/** Subscribes by Pix and pays ('Simular pagamento'), then lets the job issue the card: active, its card returned. */
export async function subscribeAndPay(t: TestApp, programme: Programme, patient: Patient): Promise<PatientCard> {
  const call = callAs(t, patient.cookie);
  const created = await call('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey());
  expect(created.statusCode, created.body).toBe(201);
  expect((await call('POST', `/api/patient/payments/${created.json().payment.id}/simulate`)).statusCode).toBe(200);
  await settleWork(t);
  const [card] = (await call('GET', '/api/patient/cards')).json<{ items: PatientCard[] }>().items;
  if (!card) throw new Error('no card issued');
  return card;
}
