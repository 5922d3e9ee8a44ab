import { generateCpf } from '@brazilian-utils/brazilian-utils';
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dependentsOverviewSchema, type DependentsOverview } from '@carteirinha/shared/contracts/dependents';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, cpfClaims, dependents, payments, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import { saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { createSignedInUser, createTestApp, PUBLIC_URL, settleWork, TEST_AUTH_SECRET, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, cpfOfCaller, createPatient, createProgramme, newKey, OTHER_VALID_CPF, VALID_CPF, type Patient, type Programme } from '../../../test/checkout-kit.ts';
import { createLocalRenewals } from '../payments/local-renewals.ts';
import { createClinicAsaasKeyBox } from '../payments/providers/index.ts';

/** 24/11/2026 10:00 in São Paulo: every rule below reads this clock. */
const START = new Date('2026-11-24T13:00:00Z');
let clock = START;
let t: TestApp;
let programme: Programme;
let staffCookie: string;

const HOLDER_CENTS = 9990;
const PER_DEPENDENT_CENTS = 2500;
const MARIA = { fullName: 'Maria Souza Lima', cpf: VALID_CPF, birthDate: '2015-03-09', relationship: 'child' };
const JOAO = { fullName: 'João Souza Lima', cpf: OTHER_VALID_CPF, birthDate: '1982-07-30', relationship: 'spouse' };
/** Valid CPFs (check digits right) of people nobody in these tests is. */
const THIRD_CPF = '390.533.447-05';
const FOURTH_CPF = '714.602.380-01';

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock });
  programme = await createProgramme(t, 'Clínica dos Dependentes');
  // The Família plan: the holder and up to 2 dependents, each R$ 25,00 more per cycle.
  await t.db.update(subscriptionPlans).set({ maxMembers: 3, dependentPriceCents: PER_DEPENDENT_CENTS }).where(eq(subscriptionPlans.id, programme.planId));
  staffCookie = (await createSignedInUser(t, 'clinic_staff', programme.clinicId)).cookie;
});
afterAll(async () => t.close());

function call(cookie: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) {
  return t.app.inject({ method, url, headers: { cookie, origin: PUBLIC_URL }, ...(payload ? { payload } : {}) });
}

async function overviewOf(cookie: string): Promise<DependentsOverview> {
  const response = await call(cookie, 'GET', '/api/patient/dependents');
  expect(response.statusCode).toBe(200);
  return dependentsOverviewSchema.parse(response.json());
}

/** A patient who checked out by Pix and paid: an active subscription of the local provider. */
async function subscribedPatient(): Promise<Patient & { subscriptionId: string; paymentId: string }> {
  const patient = await createPatient(t, programme);
  const response = await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey());
  expect(response.statusCode).toBe(201);
  const paymentId: string = response.json().payment.id;
  await t.app.background.settled();
  const paid = await callAs(t, patient.cookie)('POST', `/api/patient/payments/${paymentId}/simulate`);
  expect(paid.statusCode).toBe(200);
  await settleWork(t);
  return { ...patient, subscriptionId: response.json().subscription.id, paymentId };
}

async function add(cookie: string, dependent: Record<string, unknown>) {
  const response = await call(cookie, 'POST', '/api/patient/dependents', dependent);
  await settleWork(t);
  return response;
}

async function validateAtClinic(cardNumber: string): Promise<boolean> {
  clock = new Date(clock.getTime() + 2_000);
  const response = await call(staffCookie, 'POST', '/api/clinic/card-validations', { cardToken: cardNumber, source: 'manual' });
  expect(response.statusCode).toBe(200);
  return response.json().valid;
}

async function subscriptionAmount(id: string): Promise<number | null> {
  const [row] = await t.db.select({ amountCents: subscriptions.amountCents }).from(subscriptions).where(eq(subscriptions.id, id));
  return row?.amountCents ?? null;
}

describe('POST /api/patient/dependents', () => {
  it('refuses bad values with the pt-BR message and writes nothing', async () => {
    const holder = await subscribedPatient();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...MARIA, cpf: '123.456.789-00' }, messages.validation.invalidCpf],
      [{ ...MARIA, fullName: 'Ma' }, messages.validation.fullNameMin],
      [{ ...MARIA, birthDate: '' }, messages.dependents.birthDateRequired],
      [{ ...MARIA, birthDate: '2999-01-01' }, messages.patientProfile.invalidBirthDate],
      [{ ...MARIA, relationship: 'vizinho' }, messages.dependents.relationshipRequired],
    ];
    for (const [payload, message] of cases) {
      const response = await add(holder.cookie, payload);
      expect(response.statusCode, message).toBe(400);
      expect(JSON.stringify(response.json().error), message).toContain(message);
    }
    expect(await t.db.select().from(dependents).where(eq(dependents.holderUserId, holder.userId))).toEqual([]);
  });

  it('adds a dependent with their own card at once, which validates at the clinic; the price shown is the price charged', async () => {
    const holder = await subscribedPatient();
    const before = await overviewOf(holder.cookie);
    expect(before).toMatchObject({ items: [], maxDependents: 2, addBlockedBy: null, amountCents: HOLDER_CENTS, amountWithOneMoreCents: HOLDER_CENTS + PER_DEPENDENT_CENTS });

    const response = await add(holder.cookie, { ...MARIA, cpf: '529.982.247-25' });
    expect(response.statusCode).toBe(201);
    const after = await overviewOf(holder.cookie);
    expect(after.items).toEqual([{ id: expect.any(String), fullName: MARIA.fullName, cpf: '52998224725', birthDate: MARIA.birthDate, relationship: 'child', cardNumber: expect.stringMatching(/^\d{16}$/) }]);
    expect(after.amountCents).toBe(before.amountWithOneMoreCents);
    expect(await subscriptionAmount(holder.subscriptionId)).toBe(HOLDER_CENTS + PER_DEPENDENT_CENTS);

    const cardNumber = after.items[0]?.cardNumber ?? '';
    expect(await validateAtClinic(cardNumber)).toBe(true);
    const cards = await call(holder.cookie, 'GET', '/api/patient/cards');
    expect(cards.json().items.map((card: { personName: string; isDependent: boolean }) => [card.personName, card.isDependent])).toEqual([
      [expect.any(String), false],
      [MARIA.fullName, true],
    ]);
    const [claim] = await t.db.select().from(cpfClaims).where(and(eq(cpfClaims.clinicId, programme.clinicId), eq(cpfClaims.cpf, '52998224725')));
    expect(claim).toMatchObject({ userId: holder.userId, dependentId: after.items[0]?.id });
    const audits = await t.db.select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.entityId, holder.subscriptionId), eq(auditLog.action, 'subscription.dependent_added')));
    expect(audits).toHaveLength(1);
  });

  it("stops at the plan's max_members (the holder counts as one) and explains it", async () => {
    const holder = await subscribedPatient();
    expect((await add(holder.cookie, { ...MARIA, cpf: THIRD_CPF })).statusCode).toBe(201);
    expect((await add(holder.cookie, { ...JOAO, cpf: FOURTH_CPF })).statusCode).toBe(201);
    const overview = await overviewOf(holder.cookie);
    expect(overview).toMatchObject({ maxDependents: 2, addBlockedBy: 'limitReached', amountCents: HOLDER_CENTS + 2 * PER_DEPENDENT_CENTS });
    const third = await add(holder.cookie, { ...MARIA, fullName: 'Terceiro Dependente', cpf: '153.509.460-56' });
    expect(third.statusCode).toBe(409);
    expect(third.json().error.message).toBe(messages.dependents.noRoom);
    expect((await overviewOf(holder.cookie)).items).toHaveLength(2);
  });

  it('refuses a CPF already in the programme (audited when it is another person’s), and a patient without an active plan', async () => {
    const holder = await subscribedPatient();
    const other = await subscribedPatient();
    const refused = await add(holder.cookie, { ...MARIA, cpf: cpfOfCaller(other.cookie) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(messages.checkoutRules.cpfTaken);
    const audits = await t.db.select({ details: auditLog.details }).from(auditLog).where(and(eq(auditLog.entityId, holder.userId), eq(auditLog.action, 'cpf.claim_refused')));
    expect(audits).toEqual([{ details: expect.objectContaining({ asDependent: true, heldByUserId: other.userId, heldByDependentId: null }) }]);

    const own = await add(holder.cookie, { ...MARIA, cpf: cpfOfCaller(holder.cookie) });
    expect(own.json().error.message).toBe(messages.dependents.holderCpf);
    expect((await add(holder.cookie, { ...MARIA, cpf: '081.757.340-27' })).statusCode).toBe(201);
    const twice = await add(holder.cookie, { ...JOAO, cpf: '081.757.340-27' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(messages.dependents.alreadyYours);
    expect((await overviewOf(holder.cookie)).items).toHaveLength(1);

    const unsubscribed = await createPatient(t, programme);
    expect((await overviewOf(unsubscribed.cookie)).addBlockedBy).toBe('noSubscription');
    const noPlan = await add(unsubscribed.cookie, { ...MARIA, cpf: '284.264.110-88' });
    expect(noPlan.statusCode).toBe(409);
    expect(noPlan.json().error.message).toBe(messages.dependents.notActive);
  });
});

describe('PATCH and DELETE /api/patient/dependents/:id', () => {
  it("edits and removes only the holder's own dependents, never another patient's or another clinic's", async () => {
    const holder = await subscribedPatient();
    expect((await add(holder.cookie, { ...MARIA, cpf: '862.385.150-15' })).statusCode).toBe(201);
    const [maria] = (await overviewOf(holder.cookie)).items;
    const id = maria?.id ?? '';
    const otherPatient = await subscribedPatient();
    const elsewhere = await createProgramme(t, 'Outra Clínica');
    const otherClinic = await createPatient(t, elsewhere);
    for (const intruder of [otherPatient.cookie, otherClinic.cookie]) {
      expect((await overviewOf(intruder)).items.map((item) => item.id)).not.toContain(id);
      expect((await call(intruder, 'PATCH', `/api/patient/dependents/${id}`, { ...MARIA, fullName: 'Invasor' })).statusCode).toBe(404);
      expect((await call(intruder, 'DELETE', `/api/patient/dependents/${id}`)).statusCode).toBe(404);
    }

    const edited = await call(holder.cookie, 'PATCH', `/api/patient/dependents/${id}`, { fullName: 'Maria Souza Lima Neta', birthDate: '2015-03-10', relationship: 'other' });
    expect(edited.statusCode).toBe(200);
    expect(dependentsOverviewSchema.parse(edited.json()).items[0]).toMatchObject({ fullName: 'Maria Souza Lima Neta', birthDate: '2015-03-10', relationship: 'other', cpf: '86238515015' });
    const badEdit = await call(holder.cookie, 'PATCH', `/api/patient/dependents/${id}`, { fullName: 'Maria', birthDate: '', relationship: 'other' });
    expect(badEdit.statusCode).toBe(400);
    expect(JSON.stringify(badEdit.json().error)).toContain(messages.dependents.birthDateRequired);
  });

  it('removal stops the card and lowers the price; adding the same CPF again brings back the same card', async () => {
    const holder = await subscribedPatient();
    await add(holder.cookie, { ...MARIA, cpf: '463.183.750-07' });
    const [maria] = (await overviewOf(holder.cookie)).items;
    const cardNumber = maria?.cardNumber ?? '';
    expect(await validateAtClinic(cardNumber)).toBe(true);

    const removed = await call(holder.cookie, 'DELETE', `/api/patient/dependents/${maria?.id ?? ''}`);
    await settleWork(t);
    expect(removed.statusCode).toBe(200);
    expect(dependentsOverviewSchema.parse(removed.json())).toMatchObject({ items: [], amountCents: HOLDER_CENTS });
    expect(await subscriptionAmount(holder.subscriptionId)).toBe(HOLDER_CENTS);
    expect(await validateAtClinic(cardNumber)).toBe(false);
    const cards = await call(holder.cookie, 'GET', '/api/patient/cards');
    expect(cards.json().items).toHaveLength(1);
    expect((await call(holder.cookie, 'DELETE', `/api/patient/dependents/${maria?.id ?? ''}`)).statusCode).toBe(404);

    expect((await add(holder.cookie, { ...MARIA, fullName: 'Maria de Volta', cpf: '463.183.750-07' })).statusCode).toBe(201);
    const back = await overviewOf(holder.cookie);
    expect(back.items).toEqual([expect.objectContaining({ id: maria?.id, fullName: 'Maria de Volta', cardNumber })]);
    expect(await validateAtClinic(cardNumber)).toBe(true);
  });
});

describe('the price of the next charge', () => {
  it('keeps the price the holder contracted when the clinic has raised the plan since: only the dependent is added', async () => {
    const holder = await subscribedPatient();
    expect(await subscriptionAmount(holder.subscriptionId)).toBe(HOLDER_CENTS);
    await t.db.update(subscriptionPlans).set({ priceCents: HOLDER_CENTS + 4_000 }).where(eq(subscriptionPlans.id, programme.planId));
    try {
      const before = await overviewOf(holder.cookie);
      expect(before).toMatchObject({ amountCents: HOLDER_CENTS, amountWithOneMoreCents: HOLDER_CENTS + PER_DEPENDENT_CENTS });
      expect((await add(holder.cookie, { ...MARIA, cpf: generateCpf() })).statusCode).toBe(201);
      expect(await subscriptionAmount(holder.subscriptionId)).toBe(HOLDER_CENTS + PER_DEPENDENT_CENTS);
      const [dependent] = (await overviewOf(holder.cookie)).items;
      await call(holder.cookie, 'DELETE', `/api/patient/dependents/${dependent?.id ?? ''}`);
      await settleWork(t);
      expect(await subscriptionAmount(holder.subscriptionId)).toBe(HOLDER_CENTS);
    } finally {
      await t.db.update(subscriptionPlans).set({ priceCents: HOLDER_CENTS }).where(eq(subscriptionPlans.id, programme.planId));
    }
  });


  it('follows the dependents from the next cycle, never the one already paid', async () => {
    clock = START;
    const holder = await subscribedPatient();
    await add(holder.cookie, { ...MARIA, cpf: '617.235.090-00' });
    await add(holder.cookie, { ...JOAO, cpf: '936.551.460-60' });
    const [first] = await t.db.select({ amountCents: payments.amountCents, dueDate: payments.dueDate }).from(payments).where(eq(payments.id, holder.paymentId));
    expect(first?.amountCents).toBe(HOLDER_CENTS);

    // Ten days before the paid-through date (24/12), the embedded provider makes the next cycle's charge.
    const renewalDeps = { keyBox: createClinicAsaasKeyBox(TEST_AUTH_SECRET), pixKey: undefined, log: { info: () => undefined, warn: () => undefined } };
    await createLocalRenewals(t.db, renewalDeps, new Date(saoPauloMidnight('2026-12-15').getTime() + 10 * 60 * 60 * 1000));
    const next = await t.db.select({ amountCents: payments.amountCents, dueDate: payments.dueDate }).from(payments).where(and(eq(payments.subscriptionId, holder.subscriptionId), gt(payments.dueDate, first?.dueDate ?? '')));
    expect(next).toEqual([{ amountCents: HOLDER_CENTS + 2 * PER_DEPENDENT_CENTS, dueDate: '2026-12-24' }]);
  });
});
