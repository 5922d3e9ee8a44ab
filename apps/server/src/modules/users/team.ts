import type { TeamInvitation, TeamMember, TeamRole } from '@carteirinha/shared/contracts/users';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { endSessionsOfUser } from '../auth/sessions.ts';
import { deleteInvitationTokens, deleteInvitedUser, deleteRoleOf, findAdminUser, findTeamRow, findUserIdByEmail, listTeamRows, lockClinicAdmins, lockRoleOf, updateRoleOf, type TeamRow } from './repository.ts';
import { assignRole, resendInvitation, type UsersDeps } from './service.ts';

/** The clinic's admin acting in Equipe: every change is confined to `clinicId`. */
type TeamActor = { userId: string; clinicId: string };

const t = messages.team;

function toMember(row: TeamRow, actor: TeamActor): TeamMember {
  return {
    userId: row.userId,
    fullName: row.fullName,
    email: row.email,
    role: row.role,
    status: row.invitationPending ? 'invited' : 'active',
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    isSelf: row.userId === actor.userId,
  };
}

async function mustFindMember(db: Database, actor: TeamActor, userId: string): Promise<TeamRow> {
  const member = await findTeamRow(db, actor.clinicId, userId);
  if (!member) throw new AppError('NOT_FOUND', t.memberNotFound);
  return member;
}

/** Equipe: the clinic's administrators and receptionists, with pending invitations marked. */
export async function listTeam(db: Database, actor: TeamActor): Promise<TeamMember[]> {
  return (await listTeamRows(db, actor.clinicId)).map((row) => toMember(row, actor));
}

/**
 * 'Convidar': the platform's invitation flow (ADR 006), confined to the caller's clinic and its two team roles. The
 * link lands on the clinic's own site. An e-mail already on the team, or used by an account with a role anywhere
 * (one role per person), is refused with its own message before anything is written.
 */
export async function inviteTeamMember(deps: UsersDeps, actor: TeamActor, input: TeamInvitation): Promise<TeamMember> {
  const existingId = await findUserIdByEmail(deps.db, input.email);
  if (existingId) {
    if (await findTeamRow(deps.db, actor.clinicId, existingId)) throw new AppError('CONFLICT', t.alreadyMember);
    if ((await findAdminUser(deps.db, existingId))?.role) throw new AppError('CONFLICT', t.emailInUse);
  }
  const result = await assignRole(deps, { userId: actor.userId }, { email: input.email, role: input.role, clinicId: actor.clinicId });
  return toMember(await mustFindMember(deps.db, actor, result.user.id), actor);
}

/**
 * The clinic must keep an administrator who can sign in. Called in the transaction that demotes or removes `userId`,
 * after `lockClinicAdmins`, so two administrators removing each other at once cannot leave none.
 */
function assertAnotherAdminRemains(admins: { userId: string; canSignIn: boolean }[], current: { role: string }, userId: string, nextRole: TeamRole | null): void {
  if (current.role !== 'clinic_admin' || nextRole === 'clinic_admin') return;
  if (!admins.some((admin) => admin.userId !== userId && admin.canSignIn)) throw new AppError('CONFLICT', t.lastAdmin);
}

/**
 * Runs a change of one member under the clinic's administrator locks: the member's role row is locked and must still
 * be this clinic's, the last-administrator rule holds, and the member's sessions end with the change.
 */
async function changeMemberLocked(db: Database, actor: TeamActor, userId: string, nextRole: TeamRole | null, apply: (tx: Database, current: { role: string }) => Promise<void>): Promise<void> {
  await db.transaction(async (tx) => {
    const admins = await lockClinicAdmins(tx, actor.clinicId);
    const current = await lockRoleOf(tx, userId);
    if (!current || current.clinicId !== actor.clinicId || (current.role !== 'clinic_admin' && current.role !== 'clinic_staff')) {
      throw new AppError('NOT_FOUND', t.memberNotFound);
    }
    assertAnotherAdminRemains(admins, current, userId, nextRole);
    await apply(tx, current);
    await endSessionsOfUser(tx, userId);
  });
}

/** 'Alterar função': Admin de Clínica ↔ Atendente; the person's sessions end so the new rights apply at once. */
export async function changeTeamRole(db: Database, actor: TeamActor, userId: string, role: TeamRole): Promise<TeamMember> {
  await changeMemberLocked(db, actor, userId, role, async (tx, current) => {
    await updateRoleOf(tx, userId, role, actor.clinicId);
    await recordAudit(tx, { actorUserId: actor.userId, action: 'role.updated', entity: 'user_role', entityId: userId, clinicId: actor.clinicId, details: { role, previousRole: current.role, via: 'team' } });
  });
  return toMember(await mustFindMember(db, actor, userId), actor);
}

/**
 * 'Remover acesso' (and 'Cancelar convite' for someone who never created a password). A member who has an account of
 * their own keeps it, without any role here: their sessions end at once and their links stop working. An invitation
 * nobody accepted is undone whole — the account it made goes, so its link leads nowhere.
 */
export async function removeTeamMember(db: Database, actor: TeamActor, userId: string): Promise<'removed' | 'invitationCanceled'> {
  const member = await mustFindMember(db, actor, userId);
  const outcome = member.invitationPending ? 'invitationCanceled' : 'removed';
  await changeMemberLocked(db, actor, userId, null, async (tx, current) => {
    await deleteRoleOf(tx, userId);
    await deleteInvitationTokens(tx, userId);
    await recordAudit(tx, { actorUserId: actor.userId, action: 'role.removed', entity: 'user_role', entityId: userId, clinicId: actor.clinicId, details: { role: current.role, via: 'team', outcome } });
  });
  // The account an unaccepted invitation made has no sign-in method and no role left: it goes with its profile.
  if (outcome === 'invitationCanceled') await deleteInvitedUser(db, userId);
  return outcome;
}

/** 'Reenviar convite' for a member of this clinic who has not created a password yet. */
export async function resendTeamInvitation(deps: UsersDeps, actor: TeamActor, userId: string): Promise<void> {
  const member = await mustFindMember(deps.db, actor, userId);
  if (!member.invitationPending) throw new AppError('CONFLICT', t.notInvitation);
  await resendInvitation(deps, { userId: actor.userId }, userId);
}
