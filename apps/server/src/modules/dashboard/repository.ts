import { and, asc, count, eq, inArray, lt, min, or } from 'drizzle-orm';
import type { AdminDashboard } from '@carteirinha/shared/contracts/dashboard';
import type { Database } from '../../db/client.ts';
import { clinics, payments, subscriptions, userRoles } from '../../db/schema.ts';
import { saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { listClinics } from '../clinics/repository.ts';
import { planSummary } from '../plans/repository.ts';

type Alert = AdminDashboard['alerts'][number];

const TRIAL_WARNING_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Enough for the card; the clinics list holds the rest. */
const ALERTS_PER_KIND = 50;

async function totalOf(query: Promise<{ total: number }[]>): Promise<number> {
  return (await query)[0]?.total ?? 0;
}

/** Trials ending within 3 days, the other trial sign-ups (awaiting approval), and suspended clinics. */
async function clinicStatusAlerts(db: Database, now: Date): Promise<Alert[]> {
  const rows = await db
    .select({ id: clinics.id, name: clinics.name, status: clinics.status, trialEndsAt: clinics.trialEndsAt })
    .from(clinics)
    .where(inArray(clinics.status, ['trial', 'suspended']))
    .orderBy(asc(clinics.trialEndsAt), asc(clinics.name))
    .limit(ALERTS_PER_KIND);
  return rows.map((row) => {
    if (row.status === 'suspended') return { kind: 'suspended', clinicId: row.id, clinicName: row.name, date: null };
    const date = row.trialEndsAt?.toISOString() ?? null;
    const endsSoon = row.trialEndsAt !== null && row.trialEndsAt.getTime() - now.getTime() <= TRIAL_WARNING_DAYS * DAY_MS;
    return { kind: endsSoon ? 'trial_ending' : 'pending_approval', clinicId: row.id, clinicName: row.name, date };
  });
}

/**
 * Clinics with a charge past its due date and unpaid: marked overdue by the delinquency job, or still pending after
 * the due day (São Paulo) has passed. The date is the oldest such due date.
 */
async function overduePaymentAlerts(db: Database, now: Date): Promise<Alert[]> {
  const today = saoPauloDay(now);
  const rows = await db
    .select({ id: clinics.id, name: clinics.name, since: min(payments.dueDate) })
    .from(payments)
    .innerJoin(clinics, eq(clinics.id, payments.clinicId))
    .where(or(eq(payments.status, 'overdue'), and(eq(payments.status, 'pending'), lt(payments.dueDate, today))))
    .groupBy(clinics.id, clinics.name)
    .orderBy(asc(min(payments.dueDate)), asc(clinics.name))
    .limit(ALERTS_PER_KIND);
  return rows.map((row) => ({
    kind: 'overdue_payments',
    clinicId: row.id,
    clinicName: row.name,
    date: row.since ? saoPauloMidnight(row.since).toISOString() : null,
  }));
}

/** GET /api/admin/dashboard: the four KPIs, the five newest clinics and the alerts, overdue payments first. */
export async function adminDashboard(db: Database, now = new Date()): Promise<AdminDashboard> {
  const [activeClinics, totalPatients, activeSubscriptions, plans, recent, overdue, statusAlerts] = await Promise.all([
    totalOf(db.select({ total: count() }).from(clinics).where(eq(clinics.status, 'active'))),
    totalOf(db.select({ total: count() }).from(userRoles).where(eq(userRoles.role, 'patient'))),
    totalOf(db.select({ total: count() }).from(subscriptions).where(eq(subscriptions.status, 'active'))),
    planSummary(db, now),
    listClinics(db, { page: 1, pageSize: 5 }),
    overduePaymentAlerts(db, now),
    clinicStatusAlerts(db, now),
  ]);
  return {
    kpis: { activeClinics, totalPatients, activeSubscriptions, monthlyRevenueCents: plans.mrrCents },
    recentClinics: recent.items,
    alerts: [...overdue, ...statusAlerts],
  };
}
