import { asc, count, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminDashboardSchema, type AdminDashboard } from '@carteirinha/shared/contracts/dashboard';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { clinics, subscriptions, userRoles } from '../../db/schema.ts';
import { listClinics } from '../clinics/repository.ts';
import { planSummary } from '../plans/repository.ts';

const TRIAL_WARNING_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

async function totalOf(query: Promise<{ total: number }[]>): Promise<number> {
  return (await query)[0]?.total ?? 0;
}

/**
 * What needs the admin: trials ending within 3 days, trial sign-ups awaiting approval, and suspended clinics.
 * Overdue payments join the list with the payments ledger.
 */
async function alerts(db: Database, now: Date): Promise<AdminDashboard['alerts']> {
  const rows = await db
    .select({ id: clinics.id, name: clinics.name, status: clinics.status, trialEndsAt: clinics.trialEndsAt })
    .from(clinics)
    .where(inArray(clinics.status, ['trial', 'suspended']))
    .orderBy(asc(clinics.trialEndsAt), asc(clinics.name))
    .limit(50);
  return rows.map((row) => {
    const date = row.trialEndsAt?.toISOString() ?? null;
    if (row.status === 'suspended') return { kind: 'suspended' as const, clinicId: row.id, clinicName: row.name, date: null };
    const endsSoon = row.trialEndsAt !== null && row.trialEndsAt.getTime() - now.getTime() <= TRIAL_WARNING_DAYS * DAY_MS;
    return { kind: endsSoon ? ('trial_ending' as const) : ('pending_approval' as const), clinicId: row.id, clinicName: row.name, date };
  });
}

export const dashboardRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/dashboard',
    {
      config: { access: 'platform:manage' },
      schema: { tags: ['admin'], summary: 'Indicadores, clínicas recentes e alertas', response: { 200: adminDashboardSchema, 401: errorResponseSchema, 403: errorResponseSchema } },
    },
    async () => {
      const now = new Date();
      const [activeClinics, totalPatients, activeSubscriptions, plans, recent, pending] = await Promise.all([
        totalOf(db.select({ total: count() }).from(clinics).where(eq(clinics.status, 'active'))),
        totalOf(db.select({ total: count() }).from(userRoles).where(eq(userRoles.role, 'patient'))),
        totalOf(db.select({ total: count() }).from(subscriptions).where(eq(subscriptions.status, 'active'))),
        planSummary(db, now),
        listClinics(db, { page: 1, pageSize: 5 }),
        alerts(db, now),
      ]);
      return {
        kpis: { activeClinics, totalPatients, activeSubscriptions, monthlyRevenueCents: plans.mrrCents },
        recentClinics: recent.items,
        alerts: pending,
      };
    },
  );
};
