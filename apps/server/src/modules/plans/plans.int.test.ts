import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinics, plans } from '../../db/schema.ts';
import { messages } from '@carteirinha/shared/messages';
import { createClinic, createSignedInUser, createTestApp, type TestApp, apiAs } from '../../../test/helpers.ts';

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await createSignedInUser(t, 'admin')).cookie;
});
afterAll(async () => {
  await t.close();
});

const api = apiAs(() => t, () => cookie);

describe('admin plans', () => {
  it('creates a plan from the form’s text (price in reais, one feature per line), edits and deletes it', async () => {
    const created = await api('POST', '/api/admin/plans', {
      name: 'Clínica Plus',
      price: '497,90',
      description: '',
      features: 'Até 300 pacientes\n\n  3 clínicas parceiras  \n',
      maxPatients: '300',
      maxClinics: '',
      popular: true,
    });
    expect(created.statusCode).toBe(201);
    const plan = created.json();
    expect(plan).toMatchObject({ name: 'Clínica Plus', priceCents: 49_790, description: null, features: ['Até 300 pacientes', '3 clínicas parceiras'], maxPatients: 300, maxClinics: null, popular: true, isActive: true, clinicCount: 0 });

    const edited = await api('PUT', `/api/admin/plans/${plan.id}`, { name: 'Clínica Plus', price: 0.1 + 0.2, features: ['Tudo'], isActive: false });
    expect(edited.json()).toMatchObject({ priceCents: 30, isActive: false, popular: false });

    expect((await api('DELETE', `/api/admin/plans/${plan.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(plans).where(eq(plans.id, plan.id))).toEqual([]);
  });

  it("offers the landing page the active plans as the admin left them, to anyone, without the back office's figures", async () => {
    const created = (await api('POST', '/api/admin/plans', { name: 'Plano da Vitrine', price: '149', features: 'Tudo o que a vitrine mostra' })).json();
    await api('PUT', `/api/admin/plans/${created.id}`, { name: 'Plano da Vitrine', price: '159,90', features: 'Tudo o que a vitrine mostra' });
    const hidden = (await api('POST', '/api/admin/plans', { name: 'Plano Retirado', price: '99', features: 'Nada', isActive: false })).json();
    const onRequest = (await api('POST', '/api/admin/plans', { name: 'Plano Sob Medida', price: '', features: 'Tudo, sob consulta' })).json();

    const response = await t.app.inject({ method: 'GET', url: '/api/public/plans' });
    expect(response.statusCode).toBe(200);
    const { items } = response.json();
    expect(items.find((plan: { id: string }) => plan.id === created.id)).toEqual({
      id: created.id,
      name: 'Plano da Vitrine',
      priceCents: 15_990,
      description: null,
      features: ['Tudo o que a vitrine mostra'],
      popular: false,
    });
    expect(items.map((plan: { id: string }) => plan.id)).not.toContain(hidden.id);
    // Cheapest first, "sob consulta" last, as the admin list orders them.
    const prices = items.map((plan: { priceCents: number | null }) => plan.priceCents);
    expect(prices.at(-1)).toBeNull();
    const priced = prices.filter((price: number | null) => price !== null);
    expect(priced).toEqual([...priced].sort((a: number, b: number) => a - b));
    for (const plan of [created, hidden, onRequest]) expect((await api('DELETE', `/api/admin/plans/${plan.id}`)).statusCode).toBe(204);
  });

  it('rejects a non-numeric price and a plan without features, and creates nothing', async () => {
    const before = (await t.db.select().from(plans)).length;
    const price = await api('POST', '/api/admin/plans', { name: 'Ruim', price: 'abc', features: 'x' });
    expect(price.statusCode).toBe(400);
    expect(price.json().error.message).toBe('Preço deve ser um número maior ou igual a zero');
    const features = await api('POST', '/api/admin/plans', { name: 'Ruim', price: '10', features: '\n \n' });
    expect(features.json().error.message).toBe('Informe ao menos um recurso, um por linha');
    const limit = await api('POST', '/api/admin/plans', { name: 'Ruim', price: '10', features: 'x', maxPatients: '1.5' });
    expect(limit.json().error.message).toBe('Use um número inteiro maior que zero');
    expect((await t.db.select().from(plans)).length).toBe(before);
  });

  it('keeps a plan that clinics use, and computes MRR from active clinics', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Pro', priceCents: 69_700 }).returning({ id: plans.id });
    const one = await createClinic(t.db, 'Clínica Um');
    const two = await createClinic(t.db, 'Clínica Dois');
    await t.db.update(clinics).set({ planId: plan!.id }).where(eq(clinics.id, one.clinicId));
    await t.db.update(clinics).set({ planId: plan!.id, status: 'suspended' }).where(eq(clinics.id, two.clinicId));

    const refused = await api('DELETE', `/api/admin/plans/${plan!.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('Este plano está em uso por 2 clínica(s) e não pode ser excluído. Desative-o em vez disso.');

    const summary = (await api('GET', '/api/admin/plans/summary')).json();
    expect(summary).toMatchObject({ activeSubscriptions: 1, mrrCents: 69_700 });
    const list = (await api('GET', '/api/admin/plans')).json();
    expect(list.items.find((p: { id: string }) => p.id === plan!.id).clinicCount).toBe(2);
  });

  it('keeps a plan "sob consulta": an empty or null price is stored as null, and a price can be given back', async () => {
    const created = await api('POST', '/api/admin/plans', { name: 'Enterprise Sob Consulta', price: '  ', features: 'SLA garantido' });
    expect(created.statusCode).toBe(201);
    const plan = created.json();
    expect(plan.priceCents).toBeNull();
    const [stored] = await t.db.select({ priceCents: plans.priceCents }).from(plans).where(eq(plans.id, plan.id));
    expect(stored?.priceCents).toBeNull();

    const priced = await api('PUT', `/api/admin/plans/${plan.id}`, { name: 'Enterprise Sob Consulta', price: '1999,90', features: ['SLA garantido'] });
    expect(priced.json().priceCents).toBe(199_990);
    const onRequest = await api('PUT', `/api/admin/plans/${plan.id}`, { name: 'Enterprise Sob Consulta', price: null, features: ['SLA garantido'] });
    expect(onRequest.statusCode).toBe(200);
    expect(onRequest.json().priceCents).toBeNull();

    // "Sob consulta" sorts after every priced plan.
    const names = (await api('GET', '/api/admin/plans')).json().items.map((p: { name: string }) => p.name);
    expect(names.at(-1)).toBe('Enterprise Sob Consulta');
    expect((await api('DELETE', `/api/admin/plans/${plan.id}`)).statusCode).toBe(204);
  });

  it('still refuses a negative price, and a body without the price at all', async () => {
    const before = (await t.db.select().from(plans)).length;
    const negative = await api('POST', '/api/admin/plans', { name: 'Ruim', price: '-0,01', features: 'x' });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().error.message).toBe('Preço deve ser um número maior ou igual a zero');
    // Forgetting the field must not quietly turn a priced plan into "sob consulta".
    const missing = await api('POST', '/api/admin/plans', { name: 'Ruim', features: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('Preço deve ser um número maior ou igual a zero');
    expect((await t.db.select().from(plans)).length).toBe(before);
  });

  it('leaves clinics on a plan "sob consulta" out of the MRR, while counting them as subscriptions', async () => {
    const before = (await api('GET', '/api/admin/plans/summary')).json();
    const [plan] = await t.db.insert(plans).values({ name: 'Enterprise', priceCents: null }).returning({ id: plans.id });
    const clinic = await createClinic(t.db, 'Clínica Enterprise');
    await t.db.update(clinics).set({ planId: plan!.id }).where(eq(clinics.id, clinic.clinicId));

    const after = (await api('GET', '/api/admin/plans/summary')).json();
    expect(after).toMatchObject({
      planCount: before.planCount + 1,
      activeSubscriptions: before.activeSubscriptions + 1,
      mrrCents: before.mrrCents,
      mrrChangePercent: before.mrrChangePercent,
    });
  });

  it('refuses limits beyond what a plan can state (a 400, never a database error) and prices finer than a cent', async () => {
    const before = (await t.db.select().from(plans)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ maxPatients: '3000000000' }, messages.adminPlans.limitTooLarge],
      [{ maxClinics: 2_147_483_648 }, messages.adminPlans.limitTooLarge],
      [{ maxPatients: '1e3' }, messages.admin.integerInvalid],
      [{ maxPatients: true }, messages.admin.integerInvalid],
      [{ price: '10,005' }, messages.admin.priceInvalid],
      [{ price: 10.005 }, messages.admin.priceInvalid],
      [{ price: '1.234.5' }, messages.admin.priceInvalid],
      [{ price: '1e3' }, messages.admin.priceInvalid],
      [{ price: '1000000,01' }, messages.admin.priceInvalid],
      [{ slaUptimePercent: '99,9%' }, messages.admin.slaInvalid],
      [{ slaUptimePercent: '100,5' }, messages.admin.slaInvalid],
    ];
    for (const [change, message] of cases) {
      const response = await api('POST', '/api/admin/plans', { name: 'Limites', price: '10', features: 'x', ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().error.message, JSON.stringify(change)).toBe(message);
    }
    expect((await t.db.select().from(plans)).length).toBe(before);
  });

  it('reads pt-BR prices, drops repeated features and stores what the plan includes', async () => {
    const created = await api('POST', '/api/admin/plans', {
      name: 'Rede Plus',
      price: '1.234,56',
      features: 'App mobile\nSuporte\nApp mobile\n  Suporte  ',
      maxPatients: 1_000_000,
      customDomain: false,
      fullWhitelabel: true,
      mobileApp: true,
      advancedReports: true,
      supportLevel: 'dedicated',
      slaUptimePercent: '99,95',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      priceCents: 123_456,
      features: ['App mobile', 'Suporte'],
      maxPatients: 1_000_000,
      customDomain: false,
      fullWhitelabel: true,
      mobileApp: true,
      advancedReports: true,
      supportLevel: 'dedicated',
      slaUptimePercent: 99.95,
    });
  });

  it('answers planInUse, not a database error, when a clinic moves onto the plan while it is being deleted', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Em Disputa', priceCents: 10_000 }).returning({ id: plans.id });
    const clinic = await createClinic(t.db, 'Clínica que Muda');
    let deleting: ReturnType<typeof api> | undefined;
    // The move is committed while the deletion is under way: on PostgreSQL the delete meets it at the foreign key.
    await t.db.transaction(async (tx) => {
      await tx.update(clinics).set({ planId: plan!.id }).where(eq(clinics.id, clinic.clinicId));
      deleting = api('DELETE', `/api/admin/plans/${plan!.id}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const answer = await deleting!;
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error.message).toBe('Este plano está em uso por 1 clínica(s) e não pode ser excluído. Desative-o em vez disso.');
    expect(await t.db.select().from(plans).where(eq(plans.id, plan!.id))).toHaveLength(1);
  });
});
