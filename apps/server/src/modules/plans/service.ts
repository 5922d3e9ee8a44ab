import type { MrrHistory } from '@carteirinha/shared/contracts/dashboard';
import { reaisToCents, type PlanFormOutput, type PlanSummary, type PlatformPlanRecord, type PublicPlatformPlan } from '@carteirinha/shared/contracts/plans';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { clinicsOnPlan, deletePlanRow, findPlan, insertPlan, listPlansForSale, mrrAtInstants, planSummary, updatePlanRow, type PlanColumns } from './repository.ts';

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

/** The platform's plans, active clinics and MRR with its change this month (the admin Dashboard's revenue card). */
export function platformPlanSummary(db: Database, now: Date): Promise<PlanSummary> {
  return planSummary(db, now);
}

const MRR_HISTORY_MONTHS = 12;

/** The São Paulo month (yyyy-MM) `offset` months before the one `day` (yyyy-MM-dd) is in, and its first day. */
function monthBefore(day: string, offset: number): { month: string; firstDay: string } {
  const [year = 1970, month = 1] = day.split('-').map(Number);
  const index = year * 12 + (month - 1) - offset;
  const label = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  return { month: label, firstDay: `${label}-01` };
}

/**
 * The admin Dashboard's MRR chart: the MRR at the end of each of the last 12 months in São Paulo (ADR 005 keeps the
 * history), the current month's as of `now`.
 */
export async function mrrHistory(db: Database, now: Date): Promise<MrrHistory> {
  const today = saoPauloDay(now);
  const months = Array.from({ length: MRR_HISTORY_MONTHS }, (_, index) => monthBefore(today, MRR_HISTORY_MONTHS - 1 - index));
  const instants = months.map((_month, index) => {
    const next = months[index + 1];
    return next ? saoPauloMidnight(next.firstDay) : now;
  });
  const values = await mrrAtInstants(db, instants);
  return { months: months.map((month, index) => ({ month: month.month, mrrCents: values[index] ?? 0 })) };
}
