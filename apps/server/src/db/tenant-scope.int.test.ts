import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClinic, createTestApp, type TestApp } from '../../test/helpers.ts';
import { clinics, subscriptionPlans } from './schema.ts';
import { TENANT_ROLE, withTenantScope } from './tenant-scope.ts';

/**
 * Tables with a clinic_id that are platform records, not a clinic's data: the audit trail and the MRR history are read
 * by the platform's admins only. Every other table with a clinic_id is a tenant table.
 */
const PLATFORM_TABLES_WITH_CLINIC_ID = ['audit_log', 'clinic_plan_periods'];

let t: TestApp;
let a: { clinicId: string; planId: string };
let b: { clinicId: string; planId: string };

beforeAll(async () => {
  t = await createTestApp();
  a = await createClinic(t.db, 'Clínica A');
  b = await createClinic(t.db, 'Clínica B');
});
afterAll(async () => {
  await t.close();
});

async function rows<T extends z.ZodType>(query: ReturnType<typeof sql>, schema: T, db = t.db): Promise<z.infer<T>[]> {
  const result = await db.execute(query);
  return z.object({ rows: z.array(schema) }).parse(result).rows;
}

describe('row-level security', () => {
  it('is enabled, with a policy, on every tenant table: the clinics and every table with a clinic_id', async () => {
    const tables = await rows(
      sql`select c.relname as name, c.relrowsecurity as rls,
                 (select count(*)::int from pg_policy p where p.polrelid = c.oid) as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r'
            and (c.relname = 'clinics' or exists (
              select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'clinic_id' and not a.attisdropped))
            and c.relname not in ${PLATFORM_TABLES_WITH_CLINIC_ID}`,
      z.object({ name: z.string(), rls: z.boolean(), policies: z.number() }),
    );
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['clinics', 'payments', 'subscription_plans', 'subscriptions', 'user_roles']));
    for (const table of tables) expect(table, table.name).toMatchObject({ rls: true, policies: 1 });
  });

  it('confines a role that is not a superuser, cannot bypass RLS and owns nothing', async () => {
    const [role] = await rows(
      sql`select rolsuper, rolbypassrls,
                 (select count(*)::int from pg_class c where c.relowner = r.oid) as owned
          from pg_roles r where rolname = ${TENANT_ROLE}`,
      z.object({ rolsuper: z.boolean(), rolbypassrls: z.boolean(), owned: z.number() }),
    );
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false, owned: 0 });
  });

  it('shows only the scoped clinic’s rows even to a query with no clinic filter', async () => {
    const seen = await withTenantScope(t.db, a.clinicId, (tx) => tx.select({ id: subscriptionPlans.id, clinicId: subscriptionPlans.clinicId }).from(subscriptionPlans));
    expect(seen).toEqual([{ id: a.planId, clinicId: a.clinicId }]);
    const visibleClinics = await withTenantScope(t.db, a.clinicId, (tx) => tx.select({ id: clinics.id }).from(clinics));
    expect(visibleClinics).toEqual([{ id: a.clinicId }]);
  });

  it('refuses to write another clinic’s rows, and changes nothing', async () => {
    const insertForB = withTenantScope(t.db, a.clinicId, (tx) =>
      tx.insert(subscriptionPlans).values({ clinicId: b.clinicId, name: 'Intruso', priceCents: 1 }),
    );
    await expect(insertForB).rejects.toThrow();
    const renamed = await withTenantScope(t.db, a.clinicId, (tx) =>
      tx.update(clinics).set({ name: 'Invadida' }).where(eq(clinics.id, b.clinicId)).returning({ id: clinics.id }),
    );
    expect(renamed).toEqual([]);
    const [clinicB] = await t.db.select({ name: clinics.name }).from(clinics).where(eq(clinics.id, b.clinicId));
    expect(clinicB?.name).toBe('Clínica B');
    expect(await t.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.name, 'Intruso'))).toEqual([]);
  });

  it('leaves no tenant setting on the connection after the transaction', async () => {
    await withTenantScope(t.db, a.clinicId, async () => undefined);
    const [setting] = await rows(
      sql`select coalesce(current_setting('app.clinic_id', true), '') as clinic, current_user as who`,
      z.object({ clinic: z.string(), who: z.string() }),
    );
    expect(setting?.clinic).toBe('');
    expect(setting?.who).not.toBe(TENANT_ROLE);
  });
});
