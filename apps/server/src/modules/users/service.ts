import type { FastifyBaseLogger } from 'fastify';
import type { AdminUser, AssignRoleOutput } from '@carteirinha/shared/contracts/users';
import { messages } from '@carteirinha/shared/messages';
import { roleNeedsClinic, type Role } from '@carteirinha/shared/roles';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { isForeignKeyViolation, uniqueViolationConstraint } from '../../lib/db-errors.ts';
import { endSessionsOfUser } from '../auth/sessions.ts';
import { INVITATION_LIFETIME_MS, newInvitationToken, sendInvitation, type InvitationDeps } from './invitations.ts';
import {
  clinicExists,
  deleteInvitationToken,
  deleteInvitationTokens,
  deleteInvitedUser,
  deleteRoleOf,
  findAdminUser,
  findUserIdByEmail,
  insertInvitationToken,
  insertInvitedUser,
  insertRole,
  invitingClinic,
  lockAdminUserIds,
  lockRoleOf,
  lockUser,
  ownerProvedMailbox,
  reclaimUnprovenAccount,
  setDeactivatedAt,
  updateRoleOf,
} from './repository.ts';

type Actor = { userId: string };
type RoleChange = { role: Role; clinicId?: string | null | undefined };
export type UsersDeps = InvitationDeps & { db: Database; log: FastifyBaseLogger };

const u = messages.adminUsers;

function clinicFor(change: RoleChange): string | null {
  return roleNeedsClinic(change.role) ? (change.clinicId ?? null) : null;
}

async function assertClinicExists(db: Database, clinicId: string | null): Promise<void> {
  if (clinicId && !(await clinicExists(db, clinicId))) throw new AppError('NOT_FOUND', messages.tenancy.clinicNotFoundTitle);
}

async function mustFind(db: Database, userId: string): Promise<AdminUser> {
  const user = await findAdminUser(db, userId);
  if (!user) throw new AppError('NOT_FOUND', messages.admin.userNotFound);
  return user;
}

function refuseSelf(actor: Actor, userId: string): void {
  if (userId === actor.userId) throw new AppError('CONFLICT', messages.admin.cannotChangeOwnRole);
}

/**
 * A role write that lost a race answers with the catalogue, never a 500: the user got a role from someone else
 * meanwhile (or the e-mail was invited twice at once), or the clinic or the user was deleted under it.
 */
async function raceToAppError(db: Database, error: unknown, clinicId: string | null): Promise<unknown> {
  if (uniqueViolationConstraint(error) !== null) return new AppError('CONFLICT', messages.admin.alreadyHasRole);
  if (!isForeignKeyViolation(error)) return error;
  if (clinicId && !(await clinicExists(db, clinicId))) return new AppError('NOT_FOUND', messages.tenancy.clinicNotFoundTitle);
  return new AppError('NOT_FOUND', messages.admin.userNotFound);
}

/**
 * The platform must keep a Super Admin. Called in the transaction that demotes or removes `current`, after
 * `lockAdminUserIds`, so a concurrent change of another admin waits and then sees this one's outcome.
 */
function assertAnotherAdminRemains(adminIds: string[], current: { role: Role }, nextRole: Role | null): void {
  if (current.role === 'admin' && nextRole !== 'admin' && adminIds.length <= 1) throw new AppError('CONFLICT', u.lastAdmin);
}

/** Gives an existing account its role; an account 'Desativar' closed is opened again. */
async function assignExisting(db: Database, actor: Actor, userId: string, role: Role, clinicId: string | null): Promise<void> {
  const existing = await mustFind(db, userId);
  if (existing.role) throw new AppError('CONFLICT', messages.admin.alreadyHasRole);
  try {
    await db.transaction(async (tx) => {
      await insertRole(tx, userId, role, clinicId);
      await setDeactivatedAt(tx, userId, null);
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: 'role.assigned',
        entity: 'user_role',
        entityId: userId,
        clinicId,
        details: { role, invited: false, reactivated: existing.status === 'disabled' },
      });
    });
  } catch (error) {
    throw await raceToAppError(db, error, clinicId);
  }
}

/**
 * Invites a new e-mail: the account (no password), its role and a 7-day set-password link are written together, then
 * the e-mail is sent. If the e-mail cannot be sent, all of it is undone and the admin is told; nothing half-made stays.
 */
async function invite(deps: UsersDeps, actor: Actor, email: string, role: Role, clinicId: string | null): Promise<string> {
  const { db } = deps;
  const token = newInvitationToken();
  let userId: string;
  try {
    userId = await db.transaction(async (tx) => {
      const id = await insertInvitedUser(tx, email);
      await insertRole(tx, id, role, clinicId);
      await insertInvitationToken(tx, id, token, new Date(Date.now() + INVITATION_LIFETIME_MS));
      await recordAudit(tx, { actorUserId: actor.userId, action: 'role.assigned', entity: 'user_role', entityId: id, clinicId, details: { role, invited: true } });
      return id;
    });
  } catch (error) {
    throw await raceToAppError(db, error, clinicId);
  }
  try {
    await sendInvitation(deps, { email, role, token, clinic: clinicId ? await invitingClinic(db, clinicId) : null });
  } catch (error) {
    deps.log.warn({ userId, reason: error instanceof Error ? error.message : String(error) }, 'users.invitation.not_sent');
    await undoInvitation(deps, actor, userId, role, clinicId);
    throw new AppError('SERVICE_UNAVAILABLE', u.inviteNotSent);
  }
  return userId;
}

/**
 * Removes the account an invitation that could not be sent had created, with its audit row, in one transaction. If
 * that fails too (the database went away), it is logged: the admin still hears that the e-mail did not go, and the
 * account stays with its invitation pending, which 'Reenviar convite' can send later.
 */
async function undoInvitation(deps: UsersDeps, actor: Actor, userId: string, role: Role, clinicId: string | null): Promise<void> {
  try {
    await deps.db.transaction(async (tx) => {
      await deleteInvitedUser(tx, userId);
      await recordAudit(tx, { actorUserId: actor.userId, action: 'role.removed', entity: 'user_role', entityId: userId, clinicId, details: { role, reason: 'invitation_not_sent' } });
    });
  } catch (error) {
    deps.log.error({ userId, err: error }, 'users.invitation.not_undone');
  }
}

/**
 * An existing account whose owner never proved the mailbox (anyone can sign up with a future colleague's address)
 * gets the role only as an invitation: its sign-in methods, sessions and typed data go (`reclaimUnprovenAccount`) in
 * the transaction that gives the role and a 7-day link, then the link is e-mailed. If it cannot be sent, the role and
 * link are undone; the account stays without its password, which only the mailbox's owner can set again.
 */
async function reclaimAndInvite(deps: UsersDeps, actor: Actor, user: AdminUser, role: Role, clinicId: string | null): Promise<void> {
  const { db } = deps;
  const token = newInvitationToken();
  try {
    await db.transaction(async (tx) => {
      await lockUser(tx, user.id);
      if (await lockRoleOf(tx, user.id)) throw new AppError('CONFLICT', messages.admin.alreadyHasRole);
      await reclaimUnprovenAccount(tx, user.id, user.email);
      await insertRole(tx, user.id, role, clinicId);
      await setDeactivatedAt(tx, user.id, null);
      await insertInvitationToken(tx, user.id, token, new Date(Date.now() + INVITATION_LIFETIME_MS));
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: 'role.assigned',
        entity: 'user_role',
        entityId: user.id,
        clinicId,
        details: { role, invited: true, unverifiedAccount: true, reactivated: user.status === 'disabled' },
      });
    });
  } catch (error) {
    throw await raceToAppError(db, error, clinicId);
  }
  deps.log.info({ userId: user.id }, 'users.unverified_account.reclaimed');
  try {
    await sendInvitation(deps, { email: user.email, role, token, clinic: clinicId ? await invitingClinic(db, clinicId) : null });
  } catch (error) {
    deps.log.warn({ userId: user.id, reason: error instanceof Error ? error.message : String(error) }, 'users.invitation.not_sent');
    await db.transaction(async (tx) => {
      await deleteRoleOf(tx, user.id);
      await deleteInvitationTokens(tx, user.id);
      if (user.status === 'disabled') await setDeactivatedAt(tx, user.id, new Date());
      await recordAudit(tx, { actorUserId: actor.userId, action: 'role.removed', entity: 'user_role', entityId: user.id, clinicId, details: { role, reason: 'invitation_not_sent' } });
    });
    throw new AppError('SERVICE_UNAVAILABLE', u.unverifiedInviteNotSent);
  }
}

/** What 'Novo Usuário' did: gave the role, invited a new e-mail, or invited an existing account that was never proven. */
export type AssignRoleResult = { user: AdminUser; invited: boolean; unverifiedAccount: boolean };

/**
 * 'Novo Usuário': a role for an existing user (by e-mail or id), or an invitation to a new e-mail. An account whose
 * owner has not confirmed the e-mail and signed in is invited instead (issue 12, item 1: ADR 006).
 */
export async function assignRole(deps: UsersDeps, actor: Actor, input: AssignRoleOutput): Promise<AssignRoleResult> {
  const { db } = deps;
  const clinicId = clinicFor(input);
  await assertClinicExists(db, clinicId);
  if (input.userId) await mustFind(db, input.userId);
  const userId = input.userId ?? (input.email ? await findUserIdByEmail(db, input.email) : null);
  if (userId) {
    refuseSelf(actor, userId);
    const existing = await mustFind(db, userId);
    if (existing.role) throw new AppError('CONFLICT', messages.admin.alreadyHasRole);
    if (!(await ownerProvedMailbox(db, userId))) {
      await reclaimAndInvite(deps, actor, existing, input.role, clinicId);
      return { user: await mustFind(db, userId), invited: true, unverifiedAccount: true };
    }
    await assignExisting(db, actor, userId, input.role, clinicId);
    return { user: await mustFind(db, userId), invited: false, unverifiedAccount: false };
  }
  if (!input.email) throw new AppError('VALIDATION', messages.admin.userOrEmailRequired);
  const invitedId = await invite(deps, actor, input.email, input.role, clinicId);
  return { user: await mustFind(db, invitedId), invited: true, unverifiedAccount: false };
}

type CurrentRole = { role: Role; clinicId: string | null };

/**
 * Changes a user's role in one transaction, under the locks that keep a Super Admin on the platform: every admin's
 * row, then the user's own, so two admins demoting each other at once cannot leave none. `apply` writes the change
 * and its audit row; the user's sessions end with it, so the new rights (or none) apply at the next request. A user
 * without a role has nothing to change ('Novo Usuário' gives one). A write that lost a race answers from the catalogue.
 */
async function changeRoleLocked(
  db: Database,
  userId: string,
  nextRole: Role | null,
  apply: (tx: Database, current: CurrentRole) => Promise<void>,
  clinicId: string | null = null,
): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const adminIds = await lockAdminUserIds(tx);
      const current = await lockRoleOf(tx, userId);
      if (!current) throw new AppError('NOT_FOUND', u.noRole);
      assertAnotherAdminRemains(adminIds, current, nextRole);
      await apply(tx, current);
      await endSessionsOfUser(tx, userId);
    });
  } catch (error) {
    throw await raceToAppError(db, error, clinicId);
  }
}

/** 'Alterar Permissões': role and clinic; the user's sessions end so the new rights apply at once. */
export async function updateRole(db: Database, actor: Actor, userId: string, change: RoleChange): Promise<AdminUser> {
  refuseSelf(actor, userId);
  await mustFind(db, userId);
  const clinicId = clinicFor(change);
  await assertClinicExists(db, clinicId);
  await changeRoleLocked(
    db,
    userId,
    change.role,
    async (tx, current) => {
      await updateRoleOf(tx, userId, change.role, clinicId);
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: 'role.updated',
        entity: 'user_role',
        entityId: userId,
        clinicId,
        details: { role: change.role, clinicId, previousRole: current.role, previousClinicId: current.clinicId },
      });
    },
    clinicId,
  );
  return mustFind(db, userId);
}

/**
 * 'Alterar Permissões' from the API. A patient (the role anyone gets by signing up on a clinic's site) whose owner never
 * proved the mailbox is raised to a clinic or platform role only as an invitation, as 'Novo Usuário' does: otherwise
 * whoever signed up with a future colleague's address would get the colleague's rights with one more step.
 */
export async function changeRole(deps: UsersDeps, actor: Actor, userId: string, change: RoleChange): Promise<AdminUser> {
  const user = await mustFind(deps.db, userId);
  if (user.role === 'patient' && change.role !== 'patient' && !(await ownerProvedMailbox(deps.db, userId))) {
    return raiseUnprovenPatient(deps, actor, user, change);
  }
  return updateRole(deps.db, actor, userId, change);
}

/**
 * The role changes in the same locked transaction as any other change, with the account taken back and a 7-day link;
 * then the link is e-mailed. If it cannot be sent, the change stands without a way in: 'Reenviar convite' sends one.
 */
async function raiseUnprovenPatient(deps: UsersDeps, actor: Actor, user: AdminUser, change: RoleChange): Promise<AdminUser> {
  const { db } = deps;
  refuseSelf(actor, user.id);
  const clinicId = clinicFor(change);
  await assertClinicExists(db, clinicId);
  const token = newInvitationToken();
  await changeRoleLocked(
    db,
    user.id,
    change.role,
    async (tx, current) => {
      if (current.role !== 'patient') throw new AppError('CONFLICT', u.changedMeanwhile);
      await reclaimUnprovenAccount(tx, user.id, user.email);
      await updateRoleOf(tx, user.id, change.role, clinicId);
      await insertInvitationToken(tx, user.id, token, new Date(Date.now() + INVITATION_LIFETIME_MS));
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: 'role.updated',
        entity: 'user_role',
        entityId: user.id,
        clinicId,
        details: { role: change.role, clinicId, previousRole: current.role, previousClinicId: current.clinicId, unverifiedAccount: true },
      });
    },
    clinicId,
  );
  deps.log.info({ userId: user.id }, 'users.unverified_account.reclaimed');
  try {
    await sendInvitation(deps, { email: user.email, role: change.role, token, clinic: clinicId ? await invitingClinic(db, clinicId) : null });
  } catch (error) {
    deps.log.warn({ userId: user.id, reason: error instanceof Error ? error.message : String(error) }, 'users.invitation.not_sent');
    throw new AppError('SERVICE_UNAVAILABLE', u.unverifiedChangeInviteNotSent);
  }
  return mustFind(db, user.id);
}

/**
 * 'Desativar': removes the role, closes the account (it can no longer sign in anywhere, nor be enrolled as a patient
 * by a clinic's site), ends every session it has (security checklist §7 item 10) and voids any invitation link not
 * yet used, which would otherwise work again once the account is reopened. 'Novo Usuário' opens it again. An account
 * that never had a role (a sign-up that stopped before onboarding) is closed the same way.
 */
export async function deactivateUser(db: Database, actor: Actor, userId: string): Promise<void> {
  refuseSelf(actor, userId);
  const user = await mustFind(db, userId);
  if (user.status === 'disabled') throw new AppError('CONFLICT', u.alreadyDeactivated);
  if (!user.role) return closeAccountWithoutRole(db, actor, userId);
  await changeRoleLocked(db, userId, null, async (tx, current) => {
    await closeAccount(tx, userId);
    await deleteRoleOf(tx, userId);
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'role.removed',
      entity: 'user_role',
      entityId: userId,
      clinicId: current.clinicId,
      details: { role: current.role, clinicId: current.clinicId, deactivated: true },
    });
  });
}

async function closeAccount(tx: Database, userId: string): Promise<void> {
  await setDeactivatedAt(tx, userId, new Date());
  await deleteInvitationTokens(tx, userId);
}

/**
 * The user's row is locked before the role is looked at: a role given at the same moment either commits first (and
 * this answers that the user changed) or waits and reopens the account after this closed it.
 */
async function closeAccountWithoutRole(db: Database, actor: Actor, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUser(tx, userId);
    if (await lockRoleOf(tx, userId)) throw new AppError('CONFLICT', u.changedMeanwhile);
    await closeAccount(tx, userId);
    await endSessionsOfUser(tx, userId);
    await recordAudit(tx, { actorUserId: actor.userId, action: 'user.deactivated', entity: 'user', entityId: userId, details: { role: null, deactivated: true } });
  });
}

/**
 * 'Reenviar convite': a new 7-day link for an invited account that has not set its password (the first e-mail was
 * lost, or its link expired). The earlier links stop working once the new one is on its way.
 */
export async function resendInvitation(deps: UsersDeps, actor: Actor, userId: string): Promise<void> {
  const { db } = deps;
  const user = await mustFind(db, userId);
  if (!user.role) throw new AppError('CONFLICT', u.resendNeedsRole);
  if (!user.invitationPending) throw new AppError('CONFLICT', u.alreadyHasPassword);
  const token = newInvitationToken();
  await insertInvitationToken(db, userId, token, new Date(Date.now() + INVITATION_LIFETIME_MS));
  try {
    await sendInvitation(deps, { email: user.email, role: user.role, token, clinic: user.clinicId ? await invitingClinic(db, user.clinicId) : null });
  } catch (error) {
    deps.log.warn({ userId, reason: error instanceof Error ? error.message : String(error) }, 'users.invitation.not_resent');
    // The link that was not sent goes; any earlier one keeps working.
    await deleteInvitationToken(db, token);
    throw new AppError('SERVICE_UNAVAILABLE', u.resendNotSent);
  }
  await deleteInvitationTokens(db, userId, token);
  await recordAudit(db, { actorUserId: actor.userId, action: 'role.invitation_resent', entity: 'user_role', entityId: userId, clinicId: user.clinicId });
}
