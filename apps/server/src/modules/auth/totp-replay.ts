import { lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { usedTotpCodes } from '../../db/schema.ts';

/**
 * A TOTP code is accepted for its 30 s step and one step either side (better-auth's window), so it stays valid for
 * up to 90 s. Security checklist item 14: each code works once. better-auth does not remember used codes, so we do.
 */
const CODE_LIFETIME_MS = 90_000;

/**
 * Claims an accepted code for this user in one statement: true the first time, false for a replay, even when two
 * requests carry the same code at the same moment (the primary key lets only one insert through). A claim older
 * than the code's lifetime is taken over, since the same six digits may come round again later.
 */
export async function claimTotpCode(db: Database, userId: string, code: string): Promise<boolean> {
  const now = new Date();
  const claimed = await db
    .insert(usedTotpCodes)
    .values({ userId, code, expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS) })
    .onConflictDoUpdate({
      target: [usedTotpCodes.userId, usedTotpCodes.code],
      set: { expiresAt: sql`excluded.expires_at` },
      setWhere: lt(usedTotpCodes.expiresAt, now),
    })
    .returning({ userId: usedTotpCodes.userId });
  return claimed.length > 0;
}
