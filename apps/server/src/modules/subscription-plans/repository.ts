import { and, asc, eq } from 'drizzle-orm';
import type { SubscriptionPlan, SubscriptionPlanFormOutput } from '@carteirinha/shared/contracts/subscription-plans';
import type { Database } from '../../db/client.ts';
import { subscriptionPlans } from '../../db/schema.ts';
import { toSubscriptionPlan } from './plan-view.ts';

type TenantScope = { clinicId: string };

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

type PlanWrite = Omit<typeof subscriptionPlans.$inferInsert, 'id' | 'clinicId' | 'createdAt' | 'updatedAt'>;

/** The form's values as the table's columns (an empty description is none). */
export function planColumnsOf(input: SubscriptionPlanFormOutput): PlanWrite {
  return {
    name: input.name,
    description: input.description === '' ? null : input.description,
    priceCents: input.priceCents,
    dependentPriceCents: input.dependentPriceCents,
    adhesionFeeCents: input.adhesionFeeCents,
    billingCycle: input.billingCycle,
    features: input.features,
    maxMembers: input.maxMembers,
    waitingDays: input.waitingDays,
    discountConsultas: input.discounts.consultas,
    discountExames: input.discounts.exames,
    discountProcedimentos: input.discounts.procedimentos,
    isActive: input.isActive,
  };
}

export async function insertSubscriptionPlan(db: Database, scope: TenantScope, values: PlanWrite): Promise<SubscriptionPlan> {
  const [row] = await db
    .insert(subscriptionPlans)
    .values({ ...values, clinicId: scope.clinicId })
    .returning();
  if (!row) throw new Error('subscription plan not inserted');
  return toSubscriptionPlan(row);
}

/** Updates one plan of the caller's clinic; another clinic's id matches nothing (null → 404). */
export async function updateSubscriptionPlan(db: Database, scope: TenantScope, planId: string, values: PlanWrite): Promise<SubscriptionPlan | null> {
  const [row] = await db
    .update(subscriptionPlans)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(subscriptionPlans.id, planId), eq(subscriptionPlans.clinicId, scope.clinicId)))
    .returning();
  return row ? toSubscriptionPlan(row) : null;
}
