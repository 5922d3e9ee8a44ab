import { and, count, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { AdminClinic, AdminClinicListQuery, Clinic, ClinicSummary } from '@carteirinha/shared/contracts/clinics';
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

const adminClinicColumns = { ...clinicColumns, revenueCents, approvedAt: clinics.approvedAt };

type ClinicRow = {
  [K in keyof typeof clinicColumns]: K extends 'trialEndsAt' ? Date | null : K extends 'createdAt' ? Date : Clinic[K];
};

/** An admin clinic as the database gives it; the service adds the address of its site. */
export type AdminClinicRecord = Omit<AdminClinic, 'url'>;

function toClinic<Row extends ClinicRow>(row: Row): Omit<Row, 'trialEndsAt' | 'createdAt'> & Pick<Clinic, 'trialEndsAt' | 'createdAt'> {
  return { ...row, trialEndsAt: row.trialEndsAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() };
}

function toAdminClinic<Row extends ClinicRow & { approvedAt: Date | null }>(row: Row) {
  return { ...toClinic(row), approvedAt: row.approvedAt?.toISOString() ?? null };
}

/** A self-service sign-up the admin has not accepted yet (DESIGN.md §2 tenancy: 'Aprovar Cadastro'). */
export const awaitingApproval = and(eq(clinics.status, 'trial'), isNull(clinics.approvedAt));

function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  // Only a term with a digit can be part of a CNPJ (even the 2026 alphanumeric ones end in two check digits, and
  // their roots mix letters and digits); a name like "São" must not match a CNPJ that happens to hold "SO".
  const cnpjFragment = /\d/.test(q) ? normalizeCnpj(q) : '';
  return or(foldedContains(clinics.name, q), cnpjFragment ? ilike(clinics.cnpj, containsPattern(cnpjFragment)) : undefined);
}

/**
 * Admin list of every clinic, newest first (the id breaks ties, so pages never repeat or skip a row), searched (name
 * without accents, or CNPJ digits), optionally only the sign-ups awaiting approval, and paginated.
 */
export async function listClinics(db: Database, query: AdminClinicListQuery) {
  const where = and(searchCondition(query.q), query.awaitingApproval ? awaitingApproval : undefined);
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
  return { items: rows.map((row) => toAdminClinic(row)), total: totals[0]?.total ?? 0, page: query.page, pageSize: query.pageSize };
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
export async function findAdminClinic(db: Database, clinicId: string): Promise<AdminClinicRecord | null> {
  const [row] = await db
    .select(adminClinicColumns)
    .from(clinics)
    .leftJoin(plans, eq(plans.id, clinics.planId))
    .where(eq(clinics.id, clinicId))
    .limit(1);
  return row ? toAdminClinic(row) : null;
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
    // Rounded down: 199 active clinics of 200 are not "100 %".
    activePercent: total === 0 ? 0 : Math.floor((active / total) * 100),
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

/** What the clinic form may change a clinic from: its current status, trial end, approval and plan. */
export async function findClinicState(db: Database, clinicId: string, { lock = false } = {}) {
  const query = db
    .select({ status: clinics.status, trialEndsAt: clinics.trialEndsAt, approvedAt: clinics.approvedAt, planId: clinics.planId })
    .from(clinics)
    .where(eq(clinics.id, clinicId));
  const [row] = lock ? await query.for('update') : await query.limit(1);
  return row ?? null;
}

/** The plan facts the clinic form is checked against; null when no plan has this id. */
export async function findPlanFacts(db: Database, planId: string) {
  const [row] = await db
    .select({ id: plans.id, isActive: plans.isActive, customDomain: plans.customDomain })
    .from(plans)
    .where(eq(plans.id, planId))
    .limit(1);
  return row ?? null;
}

/** Other clinics already holding this CNPJ, sub-domain or domain (ignoring `exceptId`, the clinic being edited). */
export async function clinicsHoldingAddress(db: Database, input: { cnpj: string; slug: string; domain: string | null }, exceptId: string | null) {
  return db
    .select({ cnpj: clinics.cnpj, slug: clinics.slug, domain: clinics.domain })
    .from(clinics)
    .where(
      and(
        or(eq(clinics.cnpj, input.cnpj), eq(clinics.slug, input.slug), input.domain ? eq(clinics.domain, input.domain) : undefined),
        exceptId ? ne(clinics.id, exceptId) : undefined,
      ),
    );
}

/**
 * Locks the clinic's row until the transaction ends (SELECT … FOR UPDATE): a patient enrolling meanwhile must wait
 * for the delete to decide, because adding a role that points at the clinic takes a key-share lock on this row.
 * Answers what the audit trail records of it, or null when there is no such clinic.
 */
export async function lockClinic(tx: Database, clinicId: string): Promise<{ name: string; cnpj: string } | null> {
  const [row] = await tx.select({ name: clinics.name, cnpj: clinics.cnpj }).from(clinics).where(eq(clinics.id, clinicId)).for('update');
  return row ?? null;
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

/**
 * Deletes the clinic with its team's roles. Only clinic_admin and clinic_staff are removed: a patient's role is never
 * wiped here, so one that got past the checks makes the foreign key refuse the whole delete.
 */
export async function deleteClinicWithTeam(tx: Database, clinicId: string): Promise<void> {
  await tx.delete(userRoles).where(and(eq(userRoles.clinicId, clinicId), inArray(userRoles.role, ['clinic_admin', 'clinic_staff'])));
  await tx.delete(clinics).where(eq(clinics.id, clinicId));
}

/** 'Aprovar Cadastro': a clinic awaiting approval is accepted, keeping its trial, in one statement; false otherwise. */
export async function approveTrialClinic(db: Database, clinicId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(clinics)
    .set({ approvedAt: now })
    .where(and(eq(clinics.id, clinicId), awaitingApproval))
    .returning({ id: clinics.id });
  return rows.length > 0;
}

/** The columns the clinic form writes, with what the service decides about trial and approval. */
export type ClinicWrite = {
  name: string;
  cnpj: string;
  slug: string;
  domain: string | null;
  planId: string | null;
  status: Clinic['status'];
  city: string | null;
  state: string | null;
  trialEndsAt: Date | null;
};

/** Inserts a clinic an admin made; returns its id. */
export async function insertClinic(tx: Database, values: ClinicWrite & { approvedAt: Date; createdBy: string }): Promise<string | null> {
  const [row] = await tx.insert(clinics).values(values).returning({ id: clinics.id });
  return row?.id ?? null;
}

/** Saves the clinic form over a clinic; `approvedAt` is only written when given. */
export async function updateClinicRow(tx: Database, clinicId: string, values: ClinicWrite & { approvedAt?: Date }): Promise<void> {
  await tx.update(clinics).set(values).where(eq(clinics.id, clinicId));
}

/** The clinic's own look, for 'Visualizar'. */
export async function findClinicBranding(db: Database, clinicId: string) {
  const [row] = await db
    .select({ displayName: clinics.displayName, primaryColor: clinics.primaryColor, logoUrl: clinics.logoUrl })
    .from(clinics)
    .where(eq(clinics.id, clinicId))
    .limit(1);
  return row ?? { displayName: null, primaryColor: null, logoUrl: null };
}
