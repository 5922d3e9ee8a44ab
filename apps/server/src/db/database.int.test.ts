import { and, count, eq, inArray, isNull, like, not, sql } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@carteirinha/shared/constants';
import type { PatientHome, PatientSavings } from '@carteirinha/shared/contracts/patient-visits';
import { cookieHeaderOf, createTestApp, createTestDatabase, type TestApp } from '../../test/helpers.ts';
import type { DatabaseHandle } from './client.ts';
import { addCycleToDay } from '../modules/subscriptions/periods.ts';
import { saoPauloDay } from '../lib/sao-paulo-time.ts';
import { auditLog, cards, clinics, companyMemberships, networkPlaces, payments, payouts, plans, servicePriceHistory, services, subscriptionPlans, subscriptions, userRoles, users, visits } from './schema.ts';
import { seedDatabase } from './seed.ts';
import { startOfSaoPauloMonth } from '../lib/sao-paulo-time.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('migrations', () => {
  // Every other test opens a copy of a database migrated once per run (test/template-database.ts): this one migrates
  // an empty database from nothing, so the migrations themselves are run on both databases in every run.
  let empty: DatabaseHandle;
  beforeAll(async () => {
    empty = await createTestDatabase({ from: 'empty' });
  });
  afterAll(async () => {
    await empty.close();
  });

  it('create every table on an empty database', async () => {
    const result = await empty.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`);
    const tables = z
      .object({ rows: z.array(z.object({ table_name: z.string() })) })
      .parse(result)
      .rows.map((row) => row.table_name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'users',
        'sessions',
        'accounts',
        'verifications',
        'profiles',
        'user_roles',
        'clinics',
        'plans',
        'subscription_plans',
        'subscriptions',
        'payments',
        'clinic_plan_periods',
        'email_outbox',
        'sign_in_failures',
      ]),
    );
  });

  it('are idempotent: running them again changes nothing', async () => {
    await expect(empty.migrate()).resolves.toBeUndefined();
    await expect(t.database.migrate()).resolves.toBeUndefined();
  });

  it('refuse a clinic role without a clinic', async () => {
    const [user] = await empty.db.insert(users).values({ name: 'Sem Clínica', email: 'sem-clinica@teste.dev' }).returning({ id: users.id });
    await expect(empty.db.insert(userRoles).values({ userId: user!.id, role: 'clinic_staff' })).rejects.toThrow();
  });
});

describe('demo seed', () => {
  it('creates the platform plans, Clínica Demo and the four demo accounts, and running it twice adds nothing', async () => {
    const first = await seedDatabase({ db: t.db, auth: t.app.auth, cardBox: t.app.cardBox, withDemo: true });
    expect(first.report.join('\n')).toContain(DEMO_ACCOUNTS.patient);
    await seedDatabase({ db: t.db, auth: t.app.auth, cardBox: t.app.cardBox, withDemo: true });

    const planNames = (await t.db.select({ name: plans.name }).from(plans).orderBy(plans.priceCents)).map((p) => p.name);
    expect(planNames).toEqual(['Starter', 'Professional', 'Enterprise']);
    const [demo] = await t.db.select().from(clinics).where(eq(clinics.slug, 'demo'));
    expect(demo).toMatchObject({ name: 'Clínica Demo', status: 'active' });
    const [demoPlans] = await t.db.select({ total: count() }).from(subscriptionPlans).where(eq(subscriptionPlans.clinicId, demo!.id));
    expect(demoPlans?.total).toBe(2);

    const roles = await t.db
      .select({ email: users.email, role: userRoles.role, clinicId: userRoles.clinicId })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(not(like(users.email, '%@horizonte.example')))
      .orderBy(users.email);
    expect(roles).toEqual([
      { email: DEMO_ACCOUNTS.admin, role: 'admin', clinicId: null },
      { email: DEMO_ACCOUNTS.clinicStaff, role: 'clinic_staff', clinicId: demo!.id },
      { email: 'bruno.recepcao@carteirinha.dev', role: 'clinic_staff', clinicId: demo!.id },
      { email: DEMO_ACCOUNTS.clinicAdmin, role: 'clinic_admin', clinicId: demo!.id },
      { email: DEMO_ACCOUNTS.patient, role: 'patient', clinicId: demo!.id },
    ]);
    // Issue 26: a company-paid group from an import ('Construtora Horizonte Ltda'), active at once with its cards.
    const [company] = await t.db.select().from(companyMemberships).where(eq(companyMemberships.clinicId, demo!.id));
    expect(company).toMatchObject({ companyName: 'Construtora Horizonte Ltda', cnpj: '11222333000181' });
    const companyPaid = await t.db.select().from(subscriptions).where(eq(subscriptions.companyMembershipId, company!.id));
    expect(companyPaid.map((row) => row.status)).toEqual(['active', 'active', 'active', 'active']);
    expect(await t.db.select().from(cards).where(inArray(cards.subscriptionId, companyPaid.map((row) => row.id)))).toHaveLength(4);
    expect(await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'members.imported'), eq(auditLog.clinicId, demo!.id)))).toHaveLength(1);

    const activeSubscriptions = await t.db.select().from(subscriptions).where(and(eq(subscriptions.status, 'active'), isNull(subscriptions.companyMembershipId)));
    expect(activeSubscriptions).toHaveLength(1);
    // A member for four months, every monthly charge paid: contiguous periods, the last one holding today.
    const [subscription] = activeSubscriptions;
    // On Plano Família (issue 27: its dependent has a card of their own).
    expect(subscription).toMatchObject({ amountCents: 14990, paymentMethod: 'pix', provider: 'local' });
    const demoPayments = await t.db.select().from(payments).where(eq(payments.subscriptionId, subscription!.id)).orderBy(payments.periodStart);
    expect(demoPayments.length).toBeGreaterThanOrEqual(4);
    for (const charge of demoPayments) expect(charge).toMatchObject({ clinicId: demo!.id, status: 'received', method: 'pix', amountCents: 14990 });
    for (const [index, charge] of demoPayments.entries()) {
      expect(charge.periodEnd).toBe(addCycleToDay(charge.periodStart!, 'monthly'));
      if (index > 0) expect(charge.periodStart).toBe(demoPayments[index - 1]!.periodEnd);
    }
    const last = demoPayments.at(-1)!;
    expect(last.periodStart! <= saoPauloDay(new Date())).toBe(true);
    expect(saoPauloDay(subscription!.expiresAt!)).toBe(last.periodEnd);
    // The current period began today: the demo runs a month before its renewal charge, as a fresh checkout would.
    expect(last.periodStart).toBe(saoPauloDay(new Date()));
    expect(demoPayments).toHaveLength(5);

    // Issue 25: something real on every clinic screen — a price list with a price change, months of visits (some
    // cancelled, one under way, two booked ahead), each visit's validation, the clinic's contact and hours.
    const priceList = await t.db.select().from(services).where(eq(services.clinicId, demo!.id));
    expect(priceList.length).toBe(5);
    const fullPrices = await t.db.select().from(servicePriceHistory).where(and(eq(servicePriceHistory.clinicId, demo!.id), isNull(servicePriceHistory.planId)));
    expect(fullPrices.length).toBe(6);
    const demoVisits = await t.db.select({ status: visits.status, performedAt: visits.performedAt }).from(visits).where(eq(visits.clinicId, demo!.id));
    const byStatus = (status: string) => demoVisits.filter((visit) => visit.status === status).length;
    expect(byStatus('concluido')).toBeGreaterThan(20);
    expect(byStatus('cancelado')).toBeGreaterThan(0);
    expect(byStatus('em_andamento')).toBe(1);
    expect(byStatus('aguardando')).toBe(2);
    expect(Math.min(...demoVisits.map((visit) => visit.performedAt.getTime()))).toBeLessThan(Date.now() - 80 * 24 * 3600_000);
    expect(demo).toMatchObject({ phone: '1133334444', openingHours: { weekdays: { open: '08:00', close: '18:00' }, saturday: { open: '08:00', close: '12:00' } } });
    // Issue 26: a payout for each closed month of charges, each the month's receipts less 10 %; all but the last paid
    // (the seed ran twice above: still one payout per month).
    const demoPayouts = await t.db.select().from(payouts).where(eq(payouts.clinicId, demo!.id)).orderBy(payouts.period);
    expect(demoPayouts.length).toBeGreaterThanOrEqual(3);
    expect(demoPayouts.slice(0, -1).every((payout) => payout.status === 'pago' && payout.paidAt !== null)).toBe(true);
    expect(demoPayouts.at(-1)).toMatchObject({ status: 'pendente', paidAt: null });
    for (const payout of demoPayouts) {
      expect(payout.feeCents).toBe(Math.round(payout.grossCents / 10));
      expect(payout.netCents).toBe(payout.grossCents - payout.feeCents);
    }
    // Issue 26: the accredited network, an own unit and partners (a lab among them) around Avenida Paulista, within
    // the Professional plan's partner limit (the seed ran twice above: still four places).
    const demoNetwork = await t.db.select().from(networkPlaces).where(eq(networkPlaces.clinicId, demo!.id));
    expect(demoNetwork.map((place) => place.category).sort()).toEqual(['clinica_parceira', 'clinica_parceira', 'laboratorio', 'unidade_propria']);
    expect(demoNetwork.every((place) => Math.abs(place.latitude + 23.56) < 0.05 && Math.abs(place.longitude + 46.65) < 0.05)).toBe(true);
    // Every charge received before this São Paulo month is in exactly one payout.
    const closed = demoPayments.filter((charge) => charge.paidAt && charge.paidAt < startOfSaoPauloMonth(new Date()));
    expect(demoPayouts.reduce((sum, payout) => sum + payout.grossCents, 0)).toBe(closed.reduce((sum, charge) => sum + charge.amountCents, 0));

    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: DEMO_ACCOUNTS.clinicAdmin, password: 'demo123' },
    });
    expect(signIn.statusCode).toBe(200);

    // Issue 27: the demo patient's Histórico and Início have real figures — savings in each of at least three months,
    // the plan paid for in them, and a visit booked ahead.
    const patientSignIn = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email: DEMO_ACCOUNTS.patient, password: 'demo123' } });
    expect(patientSignIn.statusCode).toBe(200);
    const patient = { cookie: cookieHeaderOf(patientSignIn) };
    const savings = (await t.app.inject({ method: 'GET', url: '/api/patient/history/summary', headers: patient })).json<PatientSavings>();
    expect(savings.visits).toBe(byStatus('concluido'));
    expect(savings.paidForPlanCents).toBe(demoPayments.reduce((sum, charge) => sum + charge.amountCents, 0));
    expect(savings.months.filter((month) => month.savedCents > 0).length).toBeGreaterThanOrEqual(3);
    const home = (await t.app.inject({ method: 'GET', url: '/api/patient/home', headers: patient })).json<PatientHome>();
    expect(home.nextAppointment).not.toBeNull();
    expect(home.latestVisits).toHaveLength(3);
    expect(home.networkPlaces).toBe(demoNetwork.length);
    // Issue 27: a dependent, covered, with a card; the holder's card stays first (other specs read the first card).
    expect(home.dependents.map((dependent) => dependent.fullName)).toEqual(['Sofia Paciente']);
    const patientCards = (await t.app.inject({ method: 'GET', url: '/api/patient/cards', headers: patient })).json<{ items: { personName: string; isDependent: boolean }[] }>();
    expect(patientCards.items.map((card) => [card.personName, card.isDependent])).toEqual([
      ['Paulo Paciente', false],
      ['Sofia Paciente', true],
    ]);
  });

  it('without demo data, seeds only the platform plans', async () => {
    const other = await createTestApp();
    try {
      await seedDatabase({ db: other.db, auth: other.app.auth, cardBox: other.app.cardBox, withDemo: false });
      expect(await other.db.select().from(clinics)).toHaveLength(0);
      expect(await other.db.select().from(users)).toHaveLength(0);
      expect(await other.db.select().from(plans)).toHaveLength(3);
    } finally {
      await other.close();
    }
  });
});
