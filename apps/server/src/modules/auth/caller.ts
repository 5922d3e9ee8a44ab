import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { statementName, type Database } from '../../db/client.ts';
import { clinics, passkeys, sessions, userRoles, users } from '../../db/schema.ts';
import type { CacheInvalidation } from '../../lib/cache-invalidation.ts';
import type { Auth } from './auth.ts';

/**
 * The caller's identity in one statement (issue 28): the session of a signed cookie with its user, role and clinic.
 * better-auth keeps owning sign-in, sign-out, the cookies and their signatures; what it would read on every request
 * (its session, then its user) and what our guard read after it (role and clinic) is this one read of its tables.
 */
function callerQuery(db: Database) {
  return db
    .select({
      sessionId: sessions.id,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      lastActiveAt: sessions.lastActiveAt,
      twoFactorVerified: sessions.twoFactorVerified,
      userId: users.id,
      email: users.email,
      name: users.name,
      emailVerified: users.emailVerified,
      twoFactorEnabled: users.twoFactorEnabled,
      // A passkey passes the second factor too (ADR 029): /api/me then asks for it instead of a TOTP enrolment.
      hasPasskey: sql<boolean>`exists (select 1 from ${passkeys} where ${passkeys.userId} = ${users.id})`,
      deactivatedAt: users.deactivatedAt,
      role: userRoles.role,
      clinicId: userRoles.clinicId,
      clinicStatus: clinics.status,
      trialEndsAt: clinics.trialEndsAt,
      // The name the clinic shows its people (branding), falling back to its legal name: /api/me answers with it.
      clinicName: sql<string | null>`coalesce(${clinics.displayName}, ${clinics.name})`,
      clinicSlug: clinics.slug,
      approvedAt: clinics.approvedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userRoles, eq(userRoles.userId, sessions.userId))
    .leftJoin(clinics, eq(clinics.id, userRoles.clinicId))
    // An expired session is no session, as better-auth's own read says (it then deletes the row; a read leaves it).
    .where(and(eq(sessions.token, sql.placeholder('token')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare(statementName(db, 'caller_identity'));
}

export type CallerRow = Awaited<ReturnType<ReturnType<typeof callerQuery>['execute']>>[number];

/** The key better-auth signs cookies with: its secret's UTF-8 bytes, as an HMAC-SHA256 key (getCryptoKey). */
type CookieKey = Buffer;

/** better-auth's settings the read needs: its cookies' names, the secret that signs them, the sliding renewal. */
type CookieRules = { sessionCookie: string; dontRememberCookie: string; key: CookieKey; expiresInMs: number; updateAgeMs: number };

export type CallerReader = {
  /** The caller of a request with this Cookie header; null without a validly signed, unexpired session. */
  read: (cookieHeader: string | undefined) => Promise<Caller | null>;
  /**
   * Drops this process's copy of the session in this Cookie header: after a request to better-auth's own routes
   * (sign-out, a second factor checked), which change the session in ways the next request of the same browser must
   * see without waiting for the trigger's message.
   */
  forget: (cookieHeader: string | undefined) => void;
  /** The clock the session rules go by (sessionClock): expiry here, the staff limits and activity stamp after. */
  clock: () => Date;
};

export type Caller = CallerRow & {
  /**
   * better-auth's sliding renewal is due (the session was last pushed forward more than `updateAge` ago, and the
   * person asked to be remembered): once a day per session, the caller hands this request to better-auth's own
   * get-session, which moves the expiry and renews the cookie.
   */
  renewalDue: boolean;
};

/**
 * The first value of a cookie in a Cookie header, URI-decoded, as better-call (better-auth's HTTP layer) reads it:
 * the first of two cookies of one name wins there, so it wins here too.
 */
export function cookieValue(header: string, name: string): string | null {
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at === -1 || pair.slice(0, at).trim() !== name) continue;
    let value = pair.slice(at + 1).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}

/**
 * The value of a cookie better-auth signed (`<value>.<HMAC-SHA256 in base64>`), or null when it is missing or its
 * signature is not ours: the same check as better-call's getSignedCookie, with the same key. Node's synchronous HMAC
 * rather than WebCrypto's: the asynchronous verify was 8 % of a validation's CPU (a job and a promise per cookie,
 * bench/RESULTS.md), the hash itself a couple of microseconds.
 */
export function verifiedCookieValue(header: string, name: string, key: CookieKey): string | null {
  const signed = cookieValue(header, name);
  if (!signed) return null;
  const dot = signed.lastIndexOf('.');
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  const given = Buffer.from(signature, 'base64');
  const expected = createHmac('sha256', key).update(value).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
}

async function cookieRulesOf(auth: Auth): Promise<CookieRules> {
  const context = await auth.$context;
  return {
    sessionCookie: context.authCookies.sessionToken.name,
    dontRememberCookie: context.authCookies.dontRememberToken.name,
    key: Buffer.from(context.secret, 'utf8'),
    expiresInMs: context.sessionConfig.expiresIn * 1000,
    updateAgeMs: context.sessionConfig.updateAge * 1000,
  };
}

/** better-auth's rule for pushing a session's expiry forward (its get-session): `updateAge` after the last push. */
function renewalDue(row: CallerRow, rules: CookieRules, now: Date, rememberMe: boolean): boolean {
  return rememberMe && row.expiresAt.getTime() - rules.expiresInMs + rules.updateAgeMs <= now.getTime();
}

/**
 * The clock a session's expiry is judged by. better-auth stamps `sessions.expires_at` with the real time (its own
 * `new Date()`), not the app's `now` that tests move to reach a renewal or a delinquency: judging the expiry by the
 * app's clock would end a week-old test session that better-auth itself still honours.
 */
function sessionClock(): Date {
  return new Date();
}

/** Sessions a process keeps at most: past it the oldest go first (a flood of sessions cannot grow the heap). */
const CALLER_CACHE_ENTRIES = 10_000;

/**
 * Each process's copy of its callers' rows, by session token, for `ms` (ADR 035). Every change to a session, user, role,
 * passkey or clinic clears the rows it touches on every process at once: triggers send `callers:<user id>` or
 * `callers` through LISTEN/NOTIFY (migration 0028). Nothing is read from it while the listening connection is down,
 * and a row read while a message arrived is not kept (it may be older than the message).
 */
function createCallerCache(ms: number, invalidation: CacheInvalidation) {
  const byToken = new Map<string, { row: CallerRow; until: number }>();
  const tokensOf = new Map<string, Set<string>>();
  let generation = 0;
  const drop = (token: string) => {
    const entry = byToken.get(token);
    if (!entry) return;
    byToken.delete(token);
    const tokens = tokensOf.get(entry.row.userId);
    tokens?.delete(token);
    if (tokens?.size === 0) tokensOf.delete(entry.row.userId);
  };
  invalidation.on('callers', (userId) => {
    generation += 1;
    if (userId === null) {
      byToken.clear();
      tokensOf.clear();
      return;
    }
    for (const token of tokensOf.get(userId) ?? []) byToken.delete(token);
    tokensOf.delete(userId);
  });
  return {
    get(token: string): CallerRow | null {
      const entry = byToken.get(token);
      if (!entry || !invalidation.listening()) return null;
      if (entry.until > performance.now()) return entry.row;
      drop(token);
      return null;
    },
    generation: () => generation,
    keep(token: string, row: CallerRow, readAt: number): void {
      if (readAt !== generation || !invalidation.listening()) return;
      if (byToken.size >= CALLER_CACHE_ENTRIES) {
        const oldest = byToken.keys().next().value;
        if (oldest !== undefined) drop(oldest);
      }
      byToken.set(token, { row, until: performance.now() + ms });
      tokensOf.set(row.userId, (tokensOf.get(row.userId) ?? new Set()).add(token));
    },
    drop,
  };
}

/**
 * The caller's read for one app: the statement is prepared once, better-auth's cookie settings read once; with a
 * cache (`cacheMs` > 0), a session's row is read once per `cacheMs` per process instead of once per request.
 */
export function createCallerReader(
  auth: Auth,
  db: Database,
  options: { clock?: () => Date; cacheMs?: number; invalidation?: CacheInvalidation } = {},
): CallerReader {
  const clock = options.clock ?? sessionClock;
  const query = callerQuery(db);
  const cache = options.cacheMs && options.invalidation ? createCallerCache(options.cacheMs, options.invalidation) : null;
  let rules: Promise<CookieRules> | null = null;
  let knownRules: CookieRules | null = null;
  const rulesOf = async () => {
    rules ??= cookieRulesOf(auth).then((read) => (knownRules = read));
    return rules;
  };
  const rowOf = async (token: string, now: Date): Promise<CallerRow | null> => {
    const cached = cache?.get(token);
    if (cached) return cached;
    const readAt = cache?.generation() ?? 0;
    const [row] = await query.execute({ token, now: now.toISOString() });
    if (row) cache?.keep(token, row, readAt);
    return row ?? null;
  };
  return {
    clock,
    forget(cookieHeader) {
      // Without known rules no request has been read yet, so nothing is kept.
      if (!cache || !cookieHeader || !knownRules) return;
      const token = verifiedCookieValue(cookieHeader, knownRules.sessionCookie, knownRules.key);
      if (token) cache.drop(token);
    },
    async read(cookieHeader) {
      if (!cookieHeader) return null;
      const known = await rulesOf();
      const token = verifiedCookieValue(cookieHeader, known.sessionCookie, known.key);
      if (!token) return null;
      const now = clock();
      const row = await rowOf(token, now);
      // An expired session is no session (the statement says so too; a kept row is judged here).
      if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
      // A sign-in without 'remember me' keeps its expiry (better-auth's rule; its cookie is signed like the session's).
      const rememberMe = verifiedCookieValue(cookieHeader, known.dontRememberCookie, known.key) === null;
      return { ...row, renewalDue: renewalDue(row, known, now, rememberMe) };
    },
  };
}
