/**
 * Issue 25: the admin Dashboard's MRR chart — the platform's MRR at the end of each of the last 12 months (São Paulo),
 * read from the clinics' plan periods (ADR 005), the current month's as of now. Checked against periods the test
 * writes itself.
 */
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MrrHistory } from '@carteirinha/shared/contracts/dashboard';
import { clinicPlanPeriods, clinics, plans } from '../../db/schema.ts';
import { apiAs, createSignedInUser, createTestApp, type TestApp } from '../../../test/helpers.ts';

const NOW = new Date('2026-11-24T13:00:00Z');
let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => NOW });
  cookie = (await createSignedInUser(t, 'admin')).cookie;
});
afterAll(async () => t.close());

describe('the MRR history', () => {
  it('sums the prices of the periods active at the end of each month: price changes, trials and suspensions as they were', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Gráfico', priceCents: 50_000, features: ['Suporte'] }).returning({ id: plans.id });
    const made = await t.db
      .insert(clinics)
      .values([
        { name: 'Clínica Pagante', cnpj: '99000000000191', slug: 'mrr-chart-paga', planId: plan!.id, status: 'active' },
        { name: 'Clínica em Teste', cnpj: '99000000000272', slug: 'mrr-chart-teste', planId: plan!.id, status: 'trial' },
      ])
      .returning({ id: clinics.id });
    const [paying, trial] = made.map((row) => row.id);
    // Only the periods this test knows: the ones the insert's trigger wrote carry the machine's clock.
    await t.db.delete(clinicPlanPeriods).where(inArray(clinicPlanPeriods.clinicId, [paying!, trial!]));
    await t.db.insert(clinicPlanPeriods).values([
      { clinicId: paying!, planId: plan!.id, status: 'active', priceCents: 50_000, validFrom: new Date('2026-03-15T12:00:00Z'), validTo: new Date('2026-07-10T12:00:00Z') },
      { clinicId: paying!, planId: plan!.id, status: 'suspended', priceCents: 30_000, validFrom: new Date('2026-07-10T12:00:00Z'), validTo: new Date('2026-08-15T12:00:00Z') },
      { clinicId: paying!, planId: plan!.id, status: 'active', priceCents: 30_000, validFrom: new Date('2026-08-15T12:00:00Z'), validTo: null },
      { clinicId: trial!, planId: plan!.id, status: 'trial', priceCents: 50_000, validFrom: new Date('2026-10-20T12:00:00Z'), validTo: null },
    ]);

    const response = await apiAs(() => t, () => cookie)('GET', '/api/admin/dashboard/mrr-history');
    expect(response.statusCode, response.body).toBe(200);
    const { months } = response.json<MrrHistory>();
    const mine = (month: string) => months.find((row) => row.month === month)?.mrrCents;
    expect(months.map((row) => row.month)).toEqual(['2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11']);
    expect([mine('2026-02'), mine('2026-03'), mine('2026-06'), mine('2026-07'), mine('2026-08'), mine('2026-10'), mine('2026-11')]).toEqual([
      0, 50_000, 50_000,
      // Suspended when July ended: nothing.
      0,
      // Back at the new price; the trial never counts.
      30_000, 30_000, 30_000,
    ]);
  });
});
