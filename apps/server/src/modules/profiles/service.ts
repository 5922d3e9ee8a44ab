/**
 * The patient's profile as other modules use it, and the rule that a CPF belongs to one person per clinic (issue 22):
 * holders and dependents alike, recorded in `cpf_claims` (its key is the clinic and the CPF). A checkout with a CPF
 * another person of the clinic holds is refused and audited, so an impostor can no longer take over a CPF (and the
 * card the clinic's CPF lookup finds); the clinic admin gives a CPF to its real owner after checking a document.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { ReassignCpfRequest, ReassignCpfResponse } from '@carteirinha/shared/contracts/profiles';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { cpfClaims, dependents, profiles, userRoles, users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { fillProfileGaps, findProfile } from './repository.ts';

export { fillProfileGaps, findProfile };

type CpfOwner = { userId: string; dependentId: string | null };

async function ownerOfCpf(db: Database, clinicId: string, cpf: string, options: { lock?: boolean } = {}): Promise<CpfOwner | null> {
  const query = db
    .select({ userId: cpfClaims.userId, dependentId: cpfClaims.dependentId })
    .from(cpfClaims)
    .where(and(eq(cpfClaims.clinicId, clinicId), eq(cpfClaims.cpf, cpf)))
    .limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

function isHolder(owner: CpfOwner | null, userId: string): boolean {
  return owner !== null && owner.userId === userId && owner.dependentId === null;
}

/**
 * Before checkout reaches the provider: refuses a CPF that another person of the clinic holds, with the audit row the
 * clinic reads when the real owner comes with a document. A CPF nobody holds, or the patient's own, passes.
 */
export async function refuseCpfOfAnother(db: Database, claim: { clinicId: string; userId: string; cpf: string }): Promise<void> {
  const owner = await ownerOfCpf(db, claim.clinicId, claim.cpf);
  if (owner === null || isHolder(owner, claim.userId)) return;
  await recordAudit(db, {
    actorUserId: claim.userId,
    action: 'cpf.claim_refused',
    entity: 'user',
    entityId: claim.userId,
    clinicId: claim.clinicId,
    details: { cpf: claim.cpf, heldByUserId: owner.userId, heldByDependentId: owner.dependentId },
  });
  throw new AppError('CONFLICT', messages.checkoutRules.cpfTaken);
}

/**
 * Records the holder's CPF in the clinic, in the checkout's transaction (with the profile's CPF): the first claim wins.
 * Throws when another person got it since refuseCpfOfAnother (two checkouts racing for one CPF).
 */
export async function claimHolderCpf(tx: Database, claim: { clinicId: string; userId: string; cpf: string; now: Date }): Promise<void> {
  await tx.insert(cpfClaims).values({ clinicId: claim.clinicId, cpf: claim.cpf, userId: claim.userId, dependentId: null, claimedAt: claim.now }).onConflictDoNothing();
  if (!isHolder(await ownerOfCpf(tx, claim.clinicId, claim.cpf), claim.userId)) throw new AppError('CONFLICT', messages.checkoutRules.cpfTaken);
}

/** What a CPF offered for a new dependent is to the holder adding them. */
export type DependentCpfStanding = { kind: 'free' } | { kind: 'removedDependent'; dependentId: string };

async function isRemovedDependentOf(db: Database, owner: CpfOwner, holderUserId: string): Promise<boolean> {
  if (owner.dependentId === null || owner.userId !== holderUserId) return false;
  const [row] = await db.select({ removedAt: dependents.removedAt }).from(dependents).where(eq(dependents.id, owner.dependentId)).limit(1);
  return row !== undefined && row.removedAt !== null;
}

/**
 * Before a dependent is added ('Adicionar' in Meu Perfil): the dependent's CPF, like a holder's, is one person's per
 * clinic (issue 22). One nobody holds is free; one of a dependent this holder took off earlier brings that person back
 * (their card for life with them); any other — the holder's own, a covered dependent's, another patient's — is
 * refused, and a CPF held by someone else is audited as checkout's refusal is (the clinic reads it when the real owner
 * comes with a document). Runs outside the adding transaction, so the audit row survives the refusal.
 */
export async function standingOfDependentCpf(db: Database, claim: { clinicId: string; holderUserId: string; cpf: string }): Promise<DependentCpfStanding> {
  const owner = await ownerOfCpf(db, claim.clinicId, claim.cpf);
  if (owner === null) return { kind: 'free' };
  if (owner.dependentId !== null && (await isRemovedDependentOf(db, owner, claim.holderUserId))) return { kind: 'removedDependent', dependentId: owner.dependentId };
  if (isHolder(owner, claim.holderUserId)) throw new AppError('CONFLICT', messages.dependents.holderCpf);
  if (owner.userId === claim.holderUserId) throw new AppError('CONFLICT', messages.dependents.alreadyYours);
  await recordAudit(db, {
    actorUserId: claim.holderUserId,
    action: 'cpf.claim_refused',
    entity: 'user',
    entityId: claim.holderUserId,
    clinicId: claim.clinicId,
    details: { cpf: claim.cpf, asDependent: true, heldByUserId: owner.userId, heldByDependentId: owner.dependentId },
  });
  throw new AppError('CONFLICT', messages.checkoutRules.cpfTaken);
}

/**
 * Records a new dependent's CPF in the clinic, in the adding transaction (with the dependent's row): the first claim
 * wins. Throws when another person got it since standingOfDependentCpf (two requests racing for one CPF).
 */
export async function claimDependentCpf(tx: Database, claim: { clinicId: string; holderUserId: string; dependentId: string; cpf: string; now: Date }): Promise<void> {
  await tx.insert(cpfClaims).values({ clinicId: claim.clinicId, cpf: claim.cpf, userId: claim.holderUserId, dependentId: claim.dependentId, claimedAt: claim.now }).onConflictDoNothing();
  const owner = await ownerOfCpf(tx, claim.clinicId, claim.cpf);
  if (owner?.dependentId !== claim.dependentId) throw new AppError('CONFLICT', messages.checkoutRules.cpfTaken);
}

/** Takes the CPF off the person who held it: the claim, and the CPF on their profile or dependent record. */
async function takeCpfFrom(tx: Database, clinicId: string, cpf: string, owner: CpfOwner): Promise<void> {
  await tx.delete(cpfClaims).where(and(eq(cpfClaims.clinicId, clinicId), eq(cpfClaims.cpf, cpf)));
  if (owner.dependentId) {
    await tx.update(dependents).set({ cpf: null }).where(and(eq(dependents.id, owner.dependentId), eq(dependents.clinicId, clinicId), eq(dependents.cpf, cpf)));
  } else {
    await tx.update(profiles).set({ cpf: null }).where(and(eq(profiles.id, owner.userId), eq(profiles.cpf, cpf)));
  }
}

/** The clinic's patient with this e-mail (accounts belong to one clinic), or null. */
async function patientByEmail(tx: Database, clinicId: string, email: string): Promise<{ id: string; name: string } | null> {
  const [row] = await tx
    .select({ id: users.id, name: sql<string>`coalesce(${profiles.fullName}, ${users.name})` })
    .from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.role, 'patient'), eq(userRoles.clinicId, clinicId)))
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.email, email))
    .limit(1);
  return row ?? null;
}

/**
 * 'Corrigir CPF' (POST /api/clinic/cpf-claims): the clinic admin, having seen a document, gives the CPF to the patient
 * with this e-mail. Whoever held it loses it (their profile's or dependent's CPF is cleared), the patient's profile
 * gets it, and the move is audited with both people. A patient who already has another CPF is refused: the admin
 * corrects that one first.
 */
export async function reassignCpf(db: Database, admin: { clinicId: string; userId: string }, input: ReassignCpfRequest): Promise<ReassignCpfResponse> {
  return db.transaction(async (tx) => {
    const patient = await patientByEmail(tx, admin.clinicId, input.email);
    if (!patient) throw new AppError('NOT_FOUND', messages.cards.cpfOwnerNotFound);
    const profile = await findProfile(tx, patient.id);
    if (profile?.cpf && profile.cpf !== input.cpf) throw new AppError('CONFLICT', messages.cards.cpfOwnerHasAnother);
    const owner = await ownerOfCpf(tx, admin.clinicId, input.cpf, { lock: true });
    if (isHolder(owner, patient.id)) return { cpf: input.cpf, patientName: patient.name, movedFromAnother: false };
    if (owner) await takeCpfFrom(tx, admin.clinicId, input.cpf, owner);
    await tx.insert(cpfClaims).values({ clinicId: admin.clinicId, cpf: input.cpf, userId: patient.id, dependentId: null });
    await tx
      .insert(profiles)
      .values({ id: patient.id, fullName: patient.name, cpf: input.cpf })
      .onConflictDoUpdate({ target: profiles.id, set: { cpf: input.cpf } });
    await recordAudit(tx, {
      actorUserId: admin.userId,
      action: 'cpf.reassigned',
      entity: 'user',
      entityId: patient.id,
      clinicId: admin.clinicId,
      details: { cpf: input.cpf, fromUserId: owner?.userId ?? null, fromDependentId: owner?.dependentId ?? null, toUserId: patient.id },
    });
    return { cpf: input.cpf, patientName: patient.name, movedFromAnother: owner !== null };
  });
}
