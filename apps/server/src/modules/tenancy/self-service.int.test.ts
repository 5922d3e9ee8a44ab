import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { messages } from '@carteirinha/shared/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinics, plans, subscriptionPlans, userRoles, users } from '../../db/schema.ts';
import { PUBLIC_URL, TEST_PASSWORD, cookieHeaderOf, createSignedInUser, createTestApp, uniqueEmail, type TestApp } from '../../../test/helpers.ts';

/**
 * Issue 12, item 21: a self-service sign-up's site awaits 'Aprovar Cadastro' before it takes patients, onboarding
 * offers only the self-service plans, and the platform's own names cannot be a clinic's address.
 */

let t: TestApp;
let adminCookie: string;
let planIds: { starter: string; professional: string; enterprise: string; retired: string };

beforeAll(async () => {
  t = await createTestApp();
  adminCookie = (await createSignedInUser(t, 'admin')).cookie;
  const rows = await t.db
    .insert(plans)
    .values([
      { name: 'Starter', priceCents: 19_700 },
      { name: 'Professional', priceCents: 39_700 },
      // "Sob consulta" (specification §9): no list price.
      { name: 'Enterprise', priceCents: null },
      { name: 'Antigo', priceCents: 9_900, isActive: false },
    ])
    .returning({ id: plans.id, name: plans.name });
  const idOf = (name: string) => rows.find((row) => row.name === name)!.id;
  planIds = { starter: idOf('Starter'), professional: idOf('Professional'), enterprise: idOf('Enterprise'), retired: idOf('Antigo') };
});
afterAll(async () => {
  await t.close();
});

let cnpjIndex = 0;
/** Valid CNPJs (check digits computed), one per onboarding. */
const CNPJS = ['45.723.174/0001-10', '11.444.777/0001-61', '34.028.316/0001-03', '11.222.333/0001-81', '12.ABC.345/01DE-35'];

/** An account with no role whose e-mail is confirmed: onboarding asks for one (item 1, ADR 006). */
async function verifiedAccount(): Promise<{ userId: string; email: string; cookie: string }> {
  const account = await createSignedInUser(t, null);
  await t.db.update(users).set({ emailVerified: true }).where(eq(users.id, account.userId));
  return account;
}

function onboard(cookie: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/onboarding/clinic', headers: { cookie, origin: PUBLIC_URL }, payload });
}

function onHost(host: string, cookie?: string) {
  return { host, origin: `http://${host}`, ...(cookie ? { cookie } : {}) };
}

async function signUpOn(host: string, email: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers: onHost(host), payload: { email, password: TEST_PASSWORD, name: 'Paciente do Site' } });
}

async function signInOn(host: string, email: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: onHost(host), payload: { email, password: TEST_PASSWORD } });
}

async function search(q: string): Promise<string[]> {
  const response = await t.app.inject({ method: 'GET', url: `/api/public/clinics?q=${encodeURIComponent(q)}` });
  return response.json<{ items: { name: string }[] }>().items.map((item) => item.name);
}

describe('a self-service site before approval', () => {
  let owner: { email: string; cookie: string };
  let clinicId: string;
  const slug = 'sorriso-pendente';
  const host = `${slug}.localhost`;

  beforeAll(async () => {
    owner = await verifiedAccount();
    const created = await onboard(owner.cookie, { name: 'Clínica Sorriso Pendente', cnpj: CNPJS[cnpjIndex++], slug });
    expect(created.statusCode).toBe(201);
    clinicId = created.json<{ clinicId: string }>().clinicId;
    // The owner already made a patient plan: it is not offered before approval.
    await t.db.insert(subscriptionPlans).values({ clinicId, name: 'Plano Sorriso', priceCents: 4_990 });
  });

  it('says it awaits approval and offers no plans', async () => {
    const tenant = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host } });
    expect(tenant.json()).toMatchObject({ kind: 'clinic', awaitingApproval: true, plans: [], clinic: { id: clinicId, name: 'Clínica Sorriso Pendente' } });
  });

  it('refuses a patient sign-up there, in pt-BR, and creates no account', async () => {
    const email = uniqueEmail('cedo');
    const response = await signUpOn(host, email);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe('Esta clínica ainda aguarda aprovação e não aceita cadastros de pacientes. Volte em breve.');
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it("does not make a patient of an account with no role that signs in there ('Sou paciente')", async () => {
    const visitor = await createSignedInUser(t, null);
    const response = await signInOn(host, visitor.email);
    expect(response.statusCode).toBe(403);
    expect(response.cookies).toHaveLength(0);
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, visitor.userId))).toHaveLength(0);
  });

  it('is not listed by "Sou paciente"', async () => {
    expect(await search('Sorriso Pendente')).toEqual([]);
  });

  it('lets its owner sign in on it and prepare the clinic, and tells the portal it awaits approval', async () => {
    const signedIn = await signInOn(host, owner.email);
    expect(signedIn.statusCode).toBe(200);
    const cookie = cookieHeaderOf(signedIn);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: onHost(host, cookie) });
    expect(me.json()).toMatchObject({ role: 'clinic_admin', clinic: { id: clinicId, standing: 'open', awaitingApproval: true } });
    const branding = await t.app.inject({
      method: 'PATCH',
      url: '/api/clinic/branding',
      headers: onHost(host, cookie),
      payload: { displayName: 'Sorriso Pendente', primaryColor: '#7c3aed' },
    });
    expect(branding.statusCode).toBe(200);
  });

  it("after 'Aprovar Cadastro' the site opens: its plans, patient sign-up, the search", async () => {
    const approved = await t.app.inject({ method: 'POST', url: `/api/admin/clinics/${clinicId}/approve`, headers: { cookie: adminCookie, origin: PUBLIC_URL } });
    expect(approved.statusCode).toBe(200);
    const tenant = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host } });
    // The plan added above; the starter plan every new clinic gets waits for its owner to save it (next test).
    expect(tenant.json()).toMatchObject({ awaitingApproval: false, plans: [{ name: 'Plano Sorriso' }] });
    const signedUp = await signUpOn(host, uniqueEmail('aprovado'));
    expect(signedUp.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: onHost(host, cookieHeaderOf(signedUp)) });
    expect(me.json()).toMatchObject({ role: 'patient', clinic: { id: clinicId, awaitingApproval: false } });
    expect(await search('Sorriso Pendente')).toEqual(['Sorriso Pendente']);
  });
});

describe('the starter plan (issue 25)', () => {
  it('is not on sale, nor open to checkout, until the owner saves it once; then it is', async () => {
    const owner = await verifiedAccount();
    const created = await onboard(owner.cookie, { name: 'Clínica Inicial', cnpj: CNPJS[cnpjIndex++], slug: 'clinica-inicial' });
    expect(created.statusCode).toBe(201);
    const clinicId = created.json<{ clinicId: string }>().clinicId;
    const host = 'clinica-inicial.localhost';
    await t.app.inject({ method: 'POST', url: `/api/admin/clinics/${clinicId}/approve`, headers: { cookie: adminCookie, origin: PUBLIC_URL } });

    const before = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host } });
    expect(before.json()).toMatchObject({ kind: 'clinic', awaitingApproval: false, plans: [] });
    const signedIn = await signInOn(host, owner.email);
    const headers = onHost(host, cookieHeaderOf(signedIn));
    const plans = await t.app.inject({ method: 'GET', url: '/api/clinic/subscription-plans', headers });
    const [starter] = plans.json<{ items: { id: string; name: string; awaitingReview: boolean }[] }>().items;
    expect(starter).toMatchObject({ name: 'Plano Essencial', awaitingReview: true });

    // A patient who names it at checkout is refused as for a plan that is not on sale.
    const patient = await signUpOn(host, uniqueEmail('cedo-demais'));
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/patient/subscriptions',
      headers: { ...onHost(host, cookieHeaderOf(patient)), 'idempotency-key': randomUUID() },
      payload: {
        planId: starter?.id,
        paymentMethod: 'pix',
        customerData: { name: 'Paciente Cedo', email: 'cedo@teste.dev', cpfCnpj: '529.982.247-25' },
        termsId: randomUUID(),
        acceptTerms: true,
      },
    });
    expect(checkout.statusCode).toBe(400);
    expect(checkout.json().error.message).toBe(messages.checkoutRules.planUnavailable);

    const plan = await t.app.inject({ method: 'GET', url: `/api/clinic/subscription-plans/${starter?.id}`, headers });
    const { id: _id, awaitingReview: _awaiting, isActive, ...form } = plan.json<Record<string, unknown> & { id: string; awaitingReview: boolean; isActive: boolean }>();
    const saved = await t.app.inject({ method: 'PUT', url: `/api/clinic/subscription-plans/${starter?.id}`, headers, payload: { ...form, description: form.description ?? '', isActive } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ awaitingReview: false });
    const after = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host } });
    expect(after.json()).toMatchObject({ plans: [{ name: 'Plano Essencial' }] });
  });
});

describe('onboarding plans', () => {
  it('refuses the Enterprise plan ("sob consulta") and an inactive one, and creates nothing', async () => {
    const { cookie, userId } = await verifiedAccount();
    const enterprise = await onboard(cookie, { name: 'Clínica Grande', cnpj: CNPJS[cnpjIndex], slug: 'clinica-grande', planId: planIds.enterprise });
    expect(enterprise.statusCode).toBe(400);
    expect(enterprise.json().error.message).toBe('Este plano é contratado sob consulta. Escolha outro plano ou fale com a equipe da Carteirinha.');
    const retired = await onboard(cookie, { name: 'Clínica Grande', cnpj: CNPJS[cnpjIndex], slug: 'clinica-grande', planId: planIds.retired });
    expect(retired.statusCode).toBe(400);
    expect(await t.db.select().from(clinics).where(eq(clinics.slug, 'clinica-grande'))).toHaveLength(0);
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, userId))).toHaveLength(0);
  });

  it('accepts Starter or Professional, and chooses the cheapest self-service plan when none is given', async () => {
    const chosen = await onboard((await verifiedAccount()).cookie, {
      name: 'Clínica Profissional',
      cnpj: CNPJS[cnpjIndex++],
      slug: 'clinica-profissional',
      planId: planIds.professional,
    });
    expect(chosen.statusCode).toBe(201);
    const defaulted = await onboard((await verifiedAccount()).cookie, { name: 'Clínica Padrão', cnpj: CNPJS[cnpjIndex++], slug: 'clinica-padrao' });
    expect(defaulted.statusCode).toBe(201);
    const rows = await t.db.select({ slug: clinics.slug, planId: clinics.planId }).from(clinics);
    expect(rows.find((row) => row.slug === 'clinica-profissional')?.planId).toBe(planIds.professional);
    expect(rows.find((row) => row.slug === 'clinica-padrao')?.planId).toBe(planIds.starter);
  });
});

describe('reserved addresses', () => {
  const RESERVED = ['localhost', 'LocalHost', 'www', 'api', 'admin', 'app', 'mail', 'smtp', 'static', 'assets', 'cdn', 'status', 'docs', 'clinica', 'paciente', 'auth', 'carteirinha'];

  it('onboarding refuses each of them in pt-BR', async () => {
    const { cookie } = await verifiedAccount();
    for (const slug of RESERVED) {
      const response = await onboard(cookie, { name: 'Clínica Reservada', cnpj: CNPJS[cnpjIndex], slug });
      expect(response.statusCode, slug).toBe(400);
      expect(response.json().error.message, slug).toBe('Este endereço é reservado. Escolha outro.');
    }
  });

  it("the admin's 'Nova Clínica' refuses them too", async () => {
    const form = { name: 'Clínica do Admin', cnpj: CNPJS[cnpjIndex], domain: '', planId: null, status: 'active', city: '', state: '' };
    for (const slug of ['localhost', 'carteirinha', 'cdn']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/admin/clinics',
        headers: { cookie: adminCookie, origin: PUBLIC_URL },
        payload: { ...form, slug },
      });
      expect(response.statusCode, slug).toBe(400);
      expect(response.json().error.message, slug).toBe('Este endereço é reservado. Escolha outro.');
    }
    expect(await t.db.select().from(clinics).where(eq(clinics.name, 'Clínica do Admin'))).toHaveLength(0);
  });
});
