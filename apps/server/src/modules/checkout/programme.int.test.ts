import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, clinics, contractTerms, idempotencyKeys, subscriptionPlans, subscriptions, userRoles, users } from '../../db/schema.ts';
import { createPatient, createProgramme, checkoutBody, callAs, moneyTableCounts, newKey, type Programme } from '../../../test/checkout-kit.ts';
import { createSignedInUser, createTestApp, PUBLIC_URL, TEST_AUTH_SECRET, TEST_PASSWORD, type TestApp } from '../../../test/helpers.ts';
import { createPaymentProviders, createClinicAsaasKeyBox } from '../payments/providers/index.ts';
import { billingOf } from './billing-wiring.ts';
import { checkout } from './service.ts';
import type { CheckoutDeps } from './billing.ts';
import type { TenantContext } from '../../plugins/access-control.ts';

let t: TestApp;
let programme: Programme;
let adminCookie: string;
let staffCookie: string;

const PLANS = '/api/clinic/subscription-plans';

function planForm(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Plano Família',
    description: 'O titular e até 3 dependentes.',
    priceCents: 14_990,
    dependentPriceCents: 2_990,
    adhesionFeeCents: 0,
    billingCycle: 'monthly',
    features: ['Titular e até 3 dependentes', 'Consultas com 30% de desconto'],
    maxMembers: 4,
    discounts: { consultas: 30, exames: 25, procedimentos: 20 },
    waitingDays: 30,
    isActive: true,
    ...changes,
  };
}

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  programme = await createProgramme(t, 'Clínica dos Planos');
  adminCookie = (await createSignedInUser(t, 'clinic_admin', programme.clinicId)).cookie;
  staffCookie = (await createSignedInUser(t, 'clinic_staff', programme.clinicId)).cookie;
});
afterAll(async () => t.close());

describe('clinic plans', () => {
  it('creates, edits and deactivates a plan; staff read it; a deactivated plan keeps its subscriptions', async () => {
    const admin = callAs(t, adminCookie);
    const created = await admin('POST', PLANS, planForm(), newKey());
    expect(created.statusCode).toBe(201);
    const plan = created.json();
    expect(plan).toMatchObject({ name: 'Plano Família', priceCents: 14_990, dependentPriceCents: 2_990, maxMembers: 4, waitingDays: 30, discounts: { consultas: 30 }, isActive: true });

    const patient = await createPatient(t, programme);
    expect((await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme, { planId: plan.id }))).statusCode).toBe(201);

    const edited = await admin('PUT', `${PLANS}/${plan.id}`, planForm({ priceCents: 15_990, isActive: false, description: '' }));
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ priceCents: 15_990, isActive: false, description: null });
    const [subscription] = await t.db.select().from(subscriptions).where(eq(subscriptions.userId, patient.userId));
    expect(subscription).toMatchObject({ planId: plan.id, amountCents: 14_990, status: 'pending' });

    const staffList = await callAs(t, staffCookie)('GET', PLANS);
    expect(staffList.json().items.map((item: { id: string }) => item.id)).toContain(plan.id);
    expect((await callAs(t, staffCookie)('POST', PLANS, planForm())).statusCode).toBe(403);
    const patientPlans = await callAs(t, patient.cookie)('GET', '/api/patient/subscription-plans');
    expect(patientPlans.json().items.map((item: { id: string }) => item.id)).not.toContain(plan.id);

    const audit = await t.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, plan.id));
    expect(audit.map((row) => row.action).sort()).toEqual(['subscription_plan.created', 'subscription_plan.updated']);
  });

  it.each([
    ['a blank name', { name: ' ' }, messages.planForm.nameRequired],
    ['a price below R$ 5,00', { priceCents: 100 }, messages.planForm.priceMin],
    ['a fractional price', { priceCents: 10.5 }, messages.planForm.priceInvalid],
    ['21 members', { maxMembers: 21 }, messages.planForm.maxMembersRange],
    ['0 members', { maxMembers: 0 }, messages.planForm.maxMembersRange],
    ['a discount over 100', { discounts: { consultas: 101, exames: 25, procedimentos: 20 } }, messages.planForm.discountRange],
    ['a negative discount', { discounts: { consultas: 30, exames: -1, procedimentos: 20 } }, messages.planForm.discountRange],
    ['a carência over a year', { waitingDays: 366 }, messages.planForm.waitingDaysRange],
    ['a negative adhesion fee', { adhesionFeeCents: -1 }, messages.planForm.feeInvalid],
    ['a blank feature', { features: ['  '] }, messages.planForm.featureRequired],
  ])('refuses %s field by field in pt-BR, writing nothing', async (_name, changes, message) => {
    const [before] = await t.db.select({ total: count() }).from(subscriptionPlans);
    const response = await callAs(t, adminCookie)('POST', PLANS, planForm(changes));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    const [after] = await t.db.select({ total: count() }).from(subscriptionPlans);
    expect(after?.total).toBe(before?.total);
  });

  it("keeps clinics apart: another clinic's plan is 404 to edit and absent from the list", async () => {
    const other = await createProgramme(t, 'Clínica Alheia');
    const response = await callAs(t, adminCookie)('PUT', `${PLANS}/${other.planId}`, planForm({ name: 'Invadido' }));
    expect(response.statusCode).toBe(404);
    const [untouched] = await t.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, other.planId));
    expect(untouched?.name).not.toBe('Invadido');
    const list = (await callAs(t, adminCookie)('GET', PLANS)).json().items.map((item: { id: string }) => item.id);
    expect(list).not.toContain(other.planId);
  });

  it('creates one plan for a repeated Idempotency-Key, and a new one once the key is a day old', async () => {
    const admin = callAs(t, adminCookie);
    const key = newKey();
    const first = await admin('POST', PLANS, planForm({ name: 'Plano Repetido' }), key);
    const second = await admin('POST', PLANS, planForm({ name: 'Plano Repetido' }), key);
    expect(second.json().id).toBe(first.json().id);
    expect(await t.db.select().from(subscriptionPlans).where(and(eq(subscriptionPlans.clinicId, programme.clinicId), eq(subscriptionPlans.name, 'Plano Repetido')))).toHaveLength(1);

    await t.db.update(idempotencyKeys).set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) }).where(eq(idempotencyKeys.key, key));
    const later = await admin('POST', PLANS, planForm({ name: 'Plano Repetido' }), key);
    expect(later.statusCode).toBe(201);
    expect(later.json().id).not.toBe(first.json().id);
  });
});

describe('contract terms', () => {
  it('publishes a new version on every save, which checkout then requires; refuses terms without "não é plano de saúde"', async () => {
    const own = await createProgramme(t, 'Clínica dos Termos');
    const admin = callAs(t, (await createSignedInUser(t, 'clinic_admin', own.clinicId)).cookie);
    const current = (await admin('GET', '/api/clinic/terms')).json();
    expect(current.version).toBe(1);

    const bad = await admin('PUT', '/api/clinic/terms', { body: 'Um texto longo o bastante. '.repeat(20) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(messages.contractTerms.mustSayNotHealthPlan);
    expect((await admin('PUT', '/api/clinic/terms', { body: 'curto, não é plano de saúde' })).json().error.message).toBe(messages.contractTerms.bodyMin);

    const saved = await admin('PUT', '/api/clinic/terms', { body: `${current.body}\n7. Foro: comarca de São Paulo.` });
    expect(saved.json()).toMatchObject({ version: 2 });
    expect((await admin('PUT', '/api/clinic/terms', { body: current.body })).json().version).toBe(3);
    expect(await t.db.select().from(contractTerms).where(eq(contractTerms.clinicId, own.clinicId))).toHaveLength(3);

    const staff = callAs(t, (await createSignedInUser(t, 'clinic_staff', own.clinicId)).cookie);
    expect((await staff('PUT', '/api/clinic/terms', { body: current.body })).statusCode).toBe(403);
  });
});

describe('a new clinic', () => {
  it("starts with one plan it can edit and version 1 of the terms, whether an admin creates it or it signs up", async () => {
    const admin = await createSignedInUser(t, 'admin');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/clinics',
      headers: { cookie: admin.cookie, origin: PUBLIC_URL },
      payload: { name: 'Clínica Nova', cnpj: '45.723.174/0001-10', slug: 'clinica-nova-checkout', domain: '', planId: null, status: 'active', city: '', state: '' },
    });
    expect(response.statusCode).toBe(201);
    const clinicId = response.json().id;
    const plans = await t.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.clinicId, clinicId));
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({ name: messages.planForm.starterName, isActive: true, priceCents: 3990 });
    const [terms] = await t.db.select().from(contractTerms).where(eq(contractTerms.clinicId, clinicId));
    expect(terms).toMatchObject({ version: 1 });
    expect(terms?.body).toContain('não é plano de saúde');
    expect(terms?.body).toContain('Clínica Nova');

    const owner = await createSignedInUser(t, null);
    await t.db.update(users).set({ emailVerified: true }).where(eq(users.id, owner.userId));
    const onboarded = await t.app.inject({
      method: 'POST',
      url: '/api/onboarding/clinic',
      headers: { cookie: owner.cookie, origin: PUBLIC_URL },
      payload: { name: 'Clínica Própria', cnpj: '11.444.777/0001-61', slug: 'clinica-propria-checkout' },
    });
    expect(onboarded.statusCode).toBeLessThan(300);
    const [own] = await t.db.select({ id: clinics.id }).from(clinics).where(eq(clinics.slug, 'clinica-propria-checkout'));
    expect(await t.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.clinicId, own!.id))).toHaveLength(1);
    expect(await t.db.select().from(contractTerms).where(eq(contractTerms.clinicId, own!.id))).toHaveLength(1);
  });
});

describe("enrolment on a clinic's site ('Sou paciente')", () => {
  async function slugOf(clinicId: string): Promise<string> {
    const [row] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
    return row!.slug;
  }
  function signInOn(host: string, email: string) {
    return t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: { host, origin: `http://${host}` }, payload: { email, password: TEST_PASSWORD } });
  }

  it('makes an account without a role a patient of the clinic on its first sign-in there, with an audit row, and lets it subscribe', async () => {
    const host = `${await slugOf(programme.clinicId)}.localhost`;
    const account = await createSignedInUser(t, null);
    const signedIn = await signInOn(host, account.email);
    expect(signedIn.statusCode).toBe(200);
    const [role] = await t.db.select().from(userRoles).where(eq(userRoles.userId, account.userId));
    expect(role).toMatchObject({ role: 'patient', clinicId: programme.clinicId });
    const audit = await t.db.select().from(auditLog).where(and(eq(auditLog.entityId, account.userId), eq(auditLog.action, 'role.assigned')));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.details).toMatchObject({ role: 'patient', via: 'first_sign_in_on_clinic_site' });

    const cookie = signedIn.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const terms = await t.app.inject({ method: 'GET', url: '/api/patient/terms', headers: { host, cookie } });
    expect(terms.statusCode).toBe(200);
  });

  it("still refuses another clinic's people, and does not enrol on a site awaiting approval", async () => {
    const host = `${await slugOf(programme.clinicId)}.localhost`;
    const other = await createProgramme(t, 'Clínica Beta Enrol');
    const staffB = await createSignedInUser(t, 'clinic_staff', other.clinicId);
    const refused = await signInOn(host, staffB.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('WRONG_CLINIC');

    const pending = await createProgramme(t, 'Clínica Aguardando');
    await t.db.update(clinics).set({ status: 'trial', approvedAt: null, trialEndsAt: new Date(Date.now() + 86_400_000) }).where(eq(clinics.id, pending.clinicId));
    await t.app.hostResolver.invalidate();
    const visitor = await createSignedInUser(t, null);
    const response = await signInOn(`${await slugOf(pending.clinicId)}.localhost`, visitor.email);
    expect(response.statusCode).toBe(403);
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, visitor.userId))).toHaveLength(0);
  });
});

describe('checkout when the provider fails', () => {
  it('leaves no pending subscription, no acceptance and no charge, and says nothing was charged', async () => {
    const patient = await createPatient(t, programme);
    const interim = billingOf(t.db, createPaymentProviders(t.config.payments, { db: t.db }), createClinicAsaasKeyBox(TEST_AUTH_SECRET));
    const broken = { ...interim.providerForNew(), createSubscription: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const deps: CheckoutDeps = { db: t.db, billing: { ...interim, providerForNew: () => broken }, now: () => new Date(), jobs: t.app.jobs, log: t.app.log };
    const ctx: TenantContext = {
      userId: patient.userId,
      sessionId: 'test',
      email: patient.email,
      fullName: 'Paciente',
      emailVerified: true,
      role: 'patient',
      clinicId: programme.clinicId,
      clinicStanding: 'open',
      twoFactor: { required: false, enabled: false, verified: false, passkey: false },
    };
    const input = { planId: programme.planId, paymentMethod: 'pix' as const, customerData: { name: 'Maria da Silva', email: 'maria@teste.dev', cpfCnpj: '52998224725' }, termsId: programme.termsId, acceptTerms: true as const };
    const before = await moneyTableCounts(t);
    await expect(checkout(deps, ctx, input, '127.0.0.1')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: messages.checkoutRules.providerUnavailable });
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.userId, patient.userId))).toHaveLength(0);
    expect(await moneyTableCounts(t)).toEqual(before);

    // The provider back: the same patient subscribes normally.
    const answer = await checkout({ ...deps, billing: interim }, ctx, input, '127.0.0.1');
    expect(answer.subscription.status).toBe('pending');
  });
});
