import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicPlanPeriods, clinics, plans } from '../../db/schema.ts';
import { createSignedInUser, createTestApp, type TestApp, apiAs } from '../../../test/helpers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Before the first day of any month's previous month end: these clinics were customers when last month closed. */
const LONG_AGO = new Date(Date.now() - 40 * DAY_MS);

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

async function insertClinic(name: string, planId: string, status: 'active' | 'trial') {
  const [row] = await t.db
    .insert(clinics)
    .values({ name, cnpj: String(Math.floor(Math.random() * 1e14)).padStart(14, '0'), slug: `mrr-${Math.random().toString(36).slice(2, 10)}`, planId, status, createdAt: LONG_AGO })
    .returning({ id: clinics.id });
  return row!.id;
}

describe('MRR and its change against the previous month', () => {
  it('compares with what the clinics paid when last month ended: suspensions, approvals and new prices count from when they happen', async () => {
    const [pro] = await t.db.insert(plans).values({ name: 'Pro', priceCents: 69_700, features: ['Suporte'] }).returning({ id: plans.id });
    const [basic] = await t.db.insert(plans).values({ name: 'Basic', priceCents: 29_700, features: ['Suporte'] }).returning({ id: plans.id });
    const a = await insertClinic('Clínica A', pro!.id, 'active');
    const b = await insertClinic('Clínica B', pro!.id, 'active');
    const c = await insertClinic('Clínica C', basic!.id, 'trial');

    expect((await api('GET', '/api/admin/plans/summary')).json()).toMatchObject({ activeSubscriptions: 2, mrrCents: 139_400, mrrChangePercent: 0 });

    await t.db.update(clinics).set({ status: 'suspended' }).where(eq(clinics.id, b));
    // Approval opens C's site but keeps its trial: it pays nothing yet, so the MRR does not count it...
    expect((await api('POST', `/api/admin/clinics/${c}/approve`)).statusCode).toBe(200);
    expect((await api('GET', '/api/admin/plans/summary')).json()).toMatchObject({ activeSubscriptions: 1, mrrCents: 69_700 });
    // ...until it becomes active, from when it does.
    await t.db.update(clinics).set({ status: 'active' }).where(eq(clinics.id, c));
    const repriced = await api('PUT', `/api/admin/plans/${pro!.id}`, { name: 'Pro', price: '797,00', features: ['Suporte'] });
    expect(repriced.statusCode).toBe(200);

    // Now: A at the new price and C; when last month ended: A and B at the old price.
    expect((await api('GET', '/api/admin/plans/summary')).json()).toMatchObject({
      activeSubscriptions: 2,
      mrrCents: 79_700 + 29_700,
      mrrChangePercent: Math.round(((109_400 - 139_400) / 139_400) * 100),
    });

    const historyOfA = await t.db.select().from(clinicPlanPeriods).where(eq(clinicPlanPeriods.clinicId, a)).orderBy(clinicPlanPeriods.validFrom);
    expect(historyOfA.map((period) => [period.priceCents, period.validTo === null])).toEqual([
      [69_700, false],
      [79_700, true],
    ]);
  });

  it('keeps the history of a deleted clinic, closed, and writes one period per transaction however many changes it holds', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Único', priceCents: 10_000, features: ['Suporte'] }).returning({ id: plans.id });
    const id = await insertClinic('Clínica Efêmera', plan!.id, 'active');
    await t.db.transaction(async (tx) => {
      await tx.update(clinics).set({ status: 'suspended' }).where(eq(clinics.id, id));
      await tx.update(clinics).set({ status: 'cancelled' }).where(eq(clinics.id, id));
    });
    const periods = await t.db.select().from(clinicPlanPeriods).where(eq(clinicPlanPeriods.clinicId, id)).orderBy(clinicPlanPeriods.validFrom);
    expect(periods.map((period) => period.status)).toEqual(['active', 'cancelled']);

    expect((await api('DELETE', `/api/admin/clinics/${id}`)).statusCode).toBe(204);
    const open = await t.db.select().from(clinicPlanPeriods).where(and(eq(clinicPlanPeriods.clinicId, id), isNull(clinicPlanPeriods.validTo)));
    expect(open).toEqual([]);
    expect(await t.db.select().from(clinicPlanPeriods).where(eq(clinicPlanPeriods.clinicId, id))).toHaveLength(2);
  });
});
