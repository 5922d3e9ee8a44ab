import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AdminClinic, Clinic, ClinicSummary } from '@carteirinha/shared/contracts/clinics';
import type { ListQuery } from '@carteirinha/shared/contracts/pagination';
import { normalizeCnpj } from '@carteirinha/shared/validators';
import type { Database } from '../../db/client.ts';
import { clinics, plans, subscriptionPlans, subscriptions, userRoles } from '../../db/schema.ts';
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

type ClinicRow = {
  [K in keyof typeof clinicColumns]: K extends 'trialEndsAt' ? Date | null : K extends 'createdAt' ? Date : Clinic[K];
};

function toClinic(row: ClinicRow): Clinic {
  return { ...row, trialEndsAt: row.trialEndsAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() };
}

function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  // Only a term with a digit can be part of a CNPJ (even the 2026 alphanumeric ones end in two check digits, and
  // their roots mix letters and digits); a name like "São" must not match a CNPJ that happens to hold "SO".
  const cnpjFragment = /\d/.test(q) ? normalizeCnpj(q) : '';
  return or(foldedContains(clinics.name, q), cnpjFragment ? ilike(clinics.cnpj, containsPattern(cnpjFragment)) : undefined);
}

/**
 * Payments received for a clinic's programme. The payments ledger arrives with checkout; until then no clinic has
 * revenue, which the list shows as '-' (issue 4: '-' only when there are none).
 */
function toAdminClinic(clinic: Clinic): AdminClinic {
  return { ...clinic, revenueCents: null };
}

/** Admin list of every clinic, newest first, searched (name without accents, or CNPJ digits) and paginated. */
export async function listClinics(db: Database, query: ListQuery) {
  const where = searchCondition(query.q);
  const [rows, totals] = await Promise.all([
    db
      .select(clinicColumns)
      .from(clinics)
      .leftJoin(plans, eq(plans.id, clinics.planId))
      .where(where)
      .orderBy(desc(clinics.createdAt), desc(clinics.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(clinics).where(where),
  ]);
  return { items: rows.map((row) => toAdminClinic(toClinic(row))), total: totals[0]?.total ?? 0, page: query.page, pageSize: query.pageSize };
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

/** One clinic in the admin's shape. */
export async function findAdminClinic(db: Database, clinicId: string): Promise<AdminClinic | null> {
  const clinic = await findClinic(db, clinicId);
  return clinic ? toAdminClinic(clinic) : null;
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

/** Whether the clinic has patients or subscriptions (payments come with them): such a clinic is never deleted. */
export async function clinicHasPatients(db: Database, clinicId: string): Promise<boolean> {
  const [patients] = await db.select({ total: count() }).from(userRoles).where(and(eq(userRoles.clinicId, clinicId), eq(userRoles.role, 'patient')));
  const [subs] = await db.select({ total: count() }).from(subscriptions).where(eq(subscriptions.clinicId, clinicId));
  return (patients?.total ?? 0) > 0 || (subs?.total ?? 0) > 0;
}
