import { and, eq, like, ne, sql } from 'drizzle-orm';
import type { Role } from '@carteirinha/shared/roles';
import type { Database } from '../../db/client.ts';
import { clinics, sessions, userRoles, users, verifications } from '../../db/schema.ts';

/** Whether 'Desativar' closed this account (a user that does not exist is not "deactivated"). */
export async function isAccountDeactivated(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ deactivatedAt: users.deactivatedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return row !== undefined && row.deactivatedAt !== null;
}

/** The address the account has now (lower case), or null for no such account. */
export async function storedEmailOf(db: Database, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return row ? row.email.toLowerCase() : null;
}

/** 'Último Login': stamped when a sign-in completes, and kept when its session ends. */
export async function recordSignIn(db: Database, userId: string, at = new Date()): Promise<void> {
  await db.update(users).set({ lastSignInAt: at }).where(eq(users.id, userId));
}

/** A set-password link reached its mailbox and was used: the address is the person's. */
export async function markEmailVerified(db: Database, userId: string): Promise<void> {
  await db.update(users).set({ emailVerified: true }).where(and(eq(users.id, userId), eq(users.emailVerified, false)));
}

/** What decides whether a just-started session is a complete sign-in or still owes its second factor. */
export type StartedSession = { userId: string; role: Role | null; twoFactorEnabled: boolean; twoFactorVerified: boolean };

export async function startedSession(db: Database, token: string): Promise<StartedSession | null> {
  const [row] = await db
    .select({ userId: sessions.userId, role: userRoles.role, twoFactorEnabled: users.twoFactorEnabled, twoFactorVerified: sessions.twoFactorVerified })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userRoles, eq(userRoles.userId, sessions.userId))
    .where(eq(sessions.token, token))
    .limit(1);
  return row ?? null;
}

export async function deleteSessionByToken(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.token, token));
}

/** Every session of a user ends: after a role change, a removal, or when a deactivated account shows up. */
export async function deleteSessionsOfUser(db: Database, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** This session passed the second factor (a TOTP or backup code was accepted for it). */
export async function markSessionTwoFactorVerified(db: Database, token: string): Promise<void> {
  await db.update(sessions).set({ twoFactorVerified: true }).where(eq(sessions.token, token));
}

/**
 * 'Sessões múltiplas' off: a new sign-in ends the user's other sessions. Done on the session the answer hands out,
 * so it covers password, two-factor and Google sign-ins alike, and never runs while a two-factor step is pending.
 */
export async function endOtherSessions(db: Database, token: string): Promise<void> {
  const owner = sql`(SELECT ${sessions.userId} FROM ${sessions} WHERE ${sessions.token} = ${token})`;
  await db.delete(sessions).where(and(eq(sessions.userId, owner), ne(sessions.token, token)));
}

/** The address of the clinic an account belongs to (by its role), or null for platform accounts and those without one. */
export async function clinicAddressOfAccount(db: Database, userId: string): Promise<{ slug: string; domain: string | null } | null> {
  const [row] = await db
    .select({ slug: clinics.slug, domain: clinics.domain })
    .from(userRoles)
    .innerJoin(clinics, eq(clinics.id, userRoles.clinicId))
    .where(eq(userRoles.userId, userId))
    .limit(1);
  return row ?? null;
}

/**
 * Ends every reset (and invitation) link of the account: better-auth keeps each as a `reset-password:<token>`
 * verification whose value is the user's id, and consumes only the one that was used.
 */
export async function deleteResetTokensOf(db: Database, userId: string): Promise<void> {
  await db.delete(verifications).where(and(eq(verifications.value, userId), like(verifications.identifier, 'reset-password:%')));
}
