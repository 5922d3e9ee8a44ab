import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, clinics, plans, userRoles } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createSubscriptionWithPayments, createTestApp, type TestApp, apiAs } from '../../../test/helpers.ts';

let t: TestApp;
let cookie: string;
let planId: string;

beforeAll(async () => {
  t = await createTestApp();
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

describe('admin clinics', () => {
  it('creates, reads, edits and deletes a clinic, writing each change to the audit log', async () => {
    const created = await api('POST', '/api/admin/clinics', form());
    expect(created.statusCode).toBe(201);
    const clinic = created.json();
    expect(clinic).toMatchObject({ name: 'Clínica São José', cnpj: '45723174000110', slug: 'sao-jose', domain: null, planName: 'Starter', state: 'PR', revenueCents: null, patientCount: 0 });

    const detail = await api('GET', `/api/admin/clinics/${clinic.id}`);
    expect(detail.json()).toMatchObject({ url: 'http://sao-jose.localhost:3999', staffCount: 0, subscriptionPlanCount: 0 });

    const edited = await api('PUT', `/api/admin/clinics/${clinic.id}`, form({ name: 'Clínica São José Centro', domain: 'Cartao.SaoJose.com.br', status: 'suspended' }));
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Clínica São José Centro', domain: 'cartao.saojose.com.br', status: 'suspended' });

    expect((await api('DELETE', `/api/admin/clinics/${clinic.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(clinics).where(eq(clinics.id, clinic.id))).toEqual([]);
    const trail = await t.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, clinic.id)).orderBy(desc(auditLog.createdAt));
    expect(trail.map((row) => row.action).sort()).toEqual(['clinic.created', 'clinic.deleted', 'clinic.updated']);
  });

  it('validates the form in pt-BR and changes nothing', async () => {
    await api('POST', '/api/admin/clinics', form({ cnpj: '11.444.777/0001-61', slug: 'ocupada', domain: 'cartao.ocupada.com.br' }));
    const before = (await t.db.select().from(clinics)).length;
    const cases: [Record<string, unknown>, number, string][] = [
      [form({ cnpj: '11.222.333/0001-82' }), 400, 'CNPJ inválido'],
      [form({ name: '' }), 400, 'Nome é obrigatório'],
      [form({ domain: 'não é domínio' }), 400, 'Informe um domínio válido, como cartao.suaclinica.com.br'],
      [form({ cnpj: '11.444.777/0001-61', slug: 'livre' }), 409, 'Já existe uma clínica com este CNPJ.'],
      [form({ cnpj: '12.ABC.345/01DE-35', slug: 'ocupada' }), 409, 'Este endereço já está em uso. Escolha outro.'],
      [form({ cnpj: '12.ABC.345/01DE-35', slug: 'livre', domain: 'cartao.ocupada.com.br' }), 409, 'Este domínio já está em uso por outra clínica.'],
    ];
    for (const [payload, status, message] of cases) {
      const response = await api('POST', '/api/admin/clinics', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().error.message).toBe(message);
    }
    expect((await t.db.select().from(clinics)).length).toBe(before);
  });

  it('refuses to delete a clinic with patients and suggests suspending it', async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica Com Pacientes');
    await createSignedInUser(t, 'patient', clinicId);
    const response = await api('DELETE', `/api/admin/clinics/${clinicId}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe('Esta clínica tem pacientes ou pagamentos e não pode ser excluída. Suspenda-a em vez disso.');
    expect(await t.db.select().from(clinics).where(eq(clinics.id, clinicId))).toHaveLength(1);
  });

  it('deleting a clinic without patients removes its staff roles with it', async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica Sem Pacientes');
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    expect((await api('DELETE', `/api/admin/clinics/${clinicId}`)).statusCode).toBe(204);
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, staff.userId))).toEqual([]);
  });

  it('searches by name ignoring case and accents, and by CNPJ digits with or without punctuation', async () => {
    await api('POST', '/api/admin/clinics', form({ name: 'Clínica Águas Claras', cnpj: '34.028.316/0001-03', slug: 'aguas-claras' }));
    for (const q of ['aguas claras', 'ÁGUAS', 'clinica aguas', '34028316', '34.028.316/0001']) {
      const response = await api('GET', `/api/admin/clinics?q=${encodeURIComponent(q)}`);
      expect(response.json().items.map((c: { name: string }) => c.name), q).toContain('Clínica Águas Claras');
    }
    expect((await api('GET', '/api/admin/clinics?q=inexistente')).json()).toMatchObject({ items: [], total: 0 });
  });

  it('counts the summary cards on the server and approves a trial sign-up', async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica Em Trial');
    await t.db.update(clinics).set({ status: 'trial', trialEndsAt: new Date(Date.now() + 86_400_000) }).where(eq(clinics.id, clinicId));
    const summary = (await api('GET', '/api/admin/clinics/summary')).json();
    const all = await t.db.select({ status: clinics.status }).from(clinics);
    expect(summary).toEqual({
      total: all.length,
      active: all.filter((c) => c.status === 'active').length,
      activePercent: Math.round((all.filter((c) => c.status === 'active').length / all.length) * 100),
      trial: all.filter((c) => c.status === 'trial').length,
      suspended: all.filter((c) => c.status === 'suspended').length,
    });

    const dashboard = (await api('GET', '/api/admin/dashboard')).json();
    expect(dashboard.alerts).toContainEqual(expect.objectContaining({ kind: 'trial_ending', clinicId }));
    const approved = await api('POST', `/api/admin/clinics/${clinicId}/approve`);
    expect(approved.json()).toMatchObject({ status: 'active', trialEndsAt: null });
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
});
