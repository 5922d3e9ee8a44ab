import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, clinics, sessions, userRoles, users } from '../../db/schema.ts';
import {
  apiAs,
  confirmEmailOf,
  cookieHeaderOf,
  createClinic,
  createSignedInUser,
  createTestApp,
  enrolTotp,
  PUBLIC_URL,
  signIn,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helpers.ts';

let t: TestApp;
let admin: { userId: string; cookie: string };
let clinicId: string;
let clinicHost: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t, 'admin');
  clinicId = (await createClinic(t.db, 'Clínica da Desativação')).clinicId;
  const [clinic] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
  clinicHost = `${clinic!.slug}.localhost`;
});
afterAll(async () => {
  await t.close();
});

const api = apiAs(() => t, () => admin.cookie);
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

function signInOnClinicSite(email: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { host: clinicHost, origin: `http://${clinicHost}` },
    payload: { email, password: TEST_PASSWORD },
  });
}

async function deactivatedAtOf(userId: string): Promise<Date | null> {
  const [row] = await t.db.select({ deactivatedAt: users.deactivatedAt }).from(users).where(eq(users.id, userId));
  return row?.deactivatedAt ?? null;
}

async function deactivate(userId: string): Promise<void> {
  const response = await api('DELETE', `/api/admin/user-roles/${userId}`);
  expect(response.statusCode, response.body).toBe(204);
}

function expectDeactivatedAnswer(response: { statusCode: number; json: () => unknown }): void {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toMatchObject({ code: 'ACCOUNT_DEACTIVATED', message: messages.adminUsers.accountDeactivated });
}

describe("'Desativar'", () => {
  it('removes the role, closes the account, ends every session, and writes it to the audit log', async () => {
    const person = await createSignedInUser(t, 'patient', clinicId);
    const otherDevice = cookieHeaderOf(await signIn(t.app, person.email));
    await deactivate(person.userId);

    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, person.userId))).toEqual([]);
    expect(await deactivatedAtOf(person.userId)).not.toBeNull();
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.userId))).toEqual([]);
    for (const cookie of [person.cookie, otherDevice]) expect((await me(cookie)).statusCode).toBe(401);
    const [audit] = await t.db.select().from(auditLog).where(and(eq(auditLog.entityId, person.userId), eq(auditLog.action, 'role.removed')));
    expect(audit?.details).toEqual({ role: 'patient', clinicId, deactivated: true });

    const listed = (await api('GET', `/api/admin/users?q=${encodeURIComponent(person.email)}`)).json();
    expect(listed.items[0]).toMatchObject({ status: 'disabled', role: null, clinicName: null });
  });

  it('closes an account that never had a role the same way, and says so when asked twice', async () => {
    const person = await createSignedInUser(t, null);
    await deactivate(person.userId);

    expect(await deactivatedAtOf(person.userId)).not.toBeNull();
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.userId))).toEqual([]);
    expect((await me(person.cookie)).statusCode).toBe(401);
    expectDeactivatedAnswer(await signIn(t.app, person.email));
    const [audit] = await t.db.select().from(auditLog).where(and(eq(auditLog.entityId, person.userId), eq(auditLog.action, 'user.deactivated')));
    expect(audit).toMatchObject({ actorUserId: admin.userId, entity: 'user', details: { role: null, deactivated: true } });

    const again = await api('DELETE', `/api/admin/user-roles/${person.userId}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(messages.adminUsers.alreadyDeactivated);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.entityId, person.userId))).toHaveLength(1);
  });

  it('refuses the password sign-in with a clear message, and only after the password was right', async () => {
    const person = await createSignedInUser(t, 'clinic_staff', clinicId);
    await deactivate(person.userId);

    expectDeactivatedAnswer(await signIn(t.app, person.email));
    // A wrong password still reads as wrong credentials: the refusal says nothing to someone guessing.
    expect((await signIn(t.app, person.email, 'senha-errada-1')).statusCode).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.userId))).toEqual([]);
  });

  it("is not enrolled again as a patient by signing in on a clinic's site", async () => {
    const person = await createSignedInUser(t, 'patient', clinicId);
    await deactivate(person.userId);

    expectDeactivatedAnswer(await signInOnClinicSite(person.email));
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, person.userId))).toEqual([]);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.userId))).toEqual([]);
  });

  it('cannot finish a two-factor sign-in that was started before it was deactivated', async () => {
    const person = await createSignedInUser(t, 'patient', clinicId);
    const totp = await enrolTotp(t, person.cookie);
    const challenged = await signIn(t.app, person.email);
    expect(challenged.json()).toMatchObject({ twoFactorRedirect: true });
    await deactivate(person.userId);

    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/auth/two-factor/verify-totp',
      headers: { cookie: cookieHeaderOf(challenged), origin: PUBLIC_URL },
      payload: { code: await totp.nextCode() },
    });
    expectDeactivatedAnswer(verified);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.userId))).toEqual([]);
  });

  it('stops a session that slipped past it at its next request, on our API and on the auth endpoints', async () => {
    const person = await createSignedInUser(t, null);
    const second = cookieHeaderOf(await signIn(t.app, person.email));
    // A sign-in that raced 'Desativar' kept its session: the account is closed, the sessions are still there.
    await t.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, person.userId));

    const refused = await me(person.cookie);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe(messages.adminUsers.accountDeactivated);
    // Every session of the account went with it.
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.userId))).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: second } })).json()).toBeNull();
  });

  it('refuses better-auth endpoints and onboarding to a closed account holding a session', async () => {
    const person = await createSignedInUser(t, null);
    const second = cookieHeaderOf(await signIn(t.app, person.email));
    await t.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, person.userId));

    const session = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: person.cookie } });
    expect(session.statusCode).toBe(401);
    expect(session.json().error.message).toBe(messages.adminUsers.accountDeactivated);
    const onboarding = await t.app.inject({
      method: 'POST',
      url: '/api/onboarding/clinic',
      headers: { cookie: second, origin: PUBLIC_URL },
      payload: { name: 'Clínica de Quem Saiu', cnpj: '11.444.777/0001-61', slug: 'quem-saiu' },
    });
    expect(onboarding.statusCode).toBe(401);
    expect(await t.db.select().from(clinics).where(eq(clinics.slug, 'quem-saiu'))).toEqual([]);
  });

  it("'Novo Usuário' for that e-mail gives the role back and opens the account again", async () => {
    const person = await createSignedInUser(t, 'patient', clinicId);
    // Someone who had confirmed the address and signed in: the role goes back to them directly (an account that never
    // proved its mailbox gets an invitation instead: unverified-account.int.test.ts).
    await confirmEmailOf(t, person.userId);
    await deactivate(person.userId);

    const assigned = await api('POST', '/api/admin/user-roles', { email: person.email, role: 'clinic_staff', clinicId });
    expect(assigned.statusCode).toBe(201);
    expect(assigned.json()).toMatchObject({ invited: false, user: { role: 'clinic_staff', status: 'active' } });
    expect(await deactivatedAtOf(person.userId)).toBeNull();
    expect((await signIn(t.app, person.email)).statusCode).toBe(200);
  });

  it('never offers itself: an admin cannot deactivate their own account', async () => {
    const self = await api('DELETE', `/api/admin/user-roles/${admin.userId}`);
    expect(self.statusCode).toBe(409);
    expect(await deactivatedAtOf(admin.userId)).toBeNull();
  });
});
