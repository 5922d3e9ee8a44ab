import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AdminUser, AssignRoleInput } from '@carteirinha/shared/contracts/users';
import { messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS, roleNeedsClinic, type Role } from '@carteirinha/shared/roles';
import type { Database } from '../../db/client.ts';
import { clinics, sessions, userRoles } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { pendingInvitations, type Auth } from '../auth/auth.ts';
import { findAdminUser, findUserIdByEmail } from './repository.ts';

type Actor = { userId: string };
type RoleChange = { role: Role; clinicId?: string | null | undefined };

async function assertClinicExists(db: Database, clinicId: string | null): Promise<void> {
  if (!clinicId) return;
  const [clinic] = await db.select({ id: clinics.id }).from(clinics).where(eq(clinics.id, clinicId)).limit(1);
  if (!clinic) throw new AppError('NOT_FOUND', messages.tenancy.clinicNotFoundTitle);
}

async function mustFind(db: Database, userId: string): Promise<AdminUser> {
  const user = await findAdminUser(db, userId);
  if (!user) throw new AppError('NOT_FOUND', messages.admin.userNotFound);
  return user;
}

function clinicFor(change: RoleChange): string | null {
  return roleNeedsClinic(change.role) ? (change.clinicId ?? null) : null;
}

/**
 * Creates the account of an invited e-mail, with an unguessable password nobody knows, and sends the
 * set-password link (a reset link with invitation wording).
 */
async function inviteUser(auth: Auth, email: string, role: Role): Promise<string> {
  const ctx = await auth.$context;
  const user = await ctx.internalAdapter.createUser({ email, name: email.split('@')[0] ?? email, emailVerified: false }, { method: 'admin' });
  const password = await ctx.password.hash(randomBytes(32).toString('base64url'));
  await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password });
  pendingInvitations.set(email, ROLE_LABELS[role]);
  try {
    await auth.api.requestPasswordReset({ body: { email, redirectTo: '/auth/redefinir-senha' } });
  } finally {
    pendingInvitations.delete(email);
  }
  return user.id;
}

/** Ends every session of a user: after a role change or removal the next request is re-authorized from scratch. */
async function endSessions(db: Database, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** 'Novo Usuário': a role for an existing user (by e-mail or id), or an invitation to a new e-mail. */
export async function assignRole(db: Database, auth: Auth, actor: Actor, input: AssignRoleInput & RoleChange): Promise<{ user: AdminUser; invited: boolean }> {
  const clinicId = clinicFor(input);
  await assertClinicExists(db, clinicId);
  let userId = input.userId ?? (input.email ? await findUserIdByEmail(db, input.email) : null);
  let invited = false;
  if (input.userId && !(await findAdminUser(db, input.userId))) throw new AppError('NOT_FOUND', messages.admin.userNotFound);
  if (userId === actor.userId) throw new AppError('CONFLICT', messages.admin.cannotChangeOwnRole);
  if (userId) {
    const existing = await mustFind(db, userId);
    if (existing.role) throw new AppError('CONFLICT', messages.admin.alreadyHasRole);
  } else if (input.email) {
    userId = await inviteUser(auth, input.email, input.role);
    invited = true;
  }
  if (!userId) throw new AppError('VALIDATION', messages.admin.userOrEmailRequired);
  const target = userId;
  await db.transaction(async (tx) => {
    await tx.insert(userRoles).values({ userId: target, role: input.role, clinicId });
    await recordAudit(tx, { actorUserId: actor.userId, action: 'role.assigned', entity: 'user_role', entityId: target, clinicId, details: { role: input.role, invited } });
  });
  return { user: await mustFind(db, target), invited };
}

/** 'Alterar Permissões': role and clinic; the user's sessions end so the new rights apply at once. */
export async function updateRole(db: Database, actor: Actor, userId: string, change: RoleChange): Promise<AdminUser> {
  if (userId === actor.userId) throw new AppError('CONFLICT', messages.admin.cannotChangeOwnRole);
  await mustFind(db, userId);
  const clinicId = clinicFor(change);
  await assertClinicExists(db, clinicId);
  await db.transaction(async (tx) => {
    await tx
      .insert(userRoles)
      .values({ userId, role: change.role, clinicId })
      .onConflictDoUpdate({ target: userRoles.userId, set: { role: change.role, clinicId } });
    await endSessions(tx, userId);
    await recordAudit(tx, { actorUserId: actor.userId, action: 'role.updated', entity: 'user_role', entityId: userId, clinicId, details: { role: change.role } });
  });
  return mustFind(db, userId);
}

/** 'Desativar': removes the role and ends every session of the user (security checklist §7 item 10). */
export async function removeRole(db: Database, actor: Actor, userId: string): Promise<void> {
  if (userId === actor.userId) throw new AppError('CONFLICT', messages.admin.cannotChangeOwnRole);
  const user = await mustFind(db, userId);
  await db.transaction(async (tx) => {
    await tx.delete(userRoles).where(eq(userRoles.userId, userId));
    await endSessions(tx, userId);
    await recordAudit(tx, { actorUserId: actor.userId, action: 'role.removed', entity: 'user_role', entityId: userId, clinicId: user.clinicId, details: { role: user.role } });
  });
}
