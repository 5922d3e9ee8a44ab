/**
 * A holder's dependents (Meu Perfil, 'Dependentes'; issue 27): listed with their cards and what one more or one fewer
 * costs, added within the plan's max_members (the holder counts as one), edited, and removed. Adding and removing are
 * subscription transitions: the lifecycle checks the room, reprices the next charges and hands the card work (issue
 * or suspend) to the cards module; the CPF is one person's per clinic (profiles/service.ts).
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import { DEPENDENT_RELATIONSHIPS, type Dependent, type DependentCreateValues, type DependentRelationship, type DependentsOverview } from '@carteirinha/shared/contracts/dependents';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { cards, dependents } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { claimDependentCpf, standingOfDependentCpf } from '../profiles/service.ts';
import type { JobRunner } from '../jobs/runner.ts';
import * as lifecycle from '../subscriptions/lifecycle.ts';

/** `kick`: the card work written in the transaction runs right after it commits, not at the runner's next poll. */
export type DependentDeps = { db: Database; jobs: Pick<JobRunner, 'enqueue' | 'kick'>; now: () => Date };
type HolderScope = { clinicId: string; userId: string };
type DependentFields = { fullName: string; birthDate: string; relationship: DependentRelationship };

const m = messages.dependents;

function relationshipOf(stored: string | null): DependentRelationship | null {
  return DEPENDENT_RELATIONSHIPS.find((key) => key === stored) ?? null;
}

/** The holder's covered dependents in the order added, each with their card's number (none until it is issued). */
async function coveredDependentsOf(db: Database, scope: HolderScope): Promise<Dependent[]> {
  const rows = await db
    .select({ id: dependents.id, fullName: dependents.fullName, cpf: dependents.cpf, birthDate: dependents.birthDate, relationship: dependents.relationship, cardNumber: cards.number })
    .from(dependents)
    .leftJoin(cards, and(eq(cards.dependentId, dependents.id), eq(cards.clinicId, dependents.clinicId)))
    .where(and(eq(dependents.holderUserId, scope.userId), eq(dependents.clinicId, scope.clinicId), isNull(dependents.removedAt)))
    .orderBy(asc(dependents.createdAt), asc(dependents.id));
  return rows.map((row) => ({ ...row, relationship: relationshipOf(row.relationship) }));
}

/** A subscription dependents can be added to: paid and running (not pending, overdue or cancelled). */
function acceptsDependents(current: lifecycle.SubscriptionWithPlan | null): current is lifecycle.SubscriptionWithPlan {
  return current !== null && current.subscription.status === 'active' && current.subscription.canceledAt === null;
}

function overviewOf(current: lifecycle.SubscriptionWithPlan | null, items: Dependent[]): DependentsOverview {
  const live = acceptsDependents(current);
  const plan = current?.plan ?? null;
  const maxDependents = plan ? Math.max(0, plan.maxMembers - 1) : 0;
  const priceOf = (count: number) => (plan ? lifecycle.cycleAmountOf(plan, count) : 0);
  // What the lifecycle will write: the contracted amount moved by the dependent price (the plan's price when none).
  const contracted = current?.subscription.amountCents ?? null;
  const priceWith = (count: number) => (plan && contracted !== null ? (lifecycle.amountAfterDependents(contracted, plan, items.length, count) ?? 0) : priceOf(count));
  return {
    items,
    maxDependents,
    addBlockedBy: !live ? 'noSubscription' : items.length >= maxDependents ? 'limitReached' : null,
    planName: plan?.name ?? null,
    billingCycle: plan?.billingCycle ?? null,
    dependentPriceCents: plan?.dependentPriceCents ?? 0,
    amountCents: contracted ?? priceOf(items.length),
    amountWithOneMoreCents: priceWith(items.length + 1),
    amountWithOneLessCents: priceWith(Math.max(0, items.length - 1)),
  };
}

/** GET /api/patient/dependents. */
export async function listDependents(db: Database, scope: HolderScope): Promise<DependentsOverview> {
  const current = await lifecycle.latestSubscriptionOf(db, scope);
  return overviewOf(current, await coveredDependentsOf(db, scope));
}

/** The lifecycle's refusals in the patient's words. */
function refusalToError(error: unknown): never {
  if (!(error instanceof lifecycle.LifecycleRefusal)) throw error;
  if (error.reason === 'noRoomForDependent') throw new AppError('CONFLICT', m.noRoom);
  if (error.reason === 'notDependentOfHolder') throw new AppError('NOT_FOUND', m.notFound);
  throw new AppError('CONFLICT', m.notActive);
}

function contextOf(deps: DependentDeps, tx: Database, scope: HolderScope, now: Date): lifecycle.LifecycleContext {
  return { tx, jobs: deps.jobs, now, source: 'patient', actorUserId: scope.userId };
}

/** A new dependent's row with its CPF claimed, or one taken off earlier brought back with the fields given. */
async function writeDependent(tx: Database, scope: HolderScope, input: DependentCreateValues, returning: string | null, now: Date): Promise<string> {
  const fields: DependentFields = { fullName: input.fullName, birthDate: input.birthDate, relationship: input.relationship };
  if (returning) {
    await tx.update(dependents).set({ ...fields, updatedAt: now }).where(and(eq(dependents.id, returning), eq(dependents.holderUserId, scope.userId), eq(dependents.clinicId, scope.clinicId)));
    return returning;
  }
  // Written as not yet covered: the lifecycle's addDependent covers it, once it has checked the plan's room.
  const [row] = await tx
    .insert(dependents)
    .values({ clinicId: scope.clinicId, holderUserId: scope.userId, cpf: input.cpf, ...fields, removedAt: now, createdAt: now, updatedAt: now })
    .returning({ id: dependents.id });
  if (!row) throw new Error('dependent not written');
  await claimDependentCpf(tx, { clinicId: scope.clinicId, holderUserId: scope.userId, dependentId: row.id, cpf: input.cpf, now });
  return row.id;
}

/**
 * POST /api/patient/dependents ('Adicionar'): only on an active subscription with room left. The CPF is checked first
 * (outside the transaction, so a refusal's audit row stays); then, under the subscription's lock, the row is written,
 * the lifecycle covers it (the price of the next charges follows) and the cards job issues their card.
 */
export async function addDependent(deps: DependentDeps, scope: HolderScope, input: DependentCreateValues): Promise<DependentsOverview> {
  const before = await listDependents(deps.db, scope);
  if (before.addBlockedBy === 'noSubscription') throw new AppError('CONFLICT', m.notActive);
  if (before.addBlockedBy === 'limitReached') throw new AppError('CONFLICT', m.noRoom);
  const standing = await standingOfDependentCpf(deps.db, { clinicId: scope.clinicId, holderUserId: scope.userId, cpf: input.cpf });
  const now = deps.now();
  await deps.db
    .transaction(async (tx) => {
      const current = await lifecycle.latestSubscriptionOf(tx, scope, { lock: true });
      if (!acceptsDependents(current)) throw new AppError('CONFLICT', m.notActive);
      const dependentId = await writeDependent(tx, scope, input, standing.kind === 'removedDependent' ? standing.dependentId : null, now);
      await lifecycle.addDependent(contextOf(deps, tx, scope, now), current.subscription, dependentId);
    })
    .catch(refusalToError);
  deps.jobs.kick();
  return listDependents(deps.db, scope);
}

/** PATCH /api/patient/dependents/:id ('Editar'): name, birth date and relationship of a covered dependent. */
export async function updateDependent(deps: DependentDeps, scope: HolderScope, dependentId: string, input: DependentFields): Promise<DependentsOverview> {
  const now = deps.now();
  const updated = await deps.db
    .update(dependents)
    .set({ ...input, updatedAt: now })
    .where(and(eq(dependents.id, dependentId), eq(dependents.holderUserId, scope.userId), eq(dependents.clinicId, scope.clinicId), isNull(dependents.removedAt)))
    .returning({ id: dependents.id });
  if (updated.length === 0) throw new AppError('NOT_FOUND', m.notFound);
  await recordAudit(deps.db, { actorUserId: scope.userId, action: 'dependent.updated', entity: 'dependent', entityId: dependentId, clinicId: scope.clinicId, details: { fields: Object.keys(input) } });
  return listDependents(deps.db, scope);
}

/**
 * DELETE /api/patient/dependents/:id ('Remover'): the dependent is no longer covered (the row and their card for life
 * stay, so their visits keep their names and adding them again restores the same card). On a live subscription the
 * lifecycle reprices it and the cards job suspends their card; on an ended one nothing is charged any more and the
 * card already follows the ended subscription, so only the row is marked.
 */
export async function removeDependent(deps: DependentDeps, scope: HolderScope, dependentId: string): Promise<DependentsOverview> {
  const now = deps.now();
  await deps.db
    .transaction(async (tx) => {
      const current = await lifecycle.latestSubscriptionOf(tx, scope, { lock: true });
      const [covered] = await tx
        .select({ id: dependents.id })
        .from(dependents)
        .where(and(eq(dependents.id, dependentId), eq(dependents.holderUserId, scope.userId), eq(dependents.clinicId, scope.clinicId), isNull(dependents.removedAt)))
        .limit(1);
      if (!covered) throw new AppError('NOT_FOUND', m.notFound);
      const status = current?.subscription.status;
      if (current && status !== 'canceled' && status !== 'expired') {
        await lifecycle.removeDependent(contextOf(deps, tx, scope, now), current.subscription, dependentId);
        return;
      }
      await tx.update(dependents).set({ removedAt: now, updatedAt: now }).where(eq(dependents.id, dependentId));
    })
    .catch(refusalToError);
  deps.jobs.kick();
  return listDependents(deps.db, scope);
}
