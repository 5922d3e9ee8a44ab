import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, clinics, emailOutbox, plans, subscriptions, userRoles } from '../../db/schema.ts';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { changeSettings, createClinic, createSignedInUser, createSubscriptionWithPayments, createTestApp, settleWork, type TestApp, apiAs } from '../../../test/helpers.ts';
import { deleteClinicWithTeam } from './repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A main domain with a real shape, so that "the main domain or under it" can be tried. */
const MAIN_DOMAIN = 'carteirinha.com.br';

let t: TestApp;
let cookie: string;
let planId: string;

beforeAll(async () => {
  t = await createTestApp({ MAIN_DOMAIN });
  cookie = (await createSignedInUser(t, 'admin')).cookie;
  const [plan] = await t.db.insert(plans).values({ name: 'Starter', priceCents: 29_700, maxPatients: 100 }).returning({ id: plans.id });
  planId = plan!.id;
});
afterAll(async () => {
  await t.close();
});

const api = apiAs(() => t, () => cookie);

const form = (overrides: Record<string, unknown> = {}) => ({
  name: 'Clínica São José',
  cnpj: '45.723.174/0001-10',
  slug: 'sao-jose',
  domain: '',
  planId,
  status: 'active',
  city: 'Curitiba',
  state: 'pr',
  ...overrides,
});

let cnpjSeed = 10_000_000;
/** A valid numeric CNPJ (branch 0001) that no other clinic of this file has. */
function freshCnpj(): string {
  cnpjSeed += 7919;
  const digits = [...String(cnpjSeed).padStart(8, '0'), '0', '0', '0', '1'].map(Number);
  for (const weights of [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ]) {
    const rest = digits.reduce((sum, digit, index) => sum + digit * weights[index]!, 0) % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  return digits.join('');
}

async function createThroughApi(overrides: Record<string, unknown> = {}) {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const response = await api('POST', '/api/admin/clinics', form({ name: `Clínica ${suffix}`, cnpj: freshCnpj(), slug: `c-${suffix}`, ...overrides }));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string; name: string }>();
}

async function stateOf(clinicId: string) {
  const [row] = await t.db.select().from(clinics).where(eq(clinics.id, clinicId));
  return row!;
}

describe('admin clinics', () => {
  it('creates, reads, edits and deletes a clinic, writing each change to the audit log', async () => {
    const created = await api('POST', '/api/admin/clinics', form());
    expect(created.statusCode).toBe(201);
    const clinic = created.json();
    expect(clinic).toMatchObject({
      name: 'Clínica São José',
      cnpj: '45723174000110',
      slug: 'sao-jose',
      domain: null,
      planName: 'Starter',
      state: 'PR',
      revenueCents: null,
      patientCount: 0,
      url: `http://sao-jose.${MAIN_DOMAIN}:3999`,
    });
    // An admin's clinic is accepted from the start: it never waits in 'Aprovar Cadastro'.
    expect(clinic.approvedAt).not.toBeNull();

    const detail = await api('GET', `/api/admin/clinics/${clinic.id}`);
    // A new clinic starts with one plan it can edit (issue 14).
    expect(detail.json()).toMatchObject({ url: `http://sao-jose.${MAIN_DOMAIN}:3999`, staffCount: 0, subscriptionPlanCount: 1 });

    const edited = await api('PUT', `/api/admin/clinics/${clinic.id}`, form({ name: 'Clínica São José Centro', domain: 'Cartao.SaoJose.com.br', status: 'suspended' }));
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Clínica São José Centro', domain: 'cartao.saojose.com.br', status: 'suspended', url: 'http://cartao.saojose.com.br' });

    expect((await api('DELETE', `/api/admin/clinics/${clinic.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(clinics).where(eq(clinics.id, clinic.id))).toEqual([]);
    const trail = await t.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, clinic.id)).orderBy(desc(auditLog.createdAt));
    expect(trail.map((row) => row.action).sort()).toEqual(['clinic.created', 'clinic.deleted', 'clinic.updated']);
  });

  it('validates the form in pt-BR and changes nothing', async () => {
    await api('POST', '/api/admin/clinics', form({ cnpj: '11.444.777/0001-61', slug: 'ocupada', domain: 'cartao.ocupada.com.br' }));
    const [inactive] = await t.db.insert(plans).values({ name: 'Antigo', priceCents: 9_900, isActive: false }).returning({ id: plans.id });
    const [noDomain] = await t.db.insert(plans).values({ name: 'Básico', priceCents: 4_900, customDomain: false }).returning({ id: plans.id });
    const before = (await t.db.select().from(clinics)).length;
    const cases: [Record<string, unknown>, number, string][] = [
      [{}, 400, 'Nome é obrigatório'],
      [form({ cnpj: '11.222.333/0001-82' }), 400, 'CNPJ inválido'],
      [form({ cnpj: undefined }), 400, 'CNPJ inválido'],
      [form({ name: '' }), 400, 'Nome é obrigatório'],
      [form({ name: 'x'.repeat(121) }), 400, 'Nome deve ter no máximo 120 caracteres'],
      [form({ city: 'x'.repeat(81) }), 400, 'Cidade deve ter no máximo 80 caracteres'],
      [form({ state: 'XYZ' }), 400, 'Use a sigla do estado, como SP'],
      [form({ state: 'S1' }), 400, 'Use a sigla do estado, como SP'],
      [form({ status: 'closed' }), 400, 'Selecione um status válido'],
      [form({ planId: 'não é um id' }), 400, 'Selecione um plano válido'],
      [form({ planId: '00000000-0000-4000-8000-000000000000' }), 400, 'Selecione um plano válido'],
      [form({ planId: inactive!.id }), 400, 'Este plano está inativo. Selecione um plano ativo.'],
      [form({ domain: 'não é domínio' }), 400, 'Informe um domínio válido, como cartao.suaclinica.com.br'],
      [form({ domain: 'cartao.saojose.com.br', planId: noDomain!.id }), 400, 'O plano escolhido não inclui domínio próprio. Escolha outro plano ou deixe o domínio em branco.'],
      [form({ domain: 'cartao.saojose.com.br', planId: null }), 400, 'O plano escolhido não inclui domínio próprio. Escolha outro plano ou deixe o domínio em branco.'],
      [form({ cnpj: '11.444.777/0001-61', slug: 'livre' }), 409, 'Já existe uma clínica com este CNPJ.'],
      [form({ cnpj: '12.ABC.345/01DE-35', slug: 'ocupada' }), 409, 'Este endereço já está em uso. Escolha outro.'],
      [form({ cnpj: '12.ABC.345/01DE-35', slug: 'livre', domain: 'cartao.ocupada.com.br' }), 409, 'Este domínio já está em uso por outra clínica.'],
    ];
    for (const [payload, status, message] of cases) {
      const response = await api('POST', '/api/admin/clinics', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().error.message, JSON.stringify(payload)).toBe(message);
    }
    expect((await t.db.select().from(clinics)).length).toBe(before);
  });

  it("refuses as a clinic's own domain the main domain and any address under it", async () => {
    const platformOwned = `Este endereço é da própria plataforma (${MAIN_DOMAIN}). Para ele, use o Subdomínio; o domínio próprio é um domínio da clínica.`;
    for (const domain of [MAIN_DOMAIN, `www.${MAIN_DOMAIN}`, `outra-clinica.${MAIN_DOMAIN}`, `a.b.${MAIN_DOMAIN.toUpperCase()}`]) {
      const response = await api('POST', '/api/admin/clinics', form({ cnpj: freshCnpj(), slug: 'dominio-livre', domain }));
      expect(response.statusCode, domain).toBe(400);
      expect(response.json().error.message).toBe(platformOwned);
    }
    // Only the name's labels count: a domain that merely ends with the same letters is the clinic's.
    const lookalike = await createThroughApi({ domain: `cartao.nao${MAIN_DOMAIN}` });
    const edited = await api('PUT', `/api/admin/clinics/${lookalike.id}`, form({ ...(await formOf(lookalike.id)), domain: `clinica.${MAIN_DOMAIN}` }));
    expect(edited.statusCode).toBe(400);
    expect(edited.json().error.message).toBe(platformOwned);
  });

  it('keeps a clinic on the inactive plan it already has, but moves none onto it', async () => {
    const clinic = await createThroughApi();
    const [retired] = await t.db.insert(plans).values({ name: 'Aposentado', priceCents: 19_900 }).returning({ id: plans.id });
    expect((await api('PUT', `/api/admin/clinics/${clinic.id}`, { ...(await formOf(clinic.id)), planId: retired!.id })).statusCode).toBe(200);
    await t.db.update(plans).set({ isActive: false }).where(eq(plans.id, retired!.id));

    const renamed = await api('PUT', `/api/admin/clinics/${clinic.id}`, { ...(await formOf(clinic.id)), name: 'Ainda no Plano Antigo' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ planId: retired!.id, name: 'Ainda no Plano Antigo' });

    const other = await createThroughApi();
    const moved = await api('PUT', `/api/admin/clinics/${other.id}`, { ...(await formOf(other.id)), planId: retired!.id });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error.message).toBe('Este plano está inativo. Selecione um plano ativo.');
  });

  it('refuses to delete a clinic with patients and suggests suspending it', async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica Com Pacientes');
    await createSignedInUser(t, 'patient', clinicId);
    const response = await api('DELETE', `/api/admin/clinics/${clinicId}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe('Esta clínica tem pacientes ou pagamentos e não pode ser excluída. Suspenda-a em vez disso.');
    expect(await t.db.select().from(clinics).where(eq(clinics.id, clinicId))).toHaveLength(1);
  });

  it('refuses to delete a clinic with a subscription, even with no patient role left', async () => {
    const clinic = await createClinic(t.db, 'Clínica Com Assinatura');
    const { userId, subscriptionId } = await createSubscriptionWithPayments(t, clinic, []);
    await t.db.delete(userRoles).where(eq(userRoles.userId, userId));
    const response = await api('DELETE', `/api/admin/clinics/${clinic.clinicId}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe('Esta clínica tem pacientes ou pagamentos e não pode ser excluída. Suspenda-a em vez disso.');
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId))).toHaveLength(1);
  });

  it('deleting a clinic without patients removes its staff roles with it', async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica Sem Pacientes');
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    const owner = await createSignedInUser(t, 'clinic_admin', clinicId);
    expect((await api('DELETE', `/api/admin/clinics/${clinicId}`)).statusCode).toBe(204);
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, staff.userId))).toEqual([]);
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, owner.userId))).toEqual([]);
  });

  it("never wipes a patient's role with the clinic: the foreign key refuses the delete instead", async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica Com Paciente Escondido');
    const patient = await createSignedInUser(t, 'patient', clinicId);
    const attempt = t.db.transaction((tx) => deleteClinicWithTeam(tx, clinicId));
    await expect(attempt).rejects.toSatisfy(isForeignKeyViolation);
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, patient.userId))).toHaveLength(1);
    expect(await t.db.select().from(clinics).where(eq(clinics.id, clinicId))).toHaveLength(1);
  });

  it('answers 404 for a clinic that does not exist', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await api('DELETE', `/api/admin/clinics/${missing}`)).statusCode).toBe(404);
    expect((await api('PUT', `/api/admin/clinics/${missing}`, form({ cnpj: freshCnpj(), slug: 'inexistente' }))).statusCode).toBe(404);
  });

  it('searches by name ignoring case and accents, and by CNPJ digits with or without punctuation', async () => {
    await api('POST', '/api/admin/clinics', form({ name: 'Clínica Águas Claras', cnpj: '34.028.316/0001-03', slug: 'aguas-claras' }));
    for (const q of ['aguas claras', 'ÁGUAS', 'clinica aguas', '34028316', '34.028.316/0001']) {
      const response = await api('GET', `/api/admin/clinics?q=${encodeURIComponent(q)}`);
      expect(response.json().items.map((c: { name: string }) => c.name), q).toContain('Clínica Águas Claras');
    }
    expect((await api('GET', '/api/admin/clinics?q=inexistente')).json()).toMatchObject({ items: [], total: 0 });
  });

  it('pages the list newest first, in a stable order, with the total', async () => {
    const marker = `Paginada ${Date.now().toString(36)}`;
    const created: string[] = [];
    for (let index = 0; index < 5; index += 1) created.push((await createThroughApi({ name: `${marker} ${index}` })).id);
    // Three of them made in the same instant: the id decides their order, the same on every page.
    await t.db.update(clinics).set({ createdAt: new Date('2026-01-01T12:00:00Z') }).where(eq(clinics.name, `${marker} 1`));
    await t.db.update(clinics).set({ createdAt: new Date('2026-01-01T12:00:00Z') }).where(eq(clinics.name, `${marker} 2`));
    await t.db.update(clinics).set({ createdAt: new Date('2026-01-01T12:00:00Z') }).where(eq(clinics.name, `${marker} 3`));

    const pageOf = async (page: number) => (await api('GET', `/api/admin/clinics?q=${encodeURIComponent(marker)}&pageSize=2&page=${page}`)).json();
    const [first, second, third, beyond] = [await pageOf(1), await pageOf(2), await pageOf(3), await pageOf(4)];
    expect([first.total, second.total, third.total]).toEqual([5, 5, 5]);
    expect(second).toMatchObject({ page: 2, pageSize: 2 });
    const ids = [...first.items, ...second.items, ...third.items].map((clinic: { id: string }) => clinic.id);
    expect(new Set(ids).size).toBe(5);
    expect(ids.sort()).toEqual([...created].sort());
    expect(beyond).toMatchObject({ items: [], total: 5, page: 4 });
    // The same page twice is the same rows in the same order.
    expect((await pageOf(2)).items.map((clinic: { id: string }) => clinic.id)).toEqual(second.items.map((clinic: { id: string }) => clinic.id));
  });

  it('counts the summary cards on the server', async () => {
    const summary = (await api('GET', '/api/admin/clinics/summary')).json();
    const all = await t.db.select({ status: clinics.status }).from(clinics);
    const active = all.filter((c) => c.status === 'active').length;
    expect(summary).toEqual({
      total: all.length,
      active,
      activePercent: Math.floor((active / all.length) * 100),
      trial: all.filter((c) => c.status === 'trial').length,
      suspended: all.filter((c) => c.status === 'suspended').length,
    });
  });

  it('rounds the active share down: 199 of 200 is 99 %, not 100 %', async () => {
    const fresh = await createTestApp();
    try {
      await fresh.db.insert(clinics).values(
        Array.from({ length: 200 }, (_, index) => ({
          name: `Clínica ${index}`,
          cnpj: String(index).padStart(14, '0'),
          slug: `clinica-${index}`,
          status: index === 0 ? ('suspended' as const) : ('active' as const),
        })),
      );
      const admin = await createSignedInUser(fresh, 'admin');
      const summary = await fresh.app.inject({ method: 'GET', url: '/api/admin/clinics/summary', headers: { cookie: admin.cookie } });
      expect(summary.json()).toMatchObject({ total: 200, active: 199, activePercent: 99 });
    } finally {
      await fresh.close();
    }
  });

  it('lists the sign-ups awaiting approval and approves one: accepted, still in its trial, and off the list', async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica Cadastrada Sozinha');
    const trialEndsAt = new Date(Date.now() + 10 * DAY_MS);
    await t.db.update(clinics).set({ status: 'trial', trialEndsAt, approvedAt: null }).where(eq(clinics.id, clinicId));
    // In trial too, but made by an admin: nothing to approve.
    const adminTrial = await createThroughApi({ status: 'trial' });

    const pendingIds = async () => (await api('GET', '/api/admin/clinics?awaitingApproval=true&pageSize=100')).json().items.map((c: { id: string }) => c.id);
    expect(await pendingIds()).toContain(clinicId);
    expect(await pendingIds()).not.toContain(adminTrial.id);
    expect((await api('GET', '/api/admin/clinics?awaitingApproval=talvez')).statusCode).toBe(400);

    const approved = await api('POST', `/api/admin/clinics/${clinicId}/approve`);
    expect(approved.statusCode).toBe(200);
    // The trial goes on to its end (its fee is not MRR yet): approving only opens the site to patients.
    expect(approved.json()).toMatchObject({ status: 'trial', trialEndsAt: trialEndsAt.toISOString() });
    expect(approved.json().approvedAt).not.toBeNull();
    expect(await pendingIds()).not.toContain(clinicId);
    // Approved once: a second approval has nothing to do.
    expect((await api('POST', `/api/admin/clinics/${clinicId}/approve`)).statusCode).toBe(409);
  });

  it("tells the clinic's admins by e-mail, in the clinic's name and on its own host", async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica Aprovada Agora');
    const trialEndsAt = new Date(Date.now() + 10 * DAY_MS);
    const [row] = await t.db.update(clinics).set({ status: 'trial', trialEndsAt, approvedAt: null }).where(eq(clinics.id, clinicId)).returning({ slug: clinics.slug });
    const owner = await createSignedInUser(t, 'clinic_admin', clinicId);
    const receptionist = await createSignedInUser(t, 'clinic_staff', clinicId);

    expect((await api('POST', `/api/admin/clinics/${clinicId}/approve`)).statusCode).toBe(200);
    await t.app.jobs.drain();

    const SUBJECT = 'Cadastro aprovado: o site de Clínica Aprovada Agora está no ar';
    const approvalMailsTo = (to: string) => t.db.select().from(emailOutbox).where(and(eq(emailOutbox.to, to), eq(emailOutbox.subject, SUBJECT)));
    const [mail] = await approvalMailsTo(owner.email);
    expect(mail?.subject).toBe(SUBJECT);
    expect(mail?.text).toContain('O cadastro de Clínica Aprovada Agora foi aprovado.');
    expect(mail?.text).toContain('O período de teste continua até');
    // The link is the clinic's portal on the clinic's own host, never the platform's.
    expect(mail?.text).toMatch(new RegExp(`https?://${row?.slug}\\.[^/\\s]+/clinica`));
    expect(mail?.html).toContain('Clínica Aprovada Agora');
    expect(mail?.html).not.toContain('Carteirinha');
    // Only the clinic's admins; once, however often the jobs run.
    expect(await approvalMailsTo(receptionist.email)).toEqual([]);
    await t.app.jobs.drain();
    expect(await approvalMailsTo(owner.email)).toHaveLength(1);
  });

  it('approves only a clinic in trial, with a pt-BR reason', async () => {
    const active = await createThroughApi();
    const refused = await api('POST', `/api/admin/clinics/${active.id}/approve`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('Somente clínicas em trial que aguardam aprovação podem ser aprovadas.');
    expect((await api('POST', '/api/admin/clinics/00000000-0000-4000-8000-000000000000/approve')).statusCode).toBe(404);

    const suspended = await createThroughApi({ status: 'suspended' });
    expect((await api('POST', `/api/admin/clinics/${suspended.id}/approve`)).statusCode).toBe(409);
    expect((await stateOf(suspended.id)).status).toBe('suspended');
  });

  it('starts a fresh trial when a clinic is put in trial, and keeps one that is still running', async () => {
    const clinic = await createThroughApi();
    const daysLeft = async () => ((await stateOf(clinic.id)).trialEndsAt!.getTime() - Date.now()) / DAY_MS;

    // From active: a new 14-day trial.
    expect((await api('PUT', `/api/admin/clinics/${clinic.id}`, { ...(await formOf(clinic.id)), status: 'trial' })).statusCode).toBe(200);
    expect(await daysLeft()).toBeGreaterThan(13.9);

    // Still running: saving again keeps its end.
    const running = new Date(Date.now() + 5 * DAY_MS);
    await t.db.update(clinics).set({ trialEndsAt: running }).where(eq(clinics.id, clinic.id));
    await api('PUT', `/api/admin/clinics/${clinic.id}`, { ...(await formOf(clinic.id)), name: 'Trial Em Curso' });
    expect((await stateOf(clinic.id)).trialEndsAt!.getTime()).toBe(running.getTime());

    // Already ran out (the expiry job had not suspended it yet): a new trial, or the job would suspend it at once.
    await t.db.update(clinics).set({ trialEndsAt: new Date(Date.now() - DAY_MS) }).where(eq(clinics.id, clinic.id));
    await api('PUT', `/api/admin/clinics/${clinic.id}`, { ...(await formOf(clinic.id)), status: 'trial' });
    expect(await daysLeft()).toBeGreaterThan(13.9);

    // Any other status has no trial end.
    await api('PUT', `/api/admin/clinics/${clinic.id}`, { ...(await formOf(clinic.id)), status: 'suspended' });
    expect((await stateOf(clinic.id)).trialEndsAt).toBeNull();
  });

  it('saving a sign-up as active accepts it, and a suspension does not', async () => {
    const { id: clinicId } = await createThroughApi({ name: 'Clínica Aguardando' });
    await t.db.update(clinics).set({ status: 'trial', trialEndsAt: new Date(Date.now() + 10 * DAY_MS), approvedAt: null }).where(eq(clinics.id, clinicId));
    expect((await api('PUT', `/api/admin/clinics/${clinicId}`, { ...(await formOf(clinicId)), status: 'suspended' })).statusCode).toBe(200);
    expect((await stateOf(clinicId)).approvedAt).toBeNull();
    expect((await api('PUT', `/api/admin/clinics/${clinicId}`, { ...(await formOf(clinicId)), status: 'active' })).statusCode).toBe(200);
    expect((await stateOf(clinicId)).approvedAt).not.toBeNull();
  });

  it('shows as revenue the payments received for the clinic, and "-" (null) before there are any', async () => {
    const clinic = await createClinic(t.db, 'Clínica Faturando');
    const revenueOf = async () => (await api('GET', `/api/admin/clinics/${clinic.clinicId}`)).json().revenueCents;
    expect(await revenueOf()).toBeNull();

    await createSubscriptionWithPayments(t, clinic, [
      { status: 'received', amountCents: 8990, dueDate: '2026-09-10' },
      { status: 'confirmed', amountCents: 8990, dueDate: '2026-10-10' },
      { status: 'pending', amountCents: 8990, dueDate: '2099-11-10' },
      { status: 'refunded', amountCents: 5000, dueDate: '2026-08-10' },
    ]);
    expect(await revenueOf()).toBe(17_980);
    const listed = (await api('GET', '/api/admin/clinics?q=Faturando')).json().items;
    expect(listed).toEqual([expect.objectContaining({ id: clinic.clinicId, revenueCents: 17_980, patientCount: 1 })]);
  });

  it('refuses to delete a clinic with payments, even once no patient is left', async () => {
    const clinic = await createClinic(t.db, 'Clínica Com Pagamentos');
    const { userId } = await createSubscriptionWithPayments(t, clinic, [{ status: 'received', amountCents: 8990, dueDate: '2026-09-10' }]);
    await t.db.delete(userRoles).where(eq(userRoles.userId, userId));
    const response = await api('DELETE', `/api/admin/clinics/${clinic.clinicId}`);
    expect(response.statusCode).toBe(409);
    expect(await t.db.select().from(clinics).where(eq(clinics.id, clinic.clinicId))).toHaveLength(1);
  });

  it("tells the support address when a clinic is cancelled, only while 'Cancelamentos' is on, and only once", async () => {
    const supportEmail = 'equipe@carteirinha.com.br';
    // Sent by a 'platform-notices' job written with the change: the runner is let finish its work first.
    const sentAbout = async (name: string) => {
      await settleWork(t);
      return (await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, supportEmail))).filter((email) => email.subject === `Clínica cancelada: ${name}`);
    };
    const cancel = async (clinicId: string) => api('PUT', `/api/admin/clinics/${clinicId}`, { ...(await formOf(clinicId)), status: 'cancelled' });

    await changeSettings(t, cookie, { supportEmail, notifyCancellations: false });
    const quiet = await createThroughApi();
    expect((await cancel(quiet.id)).statusCode).toBe(200);
    expect(await sentAbout(quiet.name)).toEqual([]);

    await changeSettings(t, cookie, { notifyCancellations: true });
    const told = await createThroughApi();
    expect((await cancel(told.id)).statusCode).toBe(200);
    expect((await cancel(told.id)).statusCode).toBe(200);
    expect(await sentAbout(told.name)).toHaveLength(1);

    // Two admins saving 'Cancelada' at the same moment: one e-mail.
    const raced = await createThroughApi();
    const form = { ...(await formOf(raced.id)), status: 'cancelled' };
    const saves = await Promise.all([1, 2].map(() => api('PUT', `/api/admin/clinics/${raced.id}`, form)));
    expect(saves.map((save) => save.statusCode)).toEqual([200, 200]);
    expect(await sentAbout(raced.name)).toHaveLength(1);
  });
});

/** The form as 'Editar Clínica' opens it for a clinic, from what the server holds. */
async function formOf(clinicId: string) {
  const clinic = await stateOf(clinicId);
  return { name: clinic.name, cnpj: clinic.cnpj, slug: clinic.slug, domain: clinic.domain ?? '', planId: clinic.planId, status: clinic.status, city: clinic.city ?? '', state: clinic.state ?? '' };
}
