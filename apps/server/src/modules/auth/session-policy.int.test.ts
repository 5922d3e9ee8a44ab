import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { sessions } from '../../db/schema.ts';
import {
  changeSettings,
  cookieHeaderOf,
  createClinic,
  createSignedInUser,
  createTestApp,
  PUBLIC_URL,
  signIn,
  TEST_PASSWORD,
  totpCodes,
  type TestApp,
} from '../../../test/helpers.ts';

const MINUTE_MS = 60_000;

const me = (t: TestApp, cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

async function sessionIdOf(t: TestApp, userId: string): Promise<string> {
  const [row] = await t.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId)).limit(1);
  if (!row) throw new Error('no session');
  return row.id;
}

describe('session timeout (minutes of inactivity)', () => {
  let t: TestApp;
  let clinicId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ clinicId } = await createClinic(t.db));
  });
  afterAll(async () => t.close());

  it('ends a staff session idle longer than the timeout, and keeps an active one', async () => {
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    const id = await sessionIdOf(t, staff.userId);

    await t.db.update(sessions).set({ lastActiveAt: new Date(Date.now() - 29 * MINUTE_MS) }).where(eq(sessions.id, id));
    expect((await me(t, staff.cookie)).statusCode).toBe(200);
    // That request counted as activity.
    const [touched] = await t.db.select({ lastActiveAt: sessions.lastActiveAt }).from(sessions).where(eq(sessions.id, id));
    expect(Date.now() - (touched?.lastActiveAt.getTime() ?? 0)).toBeLessThan(MINUTE_MS);

    await t.db.update(sessions).set({ lastActiveAt: new Date(Date.now() - 31 * MINUTE_MS) }).where(eq(sessions.id, id));
    const expired = await me(t, staff.cookie);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toMatchObject({ code: 'SESSION_EXPIRED', message: messages.errors.SESSION_EXPIRED });
    expect(await t.db.select().from(sessions).where(eq(sessions.id, id))).toHaveLength(0);
  });

  it("applies to better-auth's own endpoints too", async () => {
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    await t.db.update(sessions).set({ lastActiveAt: new Date(Date.now() - 31 * MINUTE_MS) }).where(eq(sessions.userId, staff.userId));
    const stale = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: staff.cookie } });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().error.code).toBe('SESSION_EXPIRED');
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, staff.userId))).toHaveLength(0);
  });

  it('follows the minutes saved in Configurações', async () => {
    const admin = await createSignedInUser(t, 'admin');
    await changeSettings(t, admin.cookie, { sessionTimeoutMinutes: 10 });
    const staff = await createSignedInUser(t, 'clinic_admin', clinicId);
    await t.db.update(sessions).set({ lastActiveAt: new Date(Date.now() - 11 * MINUTE_MS) }).where(eq(sessions.userId, staff.userId));
    expect((await me(t, staff.cookie)).statusCode).toBe(401);
    await changeSettings(t, admin.cookie, { sessionTimeoutMinutes: 30 });
  });

  it('ends a staff session 12 hours after sign-in however active, and leaves patients on their 7-day session', async () => {
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    await t.db.update(sessions).set({ createdAt: new Date(Date.now() - 12 * 60 * MINUTE_MS - MINUTE_MS) }).where(eq(sessions.userId, staff.userId));
    expect((await me(t, staff.cookie)).statusCode).toBe(401);

    const patient = await createSignedInUser(t, 'patient', clinicId);
    await t.db
      .update(sessions)
      .set({ lastActiveAt: new Date(Date.now() - 3 * 60 * MINUTE_MS), createdAt: new Date(Date.now() - 13 * 60 * MINUTE_MS) })
      .where(eq(sessions.userId, patient.userId));
    expect((await me(t, patient.cookie)).statusCode).toBe(200);
  });
});

describe('multiple sessions', () => {
  let t: TestApp;
  let admin: { cookie: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t, 'admin');
  });
  afterAll(async () => t.close());

  it('off: a new sign-in ends the other sessions of that user only', async () => {
    await changeSettings(t, admin.cookie, { allowMultipleSessions: false });
    const user = await createSignedInUser(t, null);
    const other = await createSignedInUser(t, null);
    const first = cookieHeaderOf(await signIn(t.app, user.email));
    const second = cookieHeaderOf(await signIn(t.app, user.email));

    expect((await me(t, first)).statusCode).toBe(401);
    expect((await me(t, user.cookie)).statusCode).toBe(401);
    expect((await me(t, second)).statusCode).toBe(200);
    expect((await me(t, other.cookie)).statusCode).toBe(200);
  });

  it('on: sessions on several devices live side by side', async () => {
    await changeSettings(t, admin.cookie, { allowMultipleSessions: true });
    const user = await createSignedInUser(t, null);
    const first = cookieHeaderOf(await signIn(t.app, user.email));
    const second = cookieHeaderOf(await signIn(t.app, user.email));
    expect((await me(t, first)).statusCode).toBe(200);
    expect((await me(t, second)).statusCode).toBe(200);
  });

  it('refuses Google sign-in when the toggle is off', async () => {
    await changeSettings(t, admin.cookie, { googleLogin: false });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/social',
      headers: { origin: PUBLIC_URL },
      payload: { provider: 'google', callbackURL: '/' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe(messages.settings.googleLoginOff);
  });
});

describe('two-factor for admins', () => {
  let t: TestApp;
  let admin: { cookie: string; email: string; userId: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t, 'admin');
    await changeSettings(t, admin.cookie, { requireAdminTwoFactor: true });
  });
  afterAll(async () => t.close());

  const post = (url: string, cookie: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: { cookie, origin: PUBLIC_URL }, payload });

  it('keeps an admin without a factor out of the admin API until enrolled, with TOTP and backup codes', async () => {
    // A second session opened with the password alone before enrolling (multiple sessions are on here).
    const earlier = cookieHeaderOf(await signIn(t.app, admin.email));
    const blocked = await t.app.inject({ method: 'GET', url: '/api/admin/clinics', headers: { cookie: admin.cookie } });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.code).toBe('TWO_FACTOR_REQUIRED');
    expect((await me(t, admin.cookie)).json().twoFactor).toEqual({ required: true, enabled: false, verified: false, passkey: false });

    const wrongPassword = await post('/api/auth/two-factor/enable', admin.cookie, { password: 'errada-123' });
    expect(wrongPassword.statusCode).toBe(400);

    const enabled = await post('/api/auth/two-factor/enable', admin.cookie, { password: TEST_PASSWORD });
    expect(enabled.statusCode).toBe(200);
    const { totpURI, backupCodes } = enabled.json<{ totpURI: string; backupCodes: string[] }>();
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Carteirinha:/);
    expect(backupCodes).toHaveLength(10);
    // Not enabled until a first code proves the app has the secret.
    expect((await me(t, admin.cookie)).json().twoFactor.enabled).toBe(false);

    expect((await post('/api/auth/two-factor/verify-totp', admin.cookie, { code: '000000' })).statusCode).toBe(401);
    const codes = totpCodes(totpURI);
    const enrolCode = await codes.next();
    const verified = await post('/api/auth/two-factor/verify-totp', admin.cookie, { code: enrolCode });
    expect(verified.statusCode).toBe(200);
    const cookie = cookieHeaderOf(verified) || admin.cookie;
    expect((await me(t, cookie)).json().twoFactor).toEqual({ required: true, enabled: true, verified: true, passkey: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/clinics', headers: { cookie } })).statusCode).toBe(200);

    // The earlier session never passed a code: it owes one, and passes with the next code.
    expect((await me(t, earlier)).json().twoFactor).toEqual({ required: true, enabled: true, verified: false, passkey: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/clinics', headers: { cookie: earlier } })).json().error.code).toBe('TWO_FACTOR_REQUIRED');
    expect((await post('/api/auth/two-factor/verify-totp', earlier, { code: await codes.next() })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/clinics', headers: { cookie: earlier } })).statusCode).toBe(200);

    // Signing in now takes the password and then a code; the code used to enrol is spent (checklist 14).
    const challenged = await signIn(t.app, admin.email);
    expect(challenged.statusCode).toBe(200);
    expect(challenged.json()).toMatchObject({ twoFactorRedirect: true });
    const pending = cookieHeaderOf(challenged);
    expect((await me(t, pending)).statusCode).toBe(401);
    const replayed = await post('/api/auth/two-factor/verify-totp', pending, { code: enrolCode });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ code: 'TOTP_REUSED', message: messages.twoFactor.codeReused });
    expect(cookieHeaderOf(replayed)).not.toMatch(/session_token=[^;]+/);

    const retry = cookieHeaderOf(await signIn(t.app, admin.email));
    const second = await post('/api/auth/two-factor/verify-totp', retry, { code: await codes.next() });
    expect(second.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/clinics', headers: { cookie: cookieHeaderOf(second) } })).statusCode).toBe(200);

    // A backup code works once.
    const lostPhone = cookieHeaderOf(await signIn(t.app, admin.email));
    const backup = await post('/api/auth/two-factor/verify-backup-code', lostPhone, { code: backupCodes[0] });
    expect(backup.statusCode).toBe(200);
    const again = cookieHeaderOf(await signIn(t.app, admin.email));
    expect((await post('/api/auth/two-factor/verify-backup-code', again, { code: backupCodes[0] })).statusCode).toBe(401);
  });

  it('accepts one code once even when several sign-ins send it at the same moment', async () => {
    const other = await createSignedInUser(t, 'admin');
    const enabled = await post('/api/auth/two-factor/enable', other.cookie, { password: TEST_PASSWORD });
    const { totpURI } = enabled.json<{ totpURI: string }>();
    const codes = totpCodes(totpURI);
    expect((await post('/api/auth/two-factor/verify-totp', other.cookie, { code: await codes.next() })).statusCode).toBe(200);

    const challenges = await Promise.all([1, 2, 3, 4].map(async () => cookieHeaderOf(await signIn(t.app, other.email))));
    const code = await codes.next();
    const answers = await Promise.all(challenges.map((cookie) => post('/api/auth/two-factor/verify-totp', cookie, { code })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401, 401]);
  });

  it("asks a clinic's admin for a factor too, but not its receptionists or patients", async () => {
    const { clinicId } = await createClinic(t.db);
    const clinicAdmin = await createSignedInUser(t, 'clinic_admin', clinicId);
    expect((await me(t, clinicAdmin.cookie)).json().twoFactor).toEqual({ required: true, enabled: false, verified: false, passkey: false });
    const refused = await t.app.inject({ method: 'GET', url: '/api/clinic', headers: { cookie: clinicAdmin.cookie } });
    expect(refused.json().error.code).toBe('TWO_FACTOR_REQUIRED');

    for (const role of ['clinic_staff', 'patient'] as const) {
      const person = await createSignedInUser(t, role, clinicId);
      expect((await me(t, person.cookie)).json().twoFactor).toEqual({ required: false, enabled: false, verified: false, passkey: false });
    }
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    expect((await t.app.inject({ method: 'GET', url: '/api/clinic', headers: { cookie: staff.cookie } })).statusCode).toBe(200);
  });
});

describe('Login com Google', () => {
  let t: TestApp;
  let admin: { cookie: string };

  beforeAll(async () => {
    t = await createTestApp({ GOOGLE_CLIENT_ID: 'cliente-de-teste.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 'segredo-de-teste' });
    admin = await createSignedInUser(t, 'admin');
  });
  afterAll(async () => t.close());

  const tenant = async () => (await t.app.inject({ method: 'GET', url: '/api/tenant' })).json<{ googleSignIn: boolean }>();
  const startGoogle = () =>
    t.app.inject({ method: 'POST', url: '/api/auth/sign-in/social', headers: { origin: PUBLIC_URL }, payload: { provider: 'google', callbackURL: '/' } });

  it('is offered and starts the Google flow while the toggle is on, and neither once it is off', async () => {
    expect((await tenant()).googleSignIn).toBe(true);
    const started = await startGoogle();
    expect(started.statusCode).toBe(200);
    expect(started.json().url).toMatch(/^https:\/\/accounts\.google\.com\//);

    await changeSettings(t, admin.cookie, { googleLogin: false });
    expect((await tenant()).googleSignIn).toBe(false);
    expect((await startGoogle()).statusCode).toBe(403);
  });

  it('is never offered by a server without Google credentials', async () => {
    const bare = await createTestApp();
    try {
      expect((await bare.app.inject({ method: 'GET', url: '/api/tenant' })).json().googleSignIn).toBe(false);
    } finally {
      await bare.close();
    }
  });
});
