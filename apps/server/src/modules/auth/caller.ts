import { webcrypto } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { getCryptoKey } from 'better-auth/crypto';
import { statementName, type Database } from '../../db/client.ts';
import { clinics, passkeys, sessions, userRoles, users } from '../../db/schema.ts';
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

/** The HMAC key better-auth derives from its secret to sign cookies. */
type CookieKey = webcrypto.CryptoKey;

/** better-auth's settings the read needs: its cookies' names, the secret that signs them, the sliding renewal. */
type CookieRules = { sessionCookie: string; dontRememberCookie: string; key: CookieKey; expiresInMs: number; updateAgeMs: number };

export type CallerReader = {
  /** The caller of a request with this Cookie header; null without a validly signed, unexpired session. */
  read: (cookieHeader: string | undefined) => Promise<Caller | null>;
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
 * signature is not ours: the same check as better-call's getSignedCookie, with better-auth's own key derivation.
 */
export async function verifiedCookieValue(header: string, name: string, key: CookieKey): Promise<string | null> {
  const signed = cookieValue(header, name);
  if (!signed) return null;
  const dot = signed.lastIndexOf('.');
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  const bytes = Buffer.from(signature, 'base64');
  const valid = await webcrypto.subtle.verify('HMAC', key, bytes, new TextEncoder().encode(value));
  return valid ? value : null;
}

async function cookieRulesOf(auth: Auth): Promise<CookieRules> {
  const context = await auth.$context;
  return {
    sessionCookie: context.authCookies.sessionToken.name,
    dontRememberCookie: context.authCookies.dontRememberToken.name,
    key: await getCryptoKey(context.secret),
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

/** The caller's read for one app: the statement is prepared once, better-auth's cookie settings read once. */
export function createCallerReader(auth: Auth, db: Database, clock: () => Date = sessionClock): CallerReader {
  const query = callerQuery(db);
  let rules: Promise<CookieRules> | null = null;
  return {
    clock,
    async read(cookieHeader) {
      if (!cookieHeader) return null;
      rules ??= cookieRulesOf(auth);
      const { sessionCookie, dontRememberCookie, key } = await rules;
      const token = await verifiedCookieValue(cookieHeader, sessionCookie, key);
      if (!token) return null;
      const now = clock();
      const [row] = await query.execute({ token, now: now.toISOString() });
      if (!row) return null;
      // A sign-in without 'remember me' keeps its expiry (better-auth's rule; its cookie is signed like the session's).
      const rememberMe = (await verifiedCookieValue(cookieHeader, dontRememberCookie, key)) === null;
      return { ...row, renewalDue: renewalDue(row, await rules, now, rememberMe) };
    },
  };
}
