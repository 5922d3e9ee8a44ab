import { and, asc, count, eq, lt, sql } from 'drizzle-orm';
import type { PlanSummary, PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import type { Database } from '../../db/client.ts';
import { clinics, plans } from '../../db/schema.ts';

// Written with explicit aliases: in a one-table select Drizzle leaves columns unqualified, and a bare "id" inside
// the sub-query would mean the clinic's id.
const clinicCount = sql<number>`(select count(*)::int from clinics c where c.plan_id = "plans"."id")`;

type PlanRow = typeof plans.$inferSelect & { clinicCount: number };

function toRecord(row: PlanRow): PlatformPlanRecord {
  return {
    id: row.id,
    name: row.name,
    priceCents: row.priceCents,
    description: row.description,
    maxPatients: row.maxPatients,
    maxClinics: row.maxClinics,
    features: row.features,
    isActive: row.isActive,
    popular: row.popular,
    clinicCount: row.clinicCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every platform plan, cheapest first, "sob consulta" last (specification §7: ordered by price). */
export async function listPlans(db: Database): Promise<PlatformPlanRecord[]> {
  const rows = await db
    .select({ plan: plans, clinicCount })
    .from(plans)
    .orderBy(sql`${plans.priceCents} asc nulls last`, asc(plans.name));
  return rows.map((row) => toRecord({ ...row.plan, clinicCount: row.clinicCount }));
}

export async function findPlan(db: Database, planId: string): Promise<PlatformPlanRecord | null> {
  const [row] = await db.select({ plan: plans, clinicCount }).from(plans).where(eq(plans.id, planId)).limit(1);
  return row ? toRecord({ ...row.plan, clinicCount: row.clinicCount }) : null;
}

/**
 * Monthly recurring revenue from active clinics' plans, optionally only clinics that existed before a date. A plan
 * sold "sob consulta" has a null price, which sum() skips: its clinics count as subscriptions but add nothing to MRR.
 */
async function mrrCents(db: Database, createdBefore?: Date): Promise<{ mrr: number; clinics: number }> {
  const [row] = await db
    .select({ mrr: sql<number>`coalesce(sum(${plans.priceCents}), 0)::int`, clinics: count() })
    .from(clinics)
    .innerJoin(plans, eq(plans.id, clinics.planId))
    .where(and(eq(clinics.status, 'active'), createdBefore ? lt(clinics.createdAt, createdBefore) : undefined));
  return { mrr: row?.mrr ?? 0, clinics: row?.clinics ?? 0 };
}

/** The first instant of the current month in São Paulo. */
function startOfMonthInSaoPaulo(now: Date): Date {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' })
    .format(now)
    .split('-')
    .map(Number);
  // São Paulo has had no daylight saving time since 2019: it is UTC-3 all year.
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, 1, 3, 0, 0));
}

/**
 * The three cards of /admin/planos. MRR counts active clinics on a priced plan; last month's figure counts the
 * clinics that already existed before this month began and are active now (the status history is not kept yet).
 */
export async function planSummary(db: Database, now = new Date()): Promise<PlanSummary> {
  const [planCount] = await db.select({ total: count() }).from(plans);
  const current = await mrrCents(db);
  const previous = await mrrCents(db, startOfMonthInSaoPaulo(now));
  return {
    planCount: planCount?.total ?? 0,
    activeSubscriptions: current.clinics,
    mrrCents: current.mrr,
    mrrChangePercent: previous.mrr === 0 ? null : Math.round(((current.mrr - previous.mrr) / previous.mrr) * 100),
  };
}

export async function clinicsOnPlan(db: Database, planId: string): Promise<number> {
  const [row] = await db.select({ total: count() }).from(clinics).where(eq(clinics.planId, planId));
  return row?.total ?? 0;
}
