import { count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@carteirinha/shared/constants';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/helpers.ts';
import type { DatabaseHandle } from './client.ts';
import { addCycleToDay } from '../modules/subscriptions/periods.ts';
import { saoPauloDay } from '../lib/sao-paulo-time.ts';
import { clinics, payments, plans, subscriptionPlans, subscriptions, userRoles, users } from './schema.ts';
import { seedDatabase } from './seed.ts';

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
      .orderBy(users.email);
    expect(roles).toEqual([
      { email: DEMO_ACCOUNTS.admin, role: 'admin', clinicId: null },
      { email: DEMO_ACCOUNTS.clinicStaff, role: 'clinic_staff', clinicId: demo!.id },
      { email: DEMO_ACCOUNTS.clinicAdmin, role: 'clinic_admin', clinicId: demo!.id },
      { email: DEMO_ACCOUNTS.patient, role: 'patient', clinicId: demo!.id },
    ]);
    const activeSubscriptions = await t.db.select().from(subscriptions).where(eq(subscriptions.status, 'active'));
    expect(activeSubscriptions).toHaveLength(1);
    // Its first charge was paid: Clínica Demo's revenue is that one Pix payment of the cheapest demo plan.
    const demoPayments = await t.db.select().from(payments).where(eq(payments.subscriptionId, activeSubscriptions[0]!.id));
    expect(demoPayments).toEqual([expect.objectContaining({ clinicId: demo!.id, status: 'received', method: 'pix', amountCents: 8990 })]);
    // As a paid monthly checkout leaves it: the amount and method shown on /paciente/assinatura, one month paid through.
    const [subscription] = activeSubscriptions;
    const [charge] = demoPayments;
    expect(subscription).toMatchObject({ amountCents: 8990, paymentMethod: 'pix', provider: 'local' });
    expect(charge?.periodStart).toBe(charge?.dueDate);
    expect(charge?.periodEnd).toBe(addCycleToDay(charge!.dueDate, 'monthly'));
    expect(saoPauloDay(subscription!.expiresAt!)).toBe(charge?.periodEnd);

    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: DEMO_ACCOUNTS.clinicAdmin, password: 'demo123' },
    });
    expect(signIn.statusCode).toBe(200);
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
