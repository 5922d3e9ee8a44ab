import type { SubscriptionPlan, SubscriptionPlanFormOutput } from '@carteirinha/shared/contracts/subscription-plans';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { insertSubscriptionPlan, listSubscriptionPlans, planColumnsOf, updateSubscriptionPlan } from './repository.ts';

type Actor = { userId: string; clinicId: string };

/** The plans a clinic's site offers its patients (GET /api/tenant, and the landing page the server draws). */
export function plansOnSaleAt(db: Database, clinicId: string): Promise<SubscriptionPlan[]> {
  return listSubscriptionPlans(db, { clinicId }, { activeOnly: true });
}

/**
 * 'Novo Plano' on /clinica/planos. Platform-role transaction with every statement bound to the actor's clinic (the
 * audit trail is not a tenant-writable table), so the plan and its audit row are written together or not at all.
 */
export async function createClinicPlan(db: Database, actor: Actor, input: SubscriptionPlanFormOutput): Promise<SubscriptionPlan> {
  return db.transaction(async (tx) => {
    const plan = await insertSubscriptionPlan(tx, actor, planColumnsOf(input));
    await recordAudit(tx, { actorUserId: actor.userId, action: 'subscription_plan.created', entity: 'subscription_plan', entityId: plan.id, clinicId: actor.clinicId, details: { ...input } });
    return plan;
  });
}

/**
 * 'Editar Plano'. Deactivating a plan hides it from new subscribers only: existing subscriptions keep it, and keep
 * the price they contracted (`subscriptions.amount_cents`), so a price change applies to new subscribers.
 */
export async function updateClinicPlan(db: Database, actor: Actor, planId: string, input: SubscriptionPlanFormOutput): Promise<SubscriptionPlan> {
  return db.transaction(async (tx) => {
    const plan = await updateSubscriptionPlan(tx, actor, planId, planColumnsOf(input));
    if (!plan) throw new AppError('NOT_FOUND');
    await recordAudit(tx, { actorUserId: actor.userId, action: 'subscription_plan.updated', entity: 'subscription_plan', entityId: plan.id, clinicId: actor.clinicId, details: { ...input } });
    return plan;
  });
}
