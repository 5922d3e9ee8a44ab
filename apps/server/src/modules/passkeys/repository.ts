import { and, asc, count, eq, gt, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { accounts, passkeys, sessions, users, webauthnChallenges } from '../../db/schema.ts';

export type PasskeyRow = typeof passkeys.$inferSelect;
export type Ceremony = 'registration' | 'sign-in' | 'second-factor';

export async function listPasskeysOf(db: Database, userId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export async function countPasskeysOf(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ total: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.total ?? 0;
}

/** The credentials of a user on one site: excluded from a new registration there, allowed for a second factor. */
export async function credentialsOn(db: Database, userId: string, rpId: string): Promise<Pick<PasskeyRow, 'credentialId' | 'transports'>[]> {
  return db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.rpId, rpId)));
}

export async function findPasskeyByCredentialId(db: Database, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
  return row ?? null;
}

export type NewPasskey = Omit<typeof passkeys.$inferInsert, 'id' | 'createdAt' | 'updatedAt' | 'lastUsedAt'>;

/** Stores a verified credential; null when the same credential is already registered (by anyone). */
export async function insertPasskey(db: Database, passkey: NewPasskey): Promise<PasskeyRow | null> {
  const [row] = await db.insert(passkeys).values(passkey).onConflictDoNothing({ target: passkeys.credentialId }).returning();
  return row ?? null;
}

/**
 * Takes the counter of an accepted assertion in one statement: only forward, so a replayed or cloned authenticator's
 * older counter loses even when two sign-ins race. Authenticators that keep no counter (always 0) pass.
 */
export async function advancePasskeyCounter(db: Database, id: string, newCounter: number, at: Date): Promise<boolean> {
  const updated = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: at })
    .where(and(eq(passkeys.id, id), or(lt(passkeys.counter, newCounter), and(eq(passkeys.counter, 0), sql`${newCounter} = 0`))))
    .returning({ id: passkeys.id });
  return updated.length > 0;
}

/**
 * Removes one of the user's passkeys unless it is their last way in (no password, no linked login, no other
 * passkey): 'removed', 'last-way' or 'not-found' (also for another user's passkey). The user's row is locked for
 * the check, so two removals at once cannot both pass it. The sessions the passkey opened end with it (foreign key).
 */
export async function removePasskeyOf(db: Database, userId: string, id: string): Promise<'removed' | 'last-way' | 'not-found'> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [target] = await tx.select({ id: passkeys.id }).from(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)));
    if (!target) return 'not-found';
    const [others] = await tx.select({ total: count() }).from(passkeys).where(and(eq(passkeys.userId, userId), ne(passkeys.id, id)));
    // A password account, or a linked login (Google): either still opens the account.
    const [linked] = await tx
      .select({ total: count() })
      .from(accounts)
      .where(and(eq(accounts.userId, userId), or(ne(accounts.providerId, 'credential'), isNotNull(accounts.password))));
    if ((others?.total ?? 0) === 0 && (linked?.total ?? 0) === 0) return 'last-way';
    await tx.delete(passkeys).where(eq(passkeys.id, id));
    return 'removed';
  });
}

export async function storeChallenge(
  db: Database,
  challenge: { challenge: string; ceremony: Ceremony; userId: string | null; rpId: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  // Challenges nobody answered go as new ones come; a live one is never touched.
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  await db.insert(webauthnChallenges).values(challenge);
}

/**
 * Uses up a challenge the browser answered, found by its value, for this ceremony, site and user: true once, false
 * for an unknown, expired, foreign or already used one (the delete lets one of two racing answers through).
 */
export async function consumeChallenge(db: Database, challenge: string, expected: { ceremony: Ceremony; rpId: string; userId: string | null }, now: Date): Promise<boolean> {
  const owner = expected.userId === null ? sql`${webauthnChallenges.userId} is null` : eq(webauthnChallenges.userId, expected.userId);
  const deleted = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.ceremony, expected.ceremony),
        eq(webauthnChallenges.rpId, expected.rpId),
        owner,
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return deleted.length > 0;
}

/** The session passed its second factor with this passkey: it ends when the passkey is removed. */
export async function markSessionVerifiedByPasskey(db: Database, sessionId: string, passkeyId: string): Promise<void> {
  await db.update(sessions).set({ twoFactorVerified: true, passkeyId }).where(eq(sessions.id, sessionId));
}
