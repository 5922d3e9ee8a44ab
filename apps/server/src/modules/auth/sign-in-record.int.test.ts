import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { emailOutbox, sessions, users } from '../../db/schema.ts';
import {
  changeSettings,
  cookieHeaderOf,
  createSignedInUser,
  createTestApp,
  enrolTotp,
  PUBLIC_URL,
  signIn,
  TEST_PASSWORD,
  type TestApp,
  settleWork,
} from '../../../test/helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (url: string, cookie: string, payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, origin: PUBLIC_URL }, payload });

async function lastSignInOf(userId: string): Promise<Date | null> {
  const [row] = await t.db.select({ lastSignInAt: users.lastSignInAt }).from(users).where(eq(users.id, userId));
  return row?.lastSignInAt ?? null;
}

/** Forgets the sign-in that created the test account, so each test sees only the sign-ins it makes. */
async function neverSignedIn(userId: string): Promise<void> {
  await t.db.update(users).set({ lastSignInAt: null }).where(eq(users.id, userId));
}

describe("'Último Login'", () => {
  it('is stamped by a password sign-in and outlives the session: sign-out does not erase it', async () => {
    const person = await createSignedInUser(t, null);
    await neverSignedIn(person.userId);
    expect((await signIn(t.app, person.email, 'senha-errada-1')).statusCode).toBe(401);
    expect(await lastSignInOf(person.userId)).toBeNull();

    const before = Date.now();
    const signedIn = await signIn(t.app, person.email);
    const stamped = await lastSignInOf(person.userId);
    expect(stamped?.getTime()).toBeGreaterThanOrEqual(before - 1000);

    await post('/api/auth/sign-out', cookieHeaderOf(signedIn));
    await post('/api/auth/sign-out', person.cookie);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.userId))).toEqual([]);
    expect(await lastSignInOf(person.userId)).toEqual(stamped);
  });

  it('is not stamped by opening the e-mail confirmation link, which signs nobody in (issue 12, item 16)', async () => {
    const person = await createSignedInUser(t, null);
    await neverSignedIn(person.userId);
    // The confirmation e-mail leaves after the sign-up's answer.
    await settleWork(t);
    const [mail] = await t.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, person.email), eq(emailOutbox.subject, 'Confirme seu email')))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(1);
    const link = new URL(/https?:\/\/\S+/.exec(mail!.text)![0]);
    const confirmed = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(confirmed.statusCode).toBe(302);
    // Confirming the address starts no session (a link opened in someone else's browser must not sign them in).
    expect(cookieHeaderOf(confirmed)).not.toMatch(/session_token=[^;]+/);
    expect(await lastSignInOf(person.userId)).toBeNull();
  });

  it('waits for the second factor when the user has one: the password step alone is not a sign-in', async () => {
    const person = await createSignedInUser(t, null);
    const totp = await enrolTotp(t, person.cookie);
    await neverSignedIn(person.userId);

    const challenged = await signIn(t.app, person.email);
    expect(challenged.json()).toMatchObject({ twoFactorRedirect: true });
    expect(await lastSignInOf(person.userId)).toBeNull();

    const verified = await post('/api/auth/two-factor/verify-totp', cookieHeaderOf(challenged), { code: await totp.nextCode() });
    expect(verified.statusCode).toBe(200);
    expect(await lastSignInOf(person.userId)).not.toBeNull();
  });

  it('waits for the enrolment of an admin who must use two-factor', async () => {
    const settingsAdmin = await createSignedInUser(t, 'admin');
    const admin = await createSignedInUser(t, 'admin');
    await changeSettings(t, settingsAdmin.cookie, { requireAdminTwoFactor: true });
    try {
      await neverSignedIn(admin.userId);
      const signedIn = await signIn(t.app, admin.email);
      // A session exists, but it owes its factor: not yet a completed sign-in.
      expect(signedIn.statusCode).toBe(200);
      expect(await lastSignInOf(admin.userId)).toBeNull();

      await enrolTotp(t, cookieHeaderOf(signedIn));
      expect(await lastSignInOf(admin.userId)).not.toBeNull();
    } finally {
      const verifiedAdmin = await enrolTotp(t, settingsAdmin.cookie);
      await changeSettings(t, verifiedAdmin.cookie, { requireAdminTwoFactor: false });
    }
  });
});

describe('a session that owes its second factor', () => {
  /** A user with a factor, and a session of theirs that never passed it (made before the enrolment). */
  async function userWithUnverifiedSession() {
    const person = await createSignedInUser(t, 'admin');
    const unverified = cookieHeaderOf(await signIn(t.app, person.email));
    const totp = await enrolTotp(t, person.cookie);
    return { person, unverified, totp };
  }

  it('cannot read, replace or turn off the factor, nor end the other sessions', async () => {
    const { person, unverified } = await userWithUnverifiedSession();
    const guarded = [
      '/api/auth/two-factor/get-totp-uri',
      '/api/auth/two-factor/enable',
      '/api/auth/two-factor/disable',
      '/api/auth/two-factor/generate-backup-codes',
      '/api/auth/two-factor/view-backup-codes',
      '/api/auth/revoke-sessions',
      '/api/auth/revoke-session',
      '/api/auth/revoke-other-sessions',
    ];
    const sessionsBefore = await t.db.select().from(sessions).where(eq(sessions.userId, person.userId));
    for (const url of guarded) {
      const response = await post(url, unverified, { password: TEST_PASSWORD });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error, url).toEqual({ code: 'TWO_FACTOR_REQUIRED', message: messages.twoFactor.sessionCheckDescription });
    }
    const [user] = await t.db.select({ twoFactorEnabled: users.twoFactorEnabled }).from(users).where(eq(users.id, person.userId));
    expect(user?.twoFactorEnabled).toBe(true);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.userId))).toHaveLength(sessionsBefore.length);
  });

  it('cannot reach those endpoints through a path the URL parser rewrites (/./, %2e, /x/../)', async () => {
    const { person, unverified } = await userWithUnverifiedSession();
    // A real socket: inject() and fetch() would normalise the path before it is sent.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const rawPost = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(
          { host: '127.0.0.1', port, path, method: 'POST', headers: { cookie: unverified, origin: PUBLIC_URL, 'content-type': 'application/json' } },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        );
        request.on('error', reject);
        request.end(JSON.stringify({ password: TEST_PASSWORD }));
      });
    for (const path of ['/api/auth/two-factor/./disable', '/api/auth/two-factor/%2e/disable', '/api/auth/two-factor/x/../disable', '/api/auth/./two-factor/disable']) {
      expect(await rawPost(path), path).toBe(404);
    }
    const [user] = await t.db.select({ twoFactorEnabled: users.twoFactorEnabled }).from(users).where(eq(users.id, person.userId));
    expect(user?.twoFactorEnabled).toBe(true);
  });

  it('may pass the code, and then manage the factor', async () => {
    const { unverified, totp } = await userWithUnverifiedSession();
    expect((await post('/api/auth/two-factor/verify-totp', unverified, { code: await totp.nextCode() })).statusCode).toBe(200);
    const codes = await post('/api/auth/two-factor/generate-backup-codes', unverified, { password: TEST_PASSWORD });
    expect(codes.statusCode).toBe(200);
    expect(codes.json().backupCodes).toHaveLength(10);
  });

  it('of a user with no factor yet can still enrol', async () => {
    const person = await createSignedInUser(t, null);
    const enabled = await post('/api/auth/two-factor/enable', person.cookie, { password: TEST_PASSWORD });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().totpURI).toMatch(/^otpauth:/);
  });
});
