import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planChangeOverviewSchema, planChangeResponseSchema, type PlanChangeOverview } from '@carteirinha/shared/contracts/plan-changes';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, dependents, payments, planChanges, subscriptionPlans } from '../../db/schema.ts';
import { generateCpf } from '@brazilian-utils/brazilian-utils';
import { createTestApp, PUBLIC_URL, settleWork, TEST_AUTH_SECRET, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, createPatient, createProgramme, moneyTableCounts, newKey, OTHER_VALID_CPF, paymentRowOf, subscriptionRowOf, VALID_CPF, type Patient, type Programme } from '../../../test/checkout-kit.ts';
import { runDelinquency, type DelinquencyDeps } from '../payments/delinquency.ts';
import { applyToPayment } from '../payments/ledger.ts';
import { createLocalRenewals } from '../payments/local-renewals.ts';
import { createClinicAsaasKeyBox } from '../payments/providers/index.ts';
import { prorateUpgrade } from '../subscriptions/periods.ts';

/** 24/11/2026 10:00 in São Paulo: checkout pays the first month, through 24/12 (00:00 in São Paulo). */
const START = new Date('2026-11-24T13:00:00Z');
let clock = START;
let t: TestApp;
let programme: Programme;
let familyPlanId: string;
/** A patient of the clinic with no subscription. */
let strangerCookie: string;
let deps: DelinquencyDeps;

const INDIVIDUAL_CENTS = 9990;
const FAMILY_CENTS = 14990;
const THIRD_CPF = '390.533.447-05';

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock });
  programme = await createProgramme(t, 'Clínica da Troca');
  const [family] = await t.db
    .insert(subscriptionPlans)
    .values({ clinicId: programme.clinicId, name: 'Plano Família', priceCents: FAMILY_CENTS, maxMembers: 4 })
    .returning({ id: subscriptionPlans.id });
  if (!family) throw new Error('no family plan');
  familyPlanId = family.id;
  strangerCookie = (await createPatient(t, programme)).cookie;
  deps = { jobs: t.app.jobs, log: pino({ level: 'silent' }) };
});
afterAll(async () => t.close());

function call(cookie: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) {
  return t.app.inject({ method, url, headers: { cookie, origin: PUBLIC_URL, 'idempotency-key': newKey() }, ...(payload ? { payload } : {}) });
}

async function overviewOf(cookie: string): Promise<PlanChangeOverview> {
  const response = await call(cookie, 'GET', '/api/patient/plan-change');
  expect(response.statusCode).toBe(200);
  return planChangeOverviewSchema.parse(response.json());
}

/** A patient who checked out on `planId` by Pix on START and paid: paid through 24/12. */
async function subscribedPatient(planId = programme.planId): Promise<Patient & { subscriptionId: string }> {
  clock = START;
  const patient = await createPatient(t, programme);
  const response = await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme, { planId }), newKey());
  expect(response.statusCode).toBe(201);
  await t.app.background.settled();
  expect((await callAs(t, patient.cookie)('POST', `/api/patient/payments/${response.json().payment.id}/simulate`)).statusCode).toBe(200);
  await settleWork(t);
  return { ...patient, subscriptionId: response.json().subscription.id };
}

async function addDependent(cookie: string, fullName: string, cpf: string) {
  const response = await call(cookie, 'POST', '/api/patient/dependents', { fullName, cpf, birthDate: '2015-03-09', relationship: 'child' });
  await settleWork(t);
  return response;
}

describe('prorateUpgrade', () => {
  const paidThrough = new Date('2026-12-24T13:00:00Z');
  const upgrade = (now: string) => prorateUpgrade({ fromAmountCents: 8990, toAmountCents: 14990, paidThrough, cycle: 'monthly', now: new Date(now) });

  it('charges the difference over the São Paulo days left of the paid period, today included', () => {
    // 24/11 → 24/12 is 30 days; on 04/12 there are 20 left: R$ 60,00 × 20/30 = R$ 40,00.
    expect(upgrade('2026-12-04T13:00:00Z')).toEqual({ cents: 4000, remainingDays: 20, periodDays: 30 });
    // The period's first day: the whole difference. 23:30 in São Paulo is still that day.
    expect(upgrade('2026-11-25T02:30:00Z')).toEqual({ cents: 6000, remainingDays: 30, periodDays: 30 });
    // One day left: R$ 2,00; rounded to the cent (7 of 30 days of R$ 60,00 = R$ 14,00).
    expect(upgrade('2026-12-23T13:00:00Z').cents).toBe(200);
    expect(upgrade('2026-12-17T13:00:00Z').cents).toBe(1400);
    // Nothing is owed once the period is over, and a cheaper plan is never a charge.
    expect(upgrade('2026-12-26T13:00:00Z').cents).toBe(0);
    expect(prorateUpgrade({ fromAmountCents: 14990, toAmountCents: 8990, paidThrough, cycle: 'monthly', now: START }).cents).toBe(0);
  });
});

describe('GET /api/patient/plan-change', () => {
  it('prices every other plan of the same cycle by the rule that charges it, and says why none is offered', async () => {
    const fresh = await createPatient(t, programme);
    expect((await overviewOf(fresh.cookie)).blockedBy).toBe('noSubscription');

    const holder = await subscribedPatient();
    clock = new Date('2026-12-04T13:00:00Z');
    const overview = await overviewOf(holder.cookie);
    expect(overview.blockedBy).toBeNull();
    expect(overview.currentPlanId).toBe(programme.planId);
    // 20 of 30 days of R$ 50,00 more.
    expect(overview.options).toEqual([
      { planId: familyPlanId, planName: 'Plano Família', kind: 'upgrade', amountCents: FAMILY_CENTS, chargeCents: Math.round(((FAMILY_CENTS - INDIVIDUAL_CENTS) * 20) / 30), remainingDays: 20, effectiveAt: null, maxDependents: 3 },
    ]);
    expect(overview.pending).toBeNull();
  });
});

describe('POST /api/patient/plan-change: an upgrade', () => {
  it('charges the prorated difference, takes effect only when paid, and then allows three dependents', async () => {
    const holder = await subscribedPatient();
    const paidThrough = (await subscriptionRowOf(t, holder.subscriptionId)).expiresAt;
    // Individual has no room for a dependent.
    expect((await addDependent(holder.cookie, 'Maria Souza Lima', VALID_CPF)).statusCode).toBe(409);

    clock = new Date('2026-12-04T13:00:00Z');
    const response = await call(holder.cookie, 'POST', '/api/patient/plan-change', { planId: familyPlanId, paymentMethod: 'pix' });
    expect(response.statusCode).toBe(200);
    const { change } = planChangeResponseSchema.parse(response.json());
    expect(change).toMatchObject({ kind: 'upgrade', status: 'pending', toPlanName: 'Plano Família', amountCents: FAMILY_CENTS, chargeCents: 3333 });
    expect(change.payment).toMatchObject({ amountCents: 3333, method: 'pix', status: 'pending', planChange: true, canSimulate: true });
    expect(change.payment?.pixCopyPaste).toMatch(/^000201/);

    // Not before it is paid.
    await settleWork(t);
    expect((await subscriptionRowOf(t, holder.subscriptionId)).planId).toBe(programme.planId);
    expect((await addDependent(holder.cookie, 'Maria Souza Lima', VALID_CPF)).statusCode).toBe(409);

    const paid = await call(holder.cookie, 'POST', `/api/patient/payments/${change.payment?.id}/simulate`);
    expect(paid.statusCode).toBe(200);
    await settleWork(t);
    const after = await subscriptionRowOf(t, holder.subscriptionId);
    // The new plan at its price; the paid-through date is the one already paid for.
    expect(after).toMatchObject({ planId: familyPlanId, amountCents: FAMILY_CENTS, status: 'active', expiresAt: paidThrough });
    expect((await paymentRowOf(t, change.payment?.id ?? '')).periodEnd).toBeNull();
    const [row] = await t.db.select().from(planChanges).where(eq(planChanges.id, change.id));
    expect(row?.status).toBe('applied');

    for (const [name, cpf] of [['Maria Souza Lima', VALID_CPF], ['João Souza Lima', OTHER_VALID_CPF], ['Ana Souza Lima', THIRD_CPF]] as const) {
      expect((await addDependent(holder.cookie, name, cpf)).statusCode).toBe(201);
    }
    const audits = await t.db.select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.entity, 'subscription'), eq(auditLog.entityId, holder.subscriptionId)));
    expect(audits.map((audit) => audit.action)).toEqual(expect.arrayContaining(['subscription.plan_change_requested', 'subscription.plan_changed']));
  });

  it('an unpaid charge lapses: the plan paid for goes on, and the subscription is not overdue for it', async () => {
    const holder = await subscribedPatient();
    clock = new Date('2026-12-04T13:00:00Z');
    const { change } = planChangeResponseSchema.parse((await call(holder.cookie, 'POST', '/api/patient/plan-change', { planId: familyPlanId })).json());
    await runDelinquency(t.db, deps, new Date('2026-12-06T13:00:00Z'));
    await settleWork(t);
    const subscription = await subscriptionRowOf(t, holder.subscriptionId);
    expect(subscription).toMatchObject({ planId: programme.planId, status: 'active', amountCents: INDIVIDUAL_CENTS });
    const [row] = await t.db.select({ status: planChanges.status }).from(planChanges).where(eq(planChanges.id, change.id));
    expect(row?.status).toBe('lapsed');
    expect((await overviewOf(holder.cookie)).pending).toBeNull();
  });

  it('a refund of the difference puts the plan before back, at its price', async () => {
    const holder = await subscribedPatient();
    clock = new Date('2026-12-04T13:00:00Z');
    const { change } = planChangeResponseSchema.parse((await call(holder.cookie, 'POST', '/api/patient/plan-change', { planId: familyPlanId })).json());
    await call(holder.cookie, 'POST', `/api/patient/payments/${change.payment?.id}/simulate`);
    await settleWork(t);
    expect((await subscriptionRowOf(t, holder.subscriptionId)).planId).toBe(familyPlanId);
    await t.db.transaction((tx) => applyToPayment(tx, change.payment?.id ?? '', 'refund', 'test', { jobs: t.app.jobs, now: clock }));
    await settleWork(t);
    // Reverted, and the month paid is still paid: a refund of the difference takes no cycle back.
    expect(await subscriptionRowOf(t, holder.subscriptionId)).toMatchObject({ planId: programme.planId, amountCents: INDIVIDUAL_CENTS, status: 'active', expiresAt: new Date('2026-12-24T03:00:00Z') });
  });
});

describe('POST /api/patient/plan-change: refusals and ownership', () => {
  it('refuses a bad choice in pt-BR and writes nothing; another patient neither sees nor ends my change', async () => {
    const holder = await subscribedPatient();
    clock = new Date('2026-12-04T13:00:00Z');
    const before = await moneyTableCounts(t);
    const moneyOf = (counts: Record<string, number>) => ({ subscriptions: counts['subscriptions'], payments: counts['payments'] });
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ planId: programme.planId }, 400, messages.planChange.samePlan],
      [{ planId: '00000000-0000-4000-8000-000000000000' }, 400, messages.planChange.unknownPlan],
      [{ planId: familyPlanId, paymentMethod: 'credit_card' }, 400, messages.paymentProviders.cardRequired],
      [{ planId: 'x' }, 400, messages.planChange.planRequired],
    ];
    for (const [payload, status, message] of cases) {
      const response = await call(holder.cookie, 'POST', '/api/patient/plan-change', payload);
      expect(response.statusCode, message).toBe(status);
      expect(JSON.stringify(response.json())).toContain(message);
    }
    expect(moneyOf(await moneyTableCounts(t))).toEqual(moneyOf(before));
    expect(await t.db.select().from(planChanges).where(eq(planChanges.subscriptionId, holder.subscriptionId))).toEqual([]);

    const { change } = planChangeResponseSchema.parse((await call(holder.cookie, 'POST', '/api/patient/plan-change', { planId: familyPlanId })).json());
    const other = await subscribedPatient();
    clock = new Date('2026-12-04T13:00:00Z');
    expect((await overviewOf(other.cookie)).pending).toBeNull();
    expect((await call(other.cookie, 'DELETE', '/api/patient/plan-change')).statusCode).toBe(404);
    expect((await call(strangerCookie, 'DELETE', '/api/patient/plan-change')).statusCode).toBe(404);
    expect((await overviewOf(holder.cookie)).pending?.id).toBe(change.id);

    // 'Desistir da troca': the change ends and its charge with it.
    expect((await call(holder.cookie, 'DELETE', '/api/patient/plan-change')).statusCode).toBe(204);
    expect((await overviewOf(holder.cookie)).pending).toBeNull();
    expect((await paymentRowOf(t, change.payment?.id ?? '')).status).toBe('canceled');
  });
});

describe('POST /api/patient/plan-change: a downgrade', () => {
  it('waits for the renewal: the renewal is charged at the new price, the dependents not kept lose their cards then', async () => {
    const holder = await subscribedPatient(familyPlanId);
    for (const [name, cpf] of [['Paula Souza Lima', generateCpf()], ['Rui Souza Lima', generateCpf()]] as const) {
      expect((await addDependent(holder.cookie, name, cpf)).statusCode).toBe(201);
    }
    clock = new Date('2026-12-04T13:00:00Z');
    const overview = await overviewOf(holder.cookie);
    expect(overview.options).toEqual([expect.objectContaining({ planId: programme.planId, planName: 'Plano Clínica da Troca', kind: 'downgrade', amountCents: INDIVIDUAL_CENTS, chargeCents: 0, effectiveAt: '2026-12-24T03:00:00.000Z', maxDependents: 0 })]);
    expect(overview.dependents.map((dependent) => dependent.fullName).sort()).toEqual(['Paula Souza Lima', 'Rui Souza Lima']);

    const response = await call(holder.cookie, 'POST', '/api/patient/plan-change', { planId: programme.planId });
    expect(response.statusCode).toBe(200);
    expect(planChangeResponseSchema.parse(response.json()).change).toMatchObject({ kind: 'downgrade', status: 'pending', payment: null, effectiveAt: '2026-12-24T03:00:00.000Z' });
    await settleWork(t);
    // Nothing changes before the date.
    expect((await subscriptionRowOf(t, holder.subscriptionId)).planId).toBe(familyPlanId);

    // The renewal the embedded provider makes 10 days ahead is for the new plan's price.
    clock = new Date('2026-12-20T13:00:00Z');
    await createLocalRenewals(t.db, { keyBox: createClinicAsaasKeyBox(TEST_AUTH_SECRET), pixKey: undefined, log: deps.log }, clock);
    const charges = await t.db.select().from(payments).where(eq(payments.subscriptionId, holder.subscriptionId));
    expect(charges.find((charge) => charge.periodStart === '2026-12-24')?.amountCents).toBe(INDIVIDUAL_CENTS);

    await runDelinquency(t.db, deps, new Date('2026-12-24T14:00:00Z'));
    await settleWork(t);
    expect(await subscriptionRowOf(t, holder.subscriptionId)).toMatchObject({ planId: programme.planId, amountCents: INDIVIDUAL_CENTS });
    const covered = await t.db.select({ removedAt: dependents.removedAt }).from(dependents).where(eq(dependents.holderUserId, holder.userId));
    expect(covered.every((dependent) => dependent.removedAt !== null)).toBe(true);
  });
});
