import { and, eq, gt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { verifications } from '../../db/schema.ts';

/**
 * A TOTP code is accepted for its 30 s step and one step either side (better-auth's window), so it stays valid for
 * up to 90 s. Security checklist item 14: each code works once. better-auth does not remember used codes, so we
 * do, in its verifications table, for as long as the code could still be accepted.
 */
const CODE_LIFETIME_MS = 90_000;

function identifierOf(userId: string, code: string): string {
  return `totp-used:${userId}:${code}`;
}

export async function wasTotpCodeUsed(db: Database, userId: string, code: string): Promise<boolean> {
  const [row] = await db
    .select({ id: verifications.id })
    .from(verifications)
    .where(and(eq(verifications.identifier, identifierOf(userId, code)), gt(verifications.expiresAt, new Date())))
    .limit(1);
  return row !== undefined;
}

export async function markTotpCodeUsed(db: Database, userId: string, code: string): Promise<void> {
  await db.insert(verifications).values({ identifier: identifierOf(userId, code), value: userId, expiresAt: new Date(Date.now() + CODE_LIFETIME_MS) });
}
