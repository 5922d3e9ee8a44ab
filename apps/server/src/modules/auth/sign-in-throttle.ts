import { and, count, eq, gt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { signInFailures } from '../../db/schema.ts';

export type SignInThrottle = {
  /** Whether the account has used up its failed attempts in the current window. */
  isBlocked: (email: string) => Promise<boolean>;
  recordFailure: (email: string, ipAddress: string) => Promise<void>;
  /** A successful sign-in forgets earlier failures. */
  reset: (email: string) => Promise<void>;
};

/**
 * Per-account limit on failed sign-ins, kept in the database so that every server process sees the same count.
 * The window slides: there is never a permanent lock-out, the account frees itself as old failures age
 * (security checklist §7 item 2).
 */
export function createSignInThrottle(db: Database, options: { limit: number; windowMs: number }): SignInThrottle {
  return {
    async isBlocked(email) {
      const since = new Date(Date.now() - options.windowMs);
      const [row] = await db
        .select({ failures: count() })
        .from(signInFailures)
        .where(and(eq(signInFailures.email, email), gt(signInFailures.createdAt, since)));
      return (row?.failures ?? 0) >= options.limit;
    },
    async recordFailure(email, ipAddress) {
      await db.insert(signInFailures).values({ email, ipAddress });
    },
    async reset(email) {
      await db.delete(signInFailures).where(eq(signInFailures.email, email));
    },
  };
}
