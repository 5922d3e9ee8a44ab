import { and, asc, eq } from 'drizzle-orm';
import type { SubscriptionPlan, SubscriptionPlanFormOutput } from '@carteirinha/shared/contracts/subscription-plans';
import type { Database } from '../../db/client.ts';
import { subscriptionPlans } from '../../db/schema.ts';
import { toSubscriptionPlan } from './plan-view.ts';

type TenantScope = { clinicId: string };

/**
 * A plan is on sale when it is active and its clinic's admin has saved it at least once: the starter plan every new
 * clinic gets waits for its owner to review its price (issue 25). The one place this rule is written in SQL for the
 * plans list; checkout's own lookup repeats it beside its lock.
 */
export const planOnSale = and(eq(subscriptionPlans.isActive, true), eq(subscriptionPlans.awaitingReview, false));

/** The caller's clinic's patient plans, cheapest first (specification §7): all of them, or only those on sale. */
export async function listSubscriptionPlans(db: Database, scope: TenantScope, options: { onSaleOnly: boolean }): Promise<SubscriptionPlan[]> {
  const rows = await db
    .select()
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.clinicId, scope.clinicId), options.onSaleOnly ? planOnSale : undefined))
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

type PlanWrite = Omit<typeof subscriptionPlans.$inferInsert, 'id' | 'clinicId' | 'createdAt' | 'updatedAt' | 'awaitingReview'>;

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

/** A new plan; `awaitingReview` for the starter plan nobody at the clinic has looked at yet. */
export async function insertSubscriptionPlan(db: Database, scope: TenantScope, values: PlanWrite, options: { awaitingReview: boolean; now: Date }): Promise<SubscriptionPlan> {
  const [row] = await db
    .insert(subscriptionPlans)
    .values({ ...values, clinicId: scope.clinicId, awaitingReview: options.awaitingReview, createdAt: options.now, updatedAt: options.now })
    .returning();
  if (!row) throw new Error('subscription plan not inserted');
  return toSubscriptionPlan(row);
}

/** Updates one plan of the caller's clinic; another clinic's id matches nothing (null → 404). */
export async function updateSubscriptionPlan(db: Database, scope: TenantScope, planId: string, values: PlanWrite, now: Date): Promise<SubscriptionPlan | null> {
  const [row] = await db
    .update(subscriptionPlans)
    .set({ ...values, updatedAt: now, awaitingReview: false })
    .where(and(eq(subscriptionPlans.id, planId), eq(subscriptionPlans.clinicId, scope.clinicId)))
    .returning();
  return row ? toSubscriptionPlan(row) : null;
}
