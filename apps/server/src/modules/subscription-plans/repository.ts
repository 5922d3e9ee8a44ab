import { and, asc, eq } from 'drizzle-orm';
import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import type { Database } from '../../db/client.ts';
import { subscriptionPlans } from '../../db/schema.ts';

type TenantScope = { clinicId: string };
type PlanRow = typeof subscriptionPlans.$inferSelect;

export function toSubscriptionPlan(row: PlanRow): SubscriptionPlan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priceCents: row.priceCents,
    dependentPriceCents: row.dependentPriceCents,
    adhesionFeeCents: row.adhesionFeeCents,
    billingCycle: row.billingCycle,
    features: row.features,
    maxMembers: row.maxMembers,
    waitingDays: row.waitingDays,
    discounts: { consultas: row.discountConsultas, exames: row.discountExames, procedimentos: row.discountProcedimentos },
    isActive: row.isActive,
  };
}

/** The caller's clinic's patient plans, cheapest first (specification §7). */
export async function listSubscriptionPlans(db: Database, scope: TenantScope, options: { activeOnly: boolean }): Promise<SubscriptionPlan[]> {
  const rows = await db
    .select()
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.clinicId, scope.clinicId), options.activeOnly ? eq(subscriptionPlans.isActive, true) : undefined))
    .orderBy(asc(subscriptionPlans.priceCents), asc(subscriptionPlans.name));
  return rows.map(toSubscriptionPlan);
}

/** One plan of the caller's clinic; another clinic's id finds nothing, exactly like an unknown id. */
export async function findSubscriptionPlan(db: Database, scope: TenantScope, planId: string): Promise<SubscriptionPlan | null> {
  const [row] = await db
    .select()
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.id, planId), eq(subscriptionPlans.clinicId, scope.clinicId)))
    .limit(1);
  return row ? toSubscriptionPlan(row) : null;
}
