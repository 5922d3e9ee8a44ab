import { count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AdminClinic, Clinic, ClinicSummary } from '@carteirinha/shared/contracts/clinics';
import type { ListQuery } from '@carteirinha/shared/contracts/pagination';
import { PAID_PAYMENT_STATUSES } from '@carteirinha/shared/contracts/payments';
import { normalizeCnpj } from '@carteirinha/shared/validators';
import type { Database } from '../../db/client.ts';
import { clinics, payments, plans, subscriptionPlans, subscriptions, userRoles } from '../../db/schema.ts';
import { containsPattern, foldedContains } from '../../lib/sql.ts';

// Explicit aliases: a bare column name inside a correlated sub-query could bind to the inner table.
const patientCount = sql<number>`(select count(*)::int from user_roles ur where ur.clinic_id = "clinics"."id" and ur.role = 'patient')`;

const clinicColumns = {
  id: clinics.id,
  name: clinics.name,
  cnpj: clinics.cnpj,
  slug: clinics.slug,
  domain: clinics.domain,
  status: clinics.status,
  planId: clinics.planId,
  planName: plans.name,
  city: clinics.city,
  state: clinics.state,
  patientCount,
  trialEndsAt: clinics.trialEndsAt,
  createdAt: clinics.createdAt,
};

/**
 * Payments received for the clinic's programme, all time; null when there are none (the list shows '-'). A bigint
 * sum: a large clinic's years of charges pass the 2³¹ cents an int holds.
 */
const revenueCents = sql<number | null>`(select sum(p.amount_cents)::bigint from payments p where p.clinic_id = "clinics"."id" and p.status in (${sql.join(
  PAID_PAYMENT_STATUSES.map((status) => sql`${status}`),
  sql`, `,
)}))`.mapWith((value: string | number | null) => (value === null ? null : Number(value)));

const adminClinicColumns = { ...clinicColumns, revenueCents };

type ClinicRow = {
  [K in keyof typeof clinicColumns]: K extends 'trialEndsAt' ? Date | null : K extends 'createdAt' ? Date : Clinic[K];
};

function toClinic<Row extends ClinicRow>(row: Row): Omit<Row, 'trialEndsAt' | 'createdAt'> & Pick<Clinic, 'trialEndsAt' | 'createdAt'> {
  return { ...row, trialEndsAt: row.trialEndsAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() };
}

function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  // Only a term with a digit can be part of a CNPJ (even the 2026 alphanumeric ones end in two check digits, and
  // their roots mix letters and digits); a name like "São" must not match a CNPJ that happens to hold "SO".
  const cnpjFragment = /\d/.test(q) ? normalizeCnpj(q) : '';
  return or(foldedContains(clinics.name, q), cnpjFragment ? ilike(clinics.cnpj, containsPattern(cnpjFragment)) : undefined);
}

/** Admin list of every clinic, newest first, searched (name without accents, or CNPJ digits) and paginated. */
export async function listClinics(db: Database, query: ListQuery) {
  const where = searchCondition(query.q);
  const [rows, totals] = await Promise.all([
    db
      .select(adminClinicColumns)
      .from(clinics)
      .leftJoin(plans, eq(plans.id, clinics.planId))
      .where(where)
      .orderBy(desc(clinics.createdAt), desc(clinics.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(clinics).where(where),
  ]);
  return { items: rows.map((row) => toClinic(row)), total: totals[0]?.total ?? 0, page: query.page, pageSize: query.pageSize };
}

/** One clinic by id. Callers decide who may ask: admins for any id, clinic users only for their own. */
export async function findClinic(db: Database, clinicId: string): Promise<Clinic | null> {
  const [row] = await db
    .select(clinicColumns)
    .from(clinics)
    .leftJoin(plans, eq(plans.id, clinics.planId))
    .where(eq(clinics.id, clinicId))
    .limit(1);
  return row ? toClinic(row) : null;
}

/** One clinic in the admin's shape, with its revenue. */
export async function findAdminClinic(db: Database, clinicId: string): Promise<AdminClinic | null> {
  const [row] = await db
    .select(adminClinicColumns)
    .from(clinics)
    .leftJoin(plans, eq(plans.id, clinics.planId))
    .where(eq(clinics.id, clinicId))
    .limit(1);
  return row ? toClinic(row) : null;
}

/** The four summary cards of /admin/clinicas. */
export async function clinicSummary(db: Database): Promise<ClinicSummary> {
  const rows = await db.select({ status: clinics.status, total: count() }).from(clinics).groupBy(clinics.status);
  const byStatus = new Map(rows.map((row) => [row.status, row.total]));
  const total = rows.reduce((sum, row) => sum + row.total, 0);
  const active = byStatus.get('active') ?? 0;
  return {
    total,
    active,
    activePercent: total === 0 ? 0 : Math.round((active / total) * 100),
    trial: byStatus.get('trial') ?? 0,
    suspended: byStatus.get('suspended') ?? 0,
  };
}

/** Counts for the 'Visualizar' view. */
export async function clinicCounts(db: Database, clinicId: string) {
  const [row] = await db
    .select({
      staffCount: sql<number>`(select count(*)::int from ${userRoles} where ${userRoles.clinicId} = ${clinicId} and ${userRoles.role} in ('clinic_admin', 'clinic_staff'))`,
      subscriptionPlanCount: sql<number>`(select count(*)::int from ${subscriptionPlans} where ${subscriptionPlans.clinicId} = ${clinicId})`,
      activeSubscriptionCount: sql<number>`(select count(*)::int from ${subscriptions} where ${subscriptions.clinicId} = ${clinicId} and ${subscriptions.status} = 'active')`,
    })
    .from(clinics)
    .where(eq(clinics.id, clinicId));
  return row ?? { staffCount: 0, subscriptionPlanCount: 0, activeSubscriptionCount: 0 };
}

/** Whether the clinic has patients, subscriptions or payments: such a clinic is never deleted, only suspended. */
export async function clinicHasPatientsOrPayments(db: Database, clinicId: string): Promise<boolean> {
  const [row] = await db
    .select({
      found: sql<boolean>`exists (select 1 from ${userRoles} where ${userRoles.clinicId} = ${clinicId} and ${userRoles.role} = 'patient')
        or exists (select 1 from ${subscriptions} where ${subscriptions.clinicId} = ${clinicId})
        or exists (select 1 from ${payments} where ${payments.clinicId} = ${clinicId})`,
    })
    .from(clinics)
    .where(eq(clinics.id, clinicId));
  return row?.found === true;
}
