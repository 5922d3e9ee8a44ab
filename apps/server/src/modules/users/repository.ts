import { and, asc, count, desc, eq, gt, inArray, like, ne, or, sql } from 'drizzle-orm';
import type { KeysetListQuery } from '@carteirinha/shared/contracts/pagination';
import type { AdminUser, InvitationPreview, UserCounts, UserProfile } from '@carteirinha/shared/contracts/users';
import type { Role } from '@carteirinha/shared/roles';
import type { ClinicStatus } from '@carteirinha/shared/contracts/clinics';
import type { Database } from '../../db/client.ts';
import { accounts, clinics, profiles, sessions, twoFactors, userRoles, users, verifications } from '../../db/schema.ts';
import { cursorText, decodeCursor, offsetOf, olderThan, pageWithCursor } from '../../lib/keyset.ts';
import { storedFoldContains } from '../../lib/sql.ts';

// Explicit alias: a bare column name inside a correlated sub-query could bind to the inner table. An account with
// no sign-in method at all (no password, no Google) was invited and has not set its password yet. OFFSET 0 keeps it
// a look-up per row shown: without it the planner hashes every account first (51 000 of them, 5–17 ms a page on the
// generated data, bench/RESULTS.md) to answer for the 20 rows the page keeps.
const invitationPending = sql<boolean>`not exists (select 1 from accounts a where a.user_id = "users"."id" offset 0)`;

const userColumns = {
  id: users.id,
  email: users.email,
  fullName: users.name,
  role: userRoles.role,
  clinicId: userRoles.clinicId,
  clinicName: clinics.name,
  deactivatedAt: users.deactivatedAt,
  lastSignInAt: users.lastSignInAt,
  invitationPending,
  createdAt: users.createdAt,
};

type UserRow = {
  id: string;
  email: string;
  fullName: string;
  role: AdminUser['role'];
  clinicId: string | null;
  clinicName: string | null;
  deactivatedAt: Date | null;
  lastSignInAt: Date | null;
  invitationPending: boolean;
  createdAt: Date;
};

/** Deactivation wins: an invited account that was deactivated reads 'Desativado'. */
function statusOf(deactivatedAt: Date | null, invitationPending: boolean): AdminUser['status'] {
  if (deactivatedAt) return 'disabled';
  return invitationPending ? 'invited' : 'active';
}

function toAdminUser({ deactivatedAt, ...row }: UserRow): AdminUser {
  return {
    ...row,
    status: statusOf(deactivatedAt, row.invitationPending),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

function baseQuery(db: Database) {
  return db
    .select(userColumns)
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(clinics, eq(clinics.id, userRoles.clinicId));
}

/** The admin users search: the e-mail or the name contains `term`, case and accents ignored. */
export function userSearchCondition(term: string) {
  return or(storedFoldContains(users.emailFolded, term), storedFoldContains(users.nameFolded, term));
}

/**
 * /admin/usuarios: newest first, searched by e-mail or name (case and accents ignored: the folded columns and their
 * trigram indexes of migration 0030), a page after `query.after` (keyset on users_created_id_idx).
 */
export async function listUsers(db: Database, query: KeysetListQuery) {
  const where = query.q ? userSearchCondition(query.q) : undefined;
  const cursor = query.after ? decodeCursor(query.after) : null;
  const [rows, totals] = await Promise.all([
    db
      .select({ ...userColumns, cursorAt: cursorText(users.createdAt) })
      .from(users)
      .leftJoin(userRoles, eq(userRoles.userId, users.id))
      .leftJoin(clinics, eq(clinics.id, userRoles.clinicId))
      .where(and(where, olderThan(users.createdAt, users.id, cursor)))
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(query.pageSize + 1)
      .offset(offsetOf(query)),
    db.select({ total: count() }).from(users).where(where),
  ]);
  const page = pageWithCursor(rows, query.pageSize);
  return {
    items: page.rows.map(({ cursorAt: _cursor, ...row }) => toAdminUser(row)),
    total: totals[0]?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    nextCursor: page.nextCursor,
  };
}

export async function findAdminUser(db: Database, userId: string): Promise<AdminUser | null> {
  const [row] = await baseQuery(db).where(eq(users.id, userId)).limit(1);
  return row ? toAdminUser(row) : null;
}

export async function findUserIdByEmail(db: Database, email: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return row?.id ?? null;
}

/**
 * Whether the account's owner has shown that they hold its mailbox and use it: the e-mail was confirmed and the
 * account signed in. Anyone can sign up with someone else's address; such an account never gets a role directly.
 */
export async function ownerProvedMailbox(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ emailVerified: users.emailVerified, lastSignInAt: users.lastSignInAt }).from(users).where(eq(users.id, userId)).limit(1);
  return row !== undefined && row.emailVerified && row.lastSignInAt !== null;
}

/** The five cards: all accounts, then holders of each role. */
export async function userCounts(db: Database): Promise<UserCounts> {
  const [total] = await db.select({ total: count() }).from(users);
  const byRole = await db.select({ role: userRoles.role, total: count() }).from(userRoles).groupBy(userRoles.role);
  const of = (role: string) => byRole.find((row) => row.role === role)?.total ?? 0;
  return { total: total?.total ?? 0, admins: of('admin'), clinicAdmins: of('clinic_admin'), staff: of('clinic_staff'), patients: of('patient') };
}

/** 'Ver Perfil'. */
export async function userProfile(db: Database, userId: string): Promise<UserProfile | null> {
  const user = await findAdminUser(db, userId);
  if (!user) return null;
  const [extra] = await db
    .select({ emailVerified: users.emailVerified, phone: profiles.phone })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  const [active] = await db
    .select({ total: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())));
  return { ...user, emailVerified: extra?.emailVerified ?? false, phone: extra?.phone ?? null, activeSessions: active?.total ?? 0 };
}

export async function clinicExists(db: Database, clinicId: string): Promise<boolean> {
  const [clinic] = await db.select({ id: clinics.id }).from(clinics).where(eq(clinics.id, clinicId)).limit(1);
  return clinic !== undefined;
}

/** What an invitation e-mail for a clinic role shows: the clinic's brand, and its site while the site is open. */
export type InvitingClinic = { name: string; primaryColor: string | null; slug: string; domain: string | null; status: ClinicStatus };

export async function invitingClinic(db: Database, clinicId: string): Promise<InvitingClinic | null> {
  const [row] = await db
    .select({
      name: sql<string>`coalesce(${clinics.displayName}, ${clinics.name})`,
      primaryColor: clinics.primaryColor,
      slug: clinics.slug,
      domain: clinics.domain,
      status: clinics.status,
    })
    .from(clinics)
    .where(eq(clinics.id, clinicId))
    .limit(1);
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------------------------
// Role changes: called inside the service's transactions.
// ---------------------------------------------------------------------------------------------------------------

/**
 * Locks every Super Admin's role row (in one order, so two transactions cannot deadlock) and answers whose they are.
 * Whoever demotes or removes an admin holds these locks, so two admins removing each other at once cannot both pass
 * the "another admin remains" check.
 */
export async function lockAdminUserIds(tx: Database): Promise<string[]> {
  const rows = await tx.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.role, 'admin')).orderBy(asc(userRoles.id)).for('update');
  return rows.map((row) => row.userId);
}

/** Locks the account's row until the transaction ends (every role change of the account writes it too). */
export async function lockUser(tx: Database, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/** The user's role row, locked until the transaction ends; null when the user has no role. */
export async function lockRoleOf(tx: Database, userId: string): Promise<{ role: Role; clinicId: string | null } | null> {
  const [row] = await tx.select({ role: userRoles.role, clinicId: userRoles.clinicId }).from(userRoles).where(eq(userRoles.userId, userId)).for('update');
  return row ?? null;
}

export async function insertRole(tx: Database, userId: string, role: Role, clinicId: string | null): Promise<void> {
  await tx.insert(userRoles).values({ userId, role, clinicId });
}

export async function updateRoleOf(tx: Database, userId: string, role: Role, clinicId: string | null): Promise<void> {
  await tx.update(userRoles).set({ role, clinicId }).where(eq(userRoles.userId, userId));
}

export async function deleteRoleOf(tx: Database, userId: string): Promise<void> {
  await tx.delete(userRoles).where(eq(userRoles.userId, userId));
}

/** 'Desativar' sets the date; giving a role again clears it. */
export async function setDeactivatedAt(tx: Database, userId: string, at: Date | null): Promise<void> {
  await tx.update(users).set({ deactivatedAt: at }).where(eq(users.id, userId));
}

// ---------------------------------------------------------------------------------------------------------------
// Invitations.
// ---------------------------------------------------------------------------------------------------------------

/** better-auth's reset-password endpoint reads its tokens under this prefix, so an invitation link uses its form. */
const RESET_PASSWORD_PREFIX = 'reset-password:';

/**
 * The account of an invited e-mail, with its profile: no password and no other sign-in method, so nobody can sign in
 * to it until the set-password link is used. Made here rather than through better-auth so that the account, its role
 * and its link are written in one transaction.
 */
export async function insertInvitedUser(tx: Database, email: string): Promise<string> {
  const name = email.split('@')[0] ?? email;
  const [user] = await tx.insert(users).values({ email, name, emailVerified: false }).returning({ id: users.id });
  if (!user) throw new Error('invited user not created');
  await tx.insert(profiles).values({ id: user.id, fullName: name });
  return user.id;
}

/**
 * Takes back an account whose owner never proved the mailbox, before a role reaches it: every way into it goes (the
 * password someone chose at sign-up, linked Google logins, a second factor, sessions, earlier links) and what was
 * typed into it (the name becomes the e-mail's local part, like an invited account's). Only the invitation sent next
 * opens it again, in the mailbox's hands.
 */
export async function reclaimUnprovenAccount(tx: Database, userId: string, email: string): Promise<void> {
  const name = email.split('@')[0] ?? email;
  await tx.delete(accounts).where(eq(accounts.userId, userId));
  await tx.delete(sessions).where(eq(sessions.userId, userId));
  await tx.delete(twoFactors).where(eq(twoFactors.userId, userId));
  await tx.update(users).set({ name, twoFactorEnabled: false, emailVerified: false }).where(eq(users.id, userId));
  // Whatever else was typed into the profile is the same stranger's: it goes too.
  await tx.update(profiles).set({ fullName: name, cpf: null, phone: null, birthDate: null, avatarUrl: null }).where(eq(profiles.id, userId));
  await deleteInvitationTokens(tx, userId);
}

/** An invitation whose e-mail could not be sent is undone: the account goes with its role and profile (cascade). */
export async function deleteInvitedUser(db: Database, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(verifications).where(and(eq(verifications.value, userId), like(verifications.identifier, `${RESET_PASSWORD_PREFIX}%`)));
    await tx.delete(users).where(eq(users.id, userId));
  });
}

/** Who a set-password link that is still valid was made for: the address, the role and the clinic it gives. */
export async function invitationPreview(db: Database, token: string): Promise<InvitationPreview | null> {
  const [row] = await db
    .select({ email: users.email, role: userRoles.role, clinicName: sql<string | null>`coalesce(${clinics.displayName}, ${clinics.name})` })
    .from(verifications)
    .innerJoin(users, sql`${users.id}::text = ${verifications.value}`)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(clinics, eq(clinics.id, userRoles.clinicId))
    .where(and(eq(verifications.identifier, `${RESET_PASSWORD_PREFIX}${token}`), gt(verifications.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

/** Stores a set-password link's token, valid until `expiresAt`. */
export async function insertInvitationToken(db: Database, userId: string, token: string, expiresAt: Date): Promise<void> {
  await db.insert(verifications).values({ identifier: `${RESET_PASSWORD_PREFIX}${token}`, value: userId, expiresAt });
}

export async function deleteInvitationToken(db: Database, token: string): Promise<void> {
  await db.delete(verifications).where(eq(verifications.identifier, `${RESET_PASSWORD_PREFIX}${token}`));
}

/** Forgets the user's set-password links; with `exceptToken`, all but that one (the link just sent). */
export async function deleteInvitationTokens(db: Database, userId: string, exceptToken?: string): Promise<void> {
  await db
    .delete(verifications)
    .where(
      and(
        eq(verifications.value, userId),
        like(verifications.identifier, `${RESET_PASSWORD_PREFIX}%`),
        exceptToken === undefined ? undefined : ne(verifications.identifier, `${RESET_PASSWORD_PREFIX}${exceptToken}`),
      ),
    );
}


// ---------------------------------------------------------------------------------------------------------------
// A clinic's team (Equipe, issue 25).
// ---------------------------------------------------------------------------------------------------------------

export type TeamRow = {
  userId: string;
  fullName: string;
  email: string;
  role: 'clinic_admin' | 'clinic_staff';
  invitationPending: boolean;
  lastSignInAt: Date | null;
};

const teamRole = inArray(userRoles.role, ['clinic_admin', 'clinic_staff']);

function teamRows(db: Database) {
  return db
    .select({
      userId: users.id,
      fullName: sql<string>`coalesce(${profiles.fullName}, ${users.name})`,
      email: users.email,
      role: sql<'clinic_admin' | 'clinic_staff'>`${userRoles.role}`,
      invitationPending,
      lastSignInAt: users.lastSignInAt,
    })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .leftJoin(profiles, eq(profiles.id, users.id))
    .$dynamic();
}

/** The clinic's administrators and receptionists, administrators first, then by name. */
export async function listTeamRows(db: Database, clinicId: string): Promise<TeamRow[]> {
  return teamRows(db)
    .where(and(eq(userRoles.clinicId, clinicId), teamRole))
    .orderBy(asc(userRoles.role), asc(sql`coalesce(${profiles.fullName}, ${users.name})`), asc(users.id))
    .limit(500);
}

/** One member of this clinic's team; null for anyone else (404: another clinic's people are not confirmed). */
export async function findTeamRow(db: Database, clinicId: string, userId: string): Promise<TeamRow | null> {
  const [row] = await teamRows(db)
    .where(and(eq(userRoles.clinicId, clinicId), eq(userRoles.userId, userId), teamRole))
    .limit(1);
  return row ?? null;
}

/**
 * Locks the role rows of the clinic's administrators (in one order, so two changes cannot deadlock) and answers who
 * can sign in among them: an invitation nobody accepted yet does not keep the clinic open to its owners.
 */
export async function lockClinicAdmins(tx: Database, clinicId: string): Promise<{ userId: string; canSignIn: boolean }[]> {
  const rows = await tx
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(and(eq(userRoles.clinicId, clinicId), eq(userRoles.role, 'clinic_admin')))
    .orderBy(asc(userRoles.id))
    .for('update');
  if (rows.length === 0) return [];
  const withAccess = await tx
    .selectDistinct({ userId: accounts.userId })
    .from(accounts)
    .where(inArray(accounts.userId, rows.map((row) => row.userId)));
  const canSignIn = new Set(withAccess.map((row) => row.userId));
  return rows.map((row) => ({ userId: row.userId, canSignIn: canSignIn.has(row.userId) }));
}
