import { reaisToCents, type PlanFormOutput, type PlatformPlanRecord, type PublicPlatformPlan } from '@carteirinha/shared/contracts/plans';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { clinicsOnPlan, deletePlanRow, findPlan, insertPlan, listPlansForSale, updatePlanRow, type PlanColumns } from './repository.ts';

type Actor = { userId: string };

/** The platform's plans on sale to clinics (GET /api/public/plans, and the landing page the server draws). */
export function plansForSale(db: Database): Promise<PublicPlatformPlan[]> {
  return listPlansForSale(db);
}

function columnsOf(input: PlanFormOutput): PlanColumns {
  return {
    name: input.name,
    // No price is "sob consulta" (Enterprise): stored as null, and left out of the MRR.
    priceCents: input.price === null ? null : reaisToCents(input.price),
    description: input.description,
    features: input.features,
    maxPatients: input.maxPatients,
    maxClinics: input.maxClinics,
    popular: input.popular,
    isActive: input.isActive,
    customDomain: input.customDomain,
    fullWhitelabel: input.fullWhitelabel,
    mobileApp: input.mobileApp,
    advancedReports: input.advancedReports,
    supportLevel: input.supportLevel,
    slaUptimePercent: input.slaUptimePercent,
  };
}

async function mustFind(db: Database, planId: string): Promise<PlatformPlanRecord> {
  const plan = await findPlan(db, planId);
  if (!plan) throw new AppError('NOT_FOUND');
  return plan;
}

export async function createPlan(db: Database, actor: Actor, input: PlanFormOutput): Promise<PlatformPlanRecord> {
  const id = await db.transaction(async (tx) => {
    const planId = await insertPlan(tx, columnsOf(input));
    await recordAudit(tx, { actorUserId: actor.userId, action: 'plan.created', entity: 'plan', entityId: planId, details: { name: input.name, price: input.price } });
    return planId;
  });
  return mustFind(db, id);
}

export async function updatePlan(db: Database, actor: Actor, planId: string, input: PlanFormOutput): Promise<PlatformPlanRecord> {
  await mustFind(db, planId);
  await db.transaction(async (tx) => {
    await updatePlanRow(tx, planId, columnsOf(input));
    await recordAudit(tx, { actorUserId: actor.userId, action: 'plan.updated', entity: 'plan', entityId: planId, details: { ...input } });
  });
  return mustFind(db, planId);
}

function planInUse(clinicCount: number): AppError {
  return new AppError('CONFLICT', formatMessage(messages.admin.planInUse, { count: clinicCount }));
}

/**
 * A plan that clinics are on cannot be deleted: the message says how many and suggests deactivating it. A clinic that
 * moves onto the plan while it is being deleted is caught by the foreign key and told the same way.
 */
export async function deletePlan(db: Database, actor: Actor, planId: string): Promise<void> {
  const plan = await mustFind(db, planId);
  if (plan.clinicCount > 0) throw planInUse(plan.clinicCount);
  try {
    await db.transaction(async (tx) => {
      await deletePlanRow(tx, planId);
      await recordAudit(tx, { actorUserId: actor.userId, action: 'plan.deleted', entity: 'plan', entityId: planId, details: { name: plan.name } });
    });
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    throw planInUse(Math.max(1, await clinicsOnPlan(db, planId)));
  }
}
