import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClinic, createTestApp, type TestApp } from '../../test/helpers.ts';
import type { Database } from './client.ts';
import { auditLog, clinicPlanPeriods, clinics, subscriptionPlans } from './schema.ts';
import { TENANT_ROLE, withTenantScope } from './tenant-scope.ts';

/** The role the login role is a member of for platform work (migration 0012): all rows, only outside a clinic's scope. */
const PLATFORM_ROLE = 'carteirinha_platform';

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
  // Checklist case 22 (catalogue invariants): every tenant table — the clinics and every table with a clinic_id,
  // platform records such as audit_log included — FORCEs row-level security and has its policies.
  it('is enabled and forced, with the tenant and platform policies, on every tenant table', async () => {
    const tables = await rows(
      sql`select c.relname as name, c.relrowsecurity as rls, c.relforcerowsecurity as forced,
                 coalesce((select array_agg(p.polname::text order by p.polname) from pg_policy p where p.polrelid = c.oid), '{}') as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p')
            and (c.relname = 'clinics' or exists (
              select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'clinic_id' and not a.attisdropped))`,
      z.object({ name: z.string(), rls: z.boolean(), forced: z.boolean(), policies: z.array(z.string()) }),
    );
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining([
        'audit_log', 'card_validations', 'cards', 'clinic_plan_periods', 'clinic_settings', 'clinics', 'contract_terms', 'dependents',
        'payments', 'services', 'subscription_plans', 'subscriptions', 'terms_acceptances', 'user_roles', 'visits',
      ]),
    );
    for (const table of tables) {
      expect(table, table.name).toMatchObject({ rls: true, forced: true, policies: expect.arrayContaining(['platform_access', 'tenant_isolation']) });
    }
  });

  it('has no view that runs with its owner’s rights, and no SECURITY DEFINER function with an open search path', async () => {
    const ownerViews = await rows(
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('v', 'm')
            and not coalesce('security_invoker=true' = any(c.reloptions) or 'security_invoker=on' = any(c.reloptions), false)`,
      z.object({ name: z.string() }),
    );
    expect(ownerViews).toEqual([]);
    const definers = await rows(
      sql`select p.proname as name, coalesce(p.proconfig, '{}') as config from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and p.prosecdef`,
      z.object({ name: z.string(), config: z.array(z.string()) }),
    );
    expect(definers.map((fn) => fn.name)).toEqual(expect.arrayContaining(['record_clinic_plan_period', 'reprice_clinic_plan_periods']));
    for (const fn of definers) expect(fn.config.some((setting) => setting.startsWith('search_path=')), fn.name).toBe(true);
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

/**
 * The tables' owner here is a superuser (PGlite's only user, the test server's postgres), which row-level security
 * never binds. A role made like a deployment's login role — not a superuser, a member of carteirinha_platform and
 * carteirinha_tenant, with the table privileges — shows what the policies let it do: everything outside a clinic's
 * scope, one clinic inside it (docs/decisions/008).
 */
describe('the login role under the policies of migration 0012', () => {
  const loginRole = `carteirinha_test_login_${randomBytes(4).toString('hex')}`;
  const auditIds: string[] = [];

  beforeAll(async () => {
    await t.db.execute(sql.raw(`CREATE ROLE ${loginRole} NOLOGIN NOSUPERUSER NOBYPASSRLS`));
    await t.db.execute(sql.raw(`GRANT ${PLATFORM_ROLE}, ${TENANT_ROLE} TO ${loginRole}`));
    await t.db.execute(sql.raw(`GRANT SELECT, INSERT, UPDATE ON audit_log, clinic_plan_periods, clinics, subscription_plans TO ${loginRole}`));
    const inserted = await t.db
      .insert(auditLog)
      .values([
        { action: 'settings.updated', entity: 'settings', entityId: null, clinicId: null },
        { action: 'clinic.updated', entity: 'clinic', entityId: a.clinicId, clinicId: a.clinicId },
        { action: 'clinic.updated', entity: 'clinic', entityId: b.clinicId, clinicId: b.clinicId },
      ])
      .returning({ id: auditLog.id });
    auditIds.push(...inserted.map((row) => row.id));
  });
  afterAll(async () => {
    await t.db.execute(sql.raw(`REVOKE ALL ON audit_log, clinic_plan_periods, clinics, subscription_plans FROM ${loginRole}`));
    await t.db.execute(sql.raw(`DROP ROLE ${loginRole}`));
  });

  /** `work` as the login role; with a clinic in scope (app.clinic_id set) but, unlike withTenantScope, no role switch. */
  function asLoginRole<T>(clinicId: string | null, work: (tx: Database) => Promise<T>): Promise<T> {
    return t.db.transaction(async (tx) => {
      if (clinicId) await tx.execute(sql`select set_config('app.clinic_id', ${clinicId}, true)`);
      await tx.execute(sql.raw(`set local role ${loginRole}`));
      return work(tx);
    });
  }

  it('sees every clinic and every audit row, platform rows included, outside a clinic’s scope', async () => {
    const audit = await asLoginRole(null, (tx) => tx.select({ clinicId: auditLog.clinicId }).from(auditLog).where(inArray(auditLog.id, auditIds)));
    expect(audit.map((row) => row.clinicId).sort()).toEqual([a.clinicId, b.clinicId, null].sort());
    const seen = await asLoginRole(null, (tx) => tx.select({ id: clinics.id }).from(clinics).where(inArray(clinics.id, [a.clinicId, b.clinicId])));
    expect(seen).toHaveLength(2);
    const periods = await asLoginRole(null, (tx) =>
      tx.select({ clinicId: clinicPlanPeriods.clinicId }).from(clinicPlanPeriods).where(inArray(clinicPlanPeriods.clinicId, [a.clinicId, b.clinicId])),
    );
    expect(new Set(periods.map((row) => row.clinicId))).toEqual(new Set([a.clinicId, b.clinicId]));
  });

  it('sees and writes only the clinic in scope, even without switching to the tenant role', async () => {
    const audit = await asLoginRole(a.clinicId, (tx) => tx.select({ clinicId: auditLog.clinicId }).from(auditLog).where(inArray(auditLog.id, auditIds)));
    expect(audit).toEqual([{ clinicId: a.clinicId }]);
    const periods = await asLoginRole(a.clinicId, (tx) => tx.select({ clinicId: clinicPlanPeriods.clinicId }).from(clinicPlanPeriods));
    expect(new Set(periods.map((row) => row.clinicId))).toEqual(new Set([a.clinicId]));
    const visible = await asLoginRole(a.clinicId, (tx) => tx.select({ id: clinics.id }).from(clinics));
    expect(visible).toEqual([{ id: a.clinicId }]);
    const platformRow = asLoginRole(a.clinicId, (tx) => tx.insert(auditLog).values({ action: 'intruso', entity: 'settings', entityId: null, clinicId: null }));
    await expect(platformRow).rejects.toThrow();
    const otherClinic = asLoginRole(a.clinicId, (tx) => tx.insert(auditLog).values({ action: 'intruso', entity: 'clinic', entityId: b.clinicId, clinicId: b.clinicId }));
    await expect(otherClinic).rejects.toThrow();
    expect(await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'intruso')))).toEqual([]);
  });

  it('records a clinic’s status change made in the clinic’s scope (the MRR trigger runs as the tables’ owner)', async () => {
    await asLoginRole(a.clinicId, (tx) => tx.update(clinics).set({ status: 'suspended' }).where(eq(clinics.id, a.clinicId)));
    const [open] = await t.db
      .select({ status: clinicPlanPeriods.status })
      .from(clinicPlanPeriods)
      .where(and(eq(clinicPlanPeriods.clinicId, a.clinicId), sql`${clinicPlanPeriods.validTo} is null`));
    expect(open?.status).toBe('suspended');
    await t.db.update(clinics).set({ status: 'active' }).where(eq(clinics.id, a.clinicId));
  });

  it('gives the tenant role no access to the platform’s records at all', async () => {
    await expect(withTenantScope(t.db, a.clinicId, (tx) => tx.select().from(auditLog))).rejects.toThrow();
    await expect(withTenantScope(t.db, a.clinicId, (tx) => tx.select().from(clinicPlanPeriods))).rejects.toThrow();
  });
});
