import { lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { usedCaptchaChallenges } from '../../db/schema.ts';

/**
 * Takes a captcha challenge for one form submission: true the first time, false when it was already used — also when
 * two submissions carry it at the same moment (the primary key lets one insert through). Rows of challenges that
 * have expired go at the same time: past its expiry a challenge is refused anyway.
 */
export async function claimCaptchaChallenge(db: Database, nonce: string, expiresAt: Date, now: Date): Promise<boolean> {
  await db.delete(usedCaptchaChallenges).where(lt(usedCaptchaChallenges.expiresAt, now));
  const claimed = await db
    .insert(usedCaptchaChallenges)
    .values({ nonce, expiresAt })
    .onConflictDoNothing()
    .returning({ nonce: usedCaptchaChallenges.nonce });
  return claimed.length > 0;
}
