import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { signInCeilingNotices, signInFailures, signInKnownAddresses } from '../../db/schema.ts';

/** Whether a sign-in may be tried now; when not, how long to wait (sent as `Retry-After`) and why (for the log). */
export type SignInVerdict =
  | { allowed: true }
  | { allowed: false; retryAfterSeconds: number; reason: 'address_limit' | 'account_delay' | 'account_ceiling' };

export type SignInThrottle = {
  /** Asked before the password is checked, so a refused attempt costs no hash and tells nothing. */
  check: (email: string, ipAddress: string) => Promise<SignInVerdict>;
  recordFailure: (email: string, ipAddress: string) => Promise<void>;
  /** A completed sign-in (second factor included): this address's failures were the owner's, and it becomes known. */
  recordSuccess: (email: string, ipAddress: string) => Promise<void>;
  /** Failed sign-ins from this address in the address window, whatever the account: the captcha starts from it. */
  addressFailures: (ipAddress: string) => Promise<number>;
};

export type SignInThrottleOptions = {
  /** Failures one account may take from one address per `addressWindowMs`. */
  addressLimit: number;
  addressWindowMs: number;
  /** Failures one account may take from all addresses together per hour (security checklist: ≤ 100). */
  accountLimit: number;
  /**
   * Tells the owner that the ceiling was reached: writes the e-mail's job (account-mail.ts), for the address typed
   * whether or not it has an account — the job finds out — so this answer takes as long either way. Called at most
   * once per hour per address.
   */
  onCeilingReached: (email: string) => Promise<void>;
  now?: () => Date;
};

/** The account-wide window of the security checklist: failed attempts per account per hour. */
export const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
/** An address the owner signed in from stays known this long after the last sign-in there. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;
const DELAY_BASE_MS = 1000;
const DELAY_MAX_MS = 60_000;

/**
 * The progressive delay of the account-wide budget. Up to half the ceiling there is none; from there the account
 * waits 1 s after its latest failure, then 2 s, 4 s … up to a minute, so a distributed guesser gets few tries per
 * hour while a person who mistyped from an unknown place waits seconds. The delay is never served by holding the
 * request open (which would let an attacker tie up the server): the answer is an immediate 429 with `Retry-After`.
 */
export function accountDelayMs(failures: number, accountLimit: number): number {
  const free = Math.ceil(accountLimit / 2);
  if (failures < free) return 0;
  return Math.min(DELAY_BASE_MS * 2 ** (failures - free), DELAY_MAX_MS);
}

function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/** Forgets every failed sign-in of the account: its owner proved the mailbox by completing a password reset. */
export async function forgetSignInFailures(db: Database, email: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.email, email.toLowerCase()));
}

/**
 * Failed sign-ins counted in the database, so every server process sees the same numbers (ADR 007):
 * - per account and address: a few failures from one place stop that place only, so an attacker's mistakes never
 *   refuse the owner's right password elsewhere;
 * - per account, all addresses, per hour: a ceiling with progressive delay bounds a distributed attack; the addresses
 *   the owner signed in from before are not held back by it, and the owner is told by e-mail.
 * Windows slide: there is never a permanent lock-out, and a completed password reset clears the account.
 */
export function createSignInThrottle(db: Database, options: SignInThrottleOptions): SignInThrottle {
  const now = options.now ?? (() => new Date());
  const longestWindowMs = Math.max(options.addressWindowMs, ACCOUNT_WINDOW_MS);

  async function failuresOf(email: string, ipAddress: string, at: Date) {
    const addressSince = new Date(at.getTime() - options.addressWindowMs);
    const accountSince = new Date(at.getTime() - ACCOUNT_WINDOW_MS);
    const atAddress = and(eq(signInFailures.ipAddress, ipAddress), gt(signInFailures.createdAt, addressSince));
    const inAccountWindow = gt(signInFailures.createdAt, accountSince);
    const [row] = await db
      .select({
        address: sql<number>`count(*) filter (where ${atAddress})`.mapWith(Number),
        addressOldest: sql<Date | null>`min(${signInFailures.createdAt}) filter (where ${atAddress})`.mapWith(signInFailures.createdAt),
        account: sql<number>`count(*) filter (where ${inAccountWindow})`.mapWith(Number),
        accountOldest: sql<Date | null>`min(${signInFailures.createdAt}) filter (where ${inAccountWindow})`.mapWith(signInFailures.createdAt),
        accountLatest: sql<Date | null>`max(${signInFailures.createdAt})`.mapWith(signInFailures.createdAt),
      })
      .from(signInFailures)
      .where(and(eq(signInFailures.email, email), gt(signInFailures.createdAt, new Date(at.getTime() - longestWindowMs))));
    return row ?? { address: 0, addressOldest: null, account: 0, accountOldest: null, accountLatest: null };
  }

  async function isKnownAddress(email: string, ipAddress: string, at: Date): Promise<boolean> {
    const [row] = await db
      .select({ email: signInKnownAddresses.email })
      .from(signInKnownAddresses)
      .where(
        and(
          eq(signInKnownAddresses.email, email),
          eq(signInKnownAddresses.ipAddress, ipAddress),
          gt(signInKnownAddresses.lastSuccessAt, new Date(at.getTime() - KNOWN_ADDRESS_MS)),
        ),
      );
    return row !== undefined;
  }

  /** Takes the hour's notice upon this process: exactly one of several racing failures gets the row back. */
  async function claimCeilingNotice(email: string, at: Date): Promise<boolean> {
    const claimed = await db
      .insert(signInCeilingNotices)
      .values({ email, notifiedAt: at })
      .onConflictDoUpdate({
        target: signInCeilingNotices.email,
        set: { notifiedAt: at },
        setWhere: lte(signInCeilingNotices.notifiedAt, new Date(at.getTime() - ACCOUNT_WINDOW_MS)),
      })
      .returning({ email: signInCeilingNotices.email });
    return claimed.length > 0;
  }

  async function accountWideVerdict(email: string, ipAddress: string, at: Date, failures: Awaited<ReturnType<typeof failuresOf>>): Promise<SignInVerdict> {
    const nowMs = at.getTime();
    let verdict: SignInVerdict = { allowed: true };
    if (failures.account >= options.accountLimit && failures.accountOldest) {
      verdict = { allowed: false, reason: 'account_ceiling', retryAfterSeconds: secondsUntil(failures.accountOldest.getTime() + ACCOUNT_WINDOW_MS, nowMs) };
    } else if (failures.accountLatest) {
      const waitUntil = failures.accountLatest.getTime() + accountDelayMs(failures.account, options.accountLimit);
      if (waitUntil > nowMs) verdict = { allowed: false, reason: 'account_delay', retryAfterSeconds: secondsUntil(waitUntil, nowMs) };
    }
    // Only asked when the account is held back: the owner's usual places go on as if nothing happened.
    if (!verdict.allowed && (await isKnownAddress(email, ipAddress, at))) return { allowed: true };
    return verdict;
  }

  return {
    async check(email, ipAddress) {
      const at = now();
      const failures = await failuresOf(email, ipAddress, at);
      if (failures.address >= options.addressLimit && failures.addressOldest) {
        const retryAt = failures.addressOldest.getTime() + options.addressWindowMs;
        return { allowed: false, reason: 'address_limit', retryAfterSeconds: secondsUntil(retryAt, at.getTime()) };
      }
      return accountWideVerdict(email, ipAddress, at, failures);
    },

    async recordFailure(email, ipAddress) {
      const at = now();
      await db.insert(signInFailures).values({ email, ipAddress, createdAt: at });
      const failures = await failuresOf(email, ipAddress, at);
      if (failures.account < options.accountLimit) return;
      if (!(await claimCeilingNotice(email, at))) return;
      await options.onCeilingReached(email);
    },

    async addressFailures(ipAddress) {
      const since = new Date(now().getTime() - options.addressWindowMs);
      const [row] = await db
        .select({ total: sql<number>`count(*)`.mapWith(Number) })
        .from(signInFailures)
        .where(and(eq(signInFailures.ipAddress, ipAddress), gt(signInFailures.createdAt, since)));
      return row?.total ?? 0;
    },

    async recordSuccess(email, ipAddress) {
      const at = now();
      await db.delete(signInFailures).where(and(eq(signInFailures.email, email), eq(signInFailures.ipAddress, ipAddress)));
      await db
        .insert(signInKnownAddresses)
        .values({ email, ipAddress, lastSuccessAt: at })
        .onConflictDoUpdate({ target: [signInKnownAddresses.email, signInKnownAddresses.ipAddress], set: { lastSuccessAt: at } });
    },
  };
}
