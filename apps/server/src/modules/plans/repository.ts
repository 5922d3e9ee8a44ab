import { and, asc, count, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { PlanSummary, PlatformPlanRecord, PublicPlatformPlan } from '@carteirinha/shared/contracts/plans';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { clinicPlanPeriods, clinics, plans } from '../../db/schema.ts';
import { startOfSaoPauloMonth } from '../../lib/sao-paulo-time.ts';

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
    customDomain: row.customDomain,
    fullWhitelabel: row.fullWhitelabel,
    mobileApp: row.mobileApp,
    advancedReports: row.advancedReports,
    supportLevel: row.supportLevel,
    slaUptimePercent: row.slaUptimePercent,
    clinicCount: row.clinicCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Specification §7: plans ordered by price, "sob consulta" last. */
const CHEAPEST_FIRST = [sql`${plans.priceCents} asc nulls last`, asc(plans.name)] as const;

/** Every platform plan, cheapest first, "sob consulta" last (specification §7: ordered by price). */
export async function listPlans(db: Database): Promise<PlatformPlanRecord[]> {
  const rows = await db
    .select({ plan: plans, clinicCount })
    .from(plans)
    .orderBy(...CHEAPEST_FIRST);
  return rows.map((row) => toRecord({ ...row.plan, clinicCount: row.clinicCount }));
}

/** The active plans, in the order of the admin list: what the landing page offers clinics. */
export async function listPlansForSale(db: Database): Promise<PublicPlatformPlan[]> {
  return db
    .select({
      id: plans.id,
      name: plans.name,
      priceCents: plans.priceCents,
      description: plans.description,
      features: plans.features,
      popular: plans.popular,
    })
    .from(plans)
    .where(eq(plans.isActive, true))
    .orderBy(...CHEAPEST_FIRST);
}

export async function findPlan(db: Database, planId: string): Promise<PlatformPlanRecord | null> {
  const [row] = await db.select({ plan: plans, clinicCount }).from(plans).where(eq(plans.id, planId)).limit(1);
  return row ? toRecord({ ...row.plan, clinicCount: row.clinicCount }) : null;
}

/**
 * Monthly recurring revenue from active clinics' plans at an instant (now when `at` is omitted), from the history the
 * database keeps of each clinic's status, plan and price. A plan sold "sob consulta" has a null price, which sum()
 * skips: its clinics count as subscriptions but add nothing to MRR.
 */
async function mrrAt(db: Database, at?: Date): Promise<{ mrr: number; clinics: number }> {
  const current = at
    ? and(lte(clinicPlanPeriods.validFrom, at), or(isNull(clinicPlanPeriods.validTo), gt(clinicPlanPeriods.validTo, at)))
    : isNull(clinicPlanPeriods.validTo);
  const [row] = await db
    .select({ mrr: sql<number>`coalesce(sum(${clinicPlanPeriods.priceCents}), 0)::int`, clinics: count() })
    .from(clinicPlanPeriods)
    .where(and(current, eq(clinicPlanPeriods.status, 'active'), isNotNull(clinicPlanPeriods.planId)));
  return { mrr: row?.mrr ?? 0, clinics: row?.clinics ?? 0 };
}

/**
 * The three cards of /admin/planos: plans, active clinic subscriptions, MRR now and its change against the MRR at
 * the end of the previous month (null when there was none to compare with).
 */
export async function planSummary(db: Database, now = new Date()): Promise<PlanSummary> {
  const [[planCount], current, previous] = await Promise.all([
    db.select({ total: count() }).from(plans),
    mrrAt(db),
    mrrAt(db, startOfSaoPauloMonth(now)),
  ]);
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

/** The columns the plan form writes (everything but the id and the timestamps). */
export type PlanColumns = Omit<typeof plans.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export async function insertPlan(db: Database, columns: PlanColumns): Promise<string> {
  const [row] = await db.insert(plans).values(columns).returning({ id: plans.id });
  if (!row) throw new Error('plan not created');
  return row.id;
}

export async function updatePlanRow(db: Database, planId: string, columns: PlanColumns): Promise<void> {
  await db.update(plans).set(columns).where(eq(plans.id, planId));
}

export async function deletePlanRow(db: Database, planId: string): Promise<void> {
  await db.delete(plans).where(eq(plans.id, planId));
}

/**
 * The platform's MRR at each of `instants`, in one statement over the history of clinic plan periods (ADR 005): the
 * sum of the prices of the periods that were active at that instant.
 */
export async function mrrAtInstants(db: Database, instants: readonly Date[]): Promise<number[]> {
  if (instants.length === 0) return [];
  const points = sql.join(
    instants.map((instant, index) => sql`(${index}::int, ${instant.toISOString()}::timestamptz)`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select v.idx, coalesce(sum(p.price_cents), 0)::int as mrr
    from (values ${points}) as v(idx, at)
    left join ${clinicPlanPeriods} p
      on p.valid_from <= v.at and (p.valid_to is null or p.valid_to > v.at) and p.status = 'active' and p.plan_id is not null
    group by v.idx
    order by v.idx`);
  const { rows } = z.object({ rows: z.array(z.object({ idx: z.coerce.number(), mrr: z.coerce.number() })) }).parse(result);
  return instants.map((_, index) => rows.find((row) => row.idx === index)?.mrr ?? 0);
}
