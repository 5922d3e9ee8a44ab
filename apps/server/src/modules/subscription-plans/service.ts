import type { SubscriptionPlan, SubscriptionPlanFormOutput } from '@carteirinha/shared/contracts/subscription-plans';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { refreshPriceHistory } from '../services/price-history.ts';
import { insertSubscriptionPlan, listSubscriptionPlans, planColumnsOf, updateSubscriptionPlan } from './repository.ts';

type Scope = { clinicId: string };
type Actor = Scope & { userId: string };

/**
 * The clinic's plans on sale (active, and saved once by its admin), cheapest first: what its site offers (GET
 * /api/tenant, and the landing page the server draws).
 */
export function plansOnSale(db: Database, scope: Scope): Promise<SubscriptionPlan[]> {
  return listSubscriptionPlans(db, scope, { onSaleOnly: true });
}

/** Every plan of the clinic, on sale or not: its Planos screen. */
export function allClinicPlans(db: Database, scope: Scope): Promise<SubscriptionPlan[]> {
  return listSubscriptionPlans(db, scope, { onSaleOnly: false });
}

/** A plan saved changes the card prices of the public price table: the history records it with the change's clock. */
async function recordPrices(tx: Database, actor: Actor, now: Date): Promise<void> {
  await refreshPriceHistory(tx, actor, await plansOnSale(tx, actor), now);
}

/**
 * 'Novo Plano' on /clinica/planos. Platform-role transaction with every statement bound to the actor's clinic (the
 * audit trail is not a tenant-writable table), so the plan and its audit row are written together or not at all.
 */
export async function createClinicPlan(db: Database, actor: Actor, input: SubscriptionPlanFormOutput, now: Date): Promise<SubscriptionPlan> {
  return db.transaction(async (tx) => {
    const plan = await insertSubscriptionPlan(tx, actor, planColumnsOf(input), { awaitingReview: false, now });
    await recordPrices(tx, actor, now);
    await recordAudit(tx, { actorUserId: actor.userId, action: 'subscription_plan.created', entity: 'subscription_plan', entityId: plan.id, clinicId: actor.clinicId, details: { ...input } });
    return plan;
  });
}

/**
 * 'Editar Plano'. Deactivating a plan hides it from new subscribers only: existing subscriptions keep it, and keep
 * the price they contracted (`subscriptions.amount_cents`), so a price change applies to new subscribers. Saving
 * marks the plan reviewed: the starter plan goes on sale the first time its owner saves it (issue 25).
 */
export async function updateClinicPlan(db: Database, actor: Actor, planId: string, input: SubscriptionPlanFormOutput, now: Date): Promise<SubscriptionPlan> {
  return db.transaction(async (tx) => {
    const plan = await updateSubscriptionPlan(tx, actor, planId, planColumnsOf(input), now);
    if (!plan) throw new AppError('NOT_FOUND');
    await recordPrices(tx, actor, now);
    await recordAudit(tx, { actorUserId: actor.userId, action: 'subscription_plan.updated', entity: 'subscription_plan', entityId: plan.id, clinicId: actor.clinicId, details: { ...input } });
    return plan;
  });
}
