import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { clinics, users } from '../../db/schema.ts';
import {
  PUBLIC_URL,
  TEST_PASSWORD,
  changeSettings,
  cookieHeaderOf,
  createClinic,
  createSignedInUser,
  createTestApp,
  enrolTotp,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';

/** better-auth's endpoints that act on the signed-in account, with a body each would accept. */
const ACCOUNT_ENDPOINTS: { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> }[] = [
  { method: 'POST', url: '/api/auth/change-password', payload: { currentPassword: TEST_PASSWORD, newPassword: 'senha-do-invasor-42' } },
  { method: 'POST', url: '/api/auth/change-email', payload: { newEmail: 'invasor@teste.dev' } },
  { method: 'POST', url: '/api/auth/update-user', payload: { name: 'Invasor' } },
  { method: 'GET', url: '/api/auth/list-sessions' },
  { method: 'POST', url: '/api/auth/revoke-other-sessions', payload: {} },
  { method: 'POST', url: '/api/auth/revoke-sessions', payload: {} },
  { method: 'POST', url: '/api/auth/revoke-session', payload: { token: 'qualquer' } },
  { method: 'GET', url: '/api/auth/list-accounts' },
  { method: 'POST', url: '/api/auth/two-factor/disable', payload: { password: TEST_PASSWORD } },
  { method: 'POST', url: '/api/auth/two-factor/generate-backup-codes', payload: { password: TEST_PASSWORD } },
  { method: 'POST', url: '/api/auth/two-factor/get-totp-uri', payload: { password: TEST_PASSWORD } },
];

function call(t: TestApp, endpoint: (typeof ACCOUNT_ENDPOINTS)[number], cookie: string, host = 'localhost') {
  return t.app.inject({
    method: endpoint.method,
    url: endpoint.url,
    headers: { cookie, host, origin: host === 'localhost' ? PUBLIC_URL : `http://${host}` },
    ...(endpoint.payload ? { payload: endpoint.payload } : {}),
  });
}

async function nameOf(t: TestApp, userId: string): Promise<string | undefined> {
  const [row] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return row?.name;
}

describe("better-auth's endpoints follow the app's rules (issue 12, item 17)", () => {
  let t: TestApp;
  let hostA: string;
  let hostB: string;
  let clinicA: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ clinicId: clinicA } = await createClinic(t.db, 'Clínica A'));
    const { clinicId: clinicB } = await createClinic(t.db, 'Clínica B');
    const slugOf = async (id: string) => (await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, id)))[0]?.slug ?? '';
    hostA = `${await slugOf(clinicA)}.localhost`;
    hostB = `${await slugOf(clinicB)}.localhost`;
  });
  afterAll(async () => t.close());

  it("refuses another clinic's session, and an admin's, on a clinic's site", async () => {
    const patientA = await createSignedInUser(t, 'patient', clinicA);
    const admin = await createSignedInUser(t, 'admin');
    for (const caller of [patientA, admin]) {
      for (const endpoint of [{ method: 'GET' as const, url: '/api/auth/get-session' }, ...ACCOUNT_ENDPOINTS.slice(0, 4)]) {
        const response = await call(t, endpoint, caller.cookie, hostB);
        expect(response.statusCode, endpoint.url).toBe(401);
        expect(response.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: messages.tenancy.wrongClinic } });
      }
      expect(await nameOf(t, caller.userId)).toBe('Pessoa de Teste');
    }
    // At home it works: the patient on its clinic's site, the admin on the platform's.
    const home = await call(t, { method: 'GET', url: '/api/auth/get-session' }, patientA.cookie, hostA);
    expect(home.json().user.id).toBe(patientA.userId);
    expect((await call(t, { method: 'GET', url: '/api/auth/get-session' }, admin.cookie)).json().user.id).toBe(admin.userId);
    expect((await call(t, { method: 'GET', url: '/api/auth/get-session' }, admin.cookie, hostA)).statusCode).toBe(401);
  });

  it('keeps a session that still owes its second factor away from the account and the factor', async () => {
    const user = await createSignedInUser(t, null);
    // A session opened with the password alone before the factor was enrolled (multiple sessions are on here).
    const earlier = cookieHeaderOf(await signIn(t.app, user.email));
    const enrolled = await enrolTotp(t, user.cookie);

    for (const endpoint of ACCOUNT_ENDPOINTS) {
      const response = await call(t, endpoint, earlier);
      expect(response.statusCode, endpoint.url).toBe(403);
      expect(response.json().error.code).toBe('TWO_FACTOR_REQUIRED');
    }
    expect(await nameOf(t, user.userId)).toBe('Pessoa de Teste');
    // The password did not change: signing in with it still asks for the code.
    expect((await signIn(t.app, user.email)).json()).toMatchObject({ twoFactorRedirect: true });
    // It may still read itself, and the session that passed the code may do everything.
    expect((await call(t, { method: 'GET', url: '/api/auth/get-session' }, earlier)).statusCode).toBe(200);
    expect((await call(t, ACCOUNT_ENDPOINTS[2]!, enrolled.cookie)).statusCode).toBe(200);
    expect(await nameOf(t, user.userId)).toBe('Invasor');
  });

  it('never hands out the tokens of the sessions in list-sessions', async () => {
    const user = await createSignedInUser(t, null);
    await signIn(t.app, user.email);
    const response = await call(t, { method: 'GET', url: '/api/auth/list-sessions' }, user.cookie);
    expect(response.statusCode).toBe(200);
    const listed = response.json<Record<string, unknown>[]>();
    expect(listed.length).toBeGreaterThanOrEqual(2);
    for (const session of listed) {
      expect(session).not.toHaveProperty('token');
      expect(session).toHaveProperty('id');
    }
  });
});

describe('an admin who must enrol a second factor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('may enrol, and nothing else of the account, until the code is given', async () => {
    const admin = await createSignedInUser(t, 'admin');
    await changeSettings(t, admin.cookie, { requireAdminTwoFactor: true });
    const changePassword = await call(t, ACCOUNT_ENDPOINTS[0]!, admin.cookie);
    expect(changePassword.statusCode).toBe(403);
    expect(changePassword.json().error.code).toBe('TWO_FACTOR_REQUIRED');
    expect((await call(t, { method: 'GET', url: '/api/auth/list-sessions' }, admin.cookie)).statusCode).toBe(403);
    expect((await call(t, { method: 'POST', url: '/api/auth/two-factor/enable', payload: { password: TEST_PASSWORD } }, admin.cookie)).statusCode).toBe(200);
  });
});
