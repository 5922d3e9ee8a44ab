import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { clinics, emailOutbox, userRoles, users, verifications } from '../../db/schema.ts';
import {
  apiAs,
  changeSettings,
  createClinic,
  createSignedInUser,
  createTestApp,
  PUBLIC_URL,
  signIn,
  uniqueEmail,
  type TestApp,
  settleWork,
} from '../../../test/helpers.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

let t: TestApp;
let admin: { userId: string; cookie: string };
let clinicId: string;
let clinicSlug: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t, 'admin');
  clinicId = (await createClinic(t.db, 'Clínica do Convite')).clinicId;
  await t.db.update(clinics).set({ displayName: 'Convite Saúde', primaryColor: '#7c3aed' }).where(eq(clinics.id, clinicId));
  const [clinic] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
  clinicSlug = clinic!.slug;
});
afterAll(async () => {
  await t.close();
});

const api = apiAs(() => t, () => admin.cookie);

async function lastMailTo(email: string) {
  const [mail] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt)).limit(1);
  if (!mail) throw new Error(`no e-mail to ${email}`);
  return mail;
}

function linkIn(text: string): URL {
  const found = /https?:\/\/\S+/.exec(text);
  if (!found) throw new Error('no link in the e-mail');
  return new URL(found[0]);
}

function setPassword(token: string | null, newPassword = 'minha-senha-nova') {
  return t.app.inject({ method: 'POST', url: '/api/auth/reset-password', headers: { origin: PUBLIC_URL }, payload: { token, newPassword } });
}

async function resetTokensOf(userId: string) {
  return t.db
    .select({ identifier: verifications.identifier, expiresAt: verifications.expiresAt })
    .from(verifications)
    .where(and(eq(verifications.value, userId), like(verifications.identifier, 'reset-password:%')));
}

describe('invitations', () => {
  it("invites a new e-mail for a clinic role with the clinic's brand and site, and a link that lasts 7 days", async () => {
    const email = uniqueEmail('convidado');
    const invited = await api('POST', '/api/admin/user-roles', { email, role: 'clinic_staff', clinicId });
    expect(invited.statusCode).toBe(201);
    const user = invited.json().user;
    // 'Convite pendente' is the status itself until the password is set (issue 13, item 11), not 'Ativo' beside it.
    expect(invited.json()).toMatchObject({ invited: true, user: { email, role: 'clinic_staff', status: 'invited', invitationPending: true, lastSignInAt: null } });

    const mail = await lastMailTo(email);
    expect(mail.subject).toBe('Você foi convidado para Convite Saúde');
    expect(mail.text).toContain('Convite Saúde como Atendente');
    expect(mail.html).toContain('#7c3aed');
    const link = linkIn(mail.text);
    expect(link.origin).toBe(`http://${clinicSlug}.localhost:3999`);
    // Its own page ("Aceitar convite"), which greets the person with the clinic and the role.
    expect(link.pathname).toBe('/auth/aceitar-convite');
    const preview = await t.app.inject({ method: 'GET', url: `/api/public/invitation?token=${encodeURIComponent(link.searchParams.get('token')!)}` });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({ email, role: 'clinic_staff', clinicName: 'Convite Saúde' });

    const [token] = await resetTokensOf(user.id);
    expect(token!.expiresAt.getTime() - Date.now()).toBeGreaterThan(7 * DAY_MS - HOUR_MS);
    expect(token!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(7 * DAY_MS);

    expect((await setPassword(link.searchParams.get('token'))).statusCode).toBe(200);
    expect((await signIn(t.app, email, 'minha-senha-nova')).statusCode).toBe(200);
    const listed = (await api('GET', `/api/admin/users/${user.id}`)).json();
    // Setting the password from the e-mailed link proved the address; the invitation is no longer pending.
    expect(listed).toMatchObject({ invitationPending: false, emailVerified: true, status: 'active' });
    expect(listed.lastSignInAt).not.toBeNull();
    // A used link invites nobody any more.
    const used = await t.app.inject({ method: 'GET', url: `/api/public/invitation?token=${encodeURIComponent(link.searchParams.get('token')!)}` });
    expect(used.statusCode).toBe(404);
  });

  it('invites a Super Admin to the platform, with the platform name', async () => {
    const email = uniqueEmail('novo-admin');
    expect((await api('POST', '/api/admin/user-roles', { email, role: 'admin' })).statusCode).toBe(201);
    const mail = await lastMailTo(email);
    expect(mail.subject).toBe('Você foi convidado para a Carteirinha');
    const link = linkIn(mail.text);
    expect(link.origin).toBe(PUBLIC_URL);
    const preview = await t.app.inject({ method: 'GET', url: `/api/public/invitation?token=${encodeURIComponent(link.searchParams.get('token')!)}` });
    expect(preview.json()).toEqual({ email, role: 'admin', clinicName: null });
  });

  it('tells nothing about a token it does not know', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/public/invitation?token=nao-existe' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(messages.auth.resetInvalidToken);
  });

  it('keeps ordinary password-reset links to one hour', async () => {
    const person = await createSignedInUser(t, 'patient', clinicId);
    const asked = await t.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', headers: { origin: PUBLIC_URL }, payload: { email: person.email } });
    expect(asked.statusCode).toBe(200);
    // The link is made by the e-mail's job (account-mail.ts), after the answer.
    await settleWork(t);
    const [token] = await resetTokensOf(person.userId);
    expect(token!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(HOUR_MS);
  });

  it("'Reenviar convite' sends a new link and retires the earlier ones", async () => {
    const email = uniqueEmail('reenvio');
    const userId = (await api('POST', '/api/admin/user-roles', { email, role: 'patient', clinicId })).json().user.id;
    const firstToken = linkIn((await lastMailTo(email)).text).searchParams.get('token');

    const resent = await api('POST', `/api/admin/users/${userId}/invitation`);
    expect(resent.statusCode).toBe(204);
    const secondToken = linkIn((await lastMailTo(email)).text).searchParams.get('token');
    expect(secondToken).not.toBe(firstToken);
    expect(await resetTokensOf(userId)).toHaveLength(1);

    expect((await setPassword(firstToken)).statusCode).toBe(400);
    expect((await setPassword(secondToken)).statusCode).toBe(200);
    // Once the password is set there is nothing to resend.
    const again = await api('POST', `/api/admin/users/${userId}/invitation`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(messages.adminUsers.alreadyHasPassword);
  });

  it("voids an invitation link not yet used when the account is deactivated, even once it is reopened", async () => {
    const email = uniqueEmail('convite-desativado');
    const userId = (await api('POST', '/api/admin/user-roles', { email, role: 'patient', clinicId })).json().user.id;
    const token = linkIn((await lastMailTo(email)).text).searchParams.get('token');

    expect((await api('DELETE', `/api/admin/user-roles/${userId}`)).statusCode).toBe(204);
    expect(await resetTokensOf(userId)).toEqual([]);
    expect((await api('POST', '/api/admin/user-roles', { userId, role: 'patient', clinicId })).statusCode).toBe(201);
    expect((await setPassword(token)).statusCode).toBe(400);
  });

  it('has nothing to resend to an account that signed up with a password, nor to one without a role', async () => {
    const withPassword = await createSignedInUser(t, 'patient', clinicId);
    expect((await api('POST', `/api/admin/users/${withPassword.userId}/invitation`)).json().error.message).toBe(messages.adminUsers.alreadyHasPassword);
    const withoutRole = await createSignedInUser(t, null);
    expect((await api('POST', `/api/admin/users/${withoutRole.userId}/invitation`)).json().error.message).toBe(messages.adminUsers.resendNeedsRole);
  });
});

describe('an invitation whose e-mail cannot be sent', () => {
  let failing: TestApp;
  let failingAdmin: { userId: string; cookie: string };
  let failingClinicId: string;
  const failingApi = apiAs(() => failing, () => failingAdmin.cookie);

  beforeAll(async () => {
    failing = await createTestApp();
    failingAdmin = await createSignedInUser(failing, 'admin');
    failingClinicId = (await createClinic(failing.db, 'Clínica Sem Email')).clinicId;
  });
  afterAll(async () => {
    await failing.close();
  });

  /** Nothing listens on this SMTP port of this machine: every send is refused at once. */
  const breakSmtp = () => changeSettings(failing, failingAdmin.cookie, { smtpHost: '127.0.0.1', smtpPort: 2525 });
  const fixSmtp = () => changeSettings(failing, failingAdmin.cookie, { smtpHost: null });

  it('leaves nothing behind and says why', async () => {
    const email = uniqueEmail('sem-smtp');
    await breakSmtp();
    try {
      const refused = await failingApi('POST', '/api/admin/user-roles', { email, role: 'clinic_staff', clinicId: failingClinicId });
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error.message).toBe(messages.adminUsers.inviteNotSent);
    } finally {
      await fixSmtp();
    }
    expect(await failing.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    expect(await failing.db.select().from(verifications).where(like(verifications.identifier, 'reset-password:%'))).toEqual([]);
    // The failed attempt is on record in the outbox, with the SMTP server's reason.
    const [attempt] = await failing.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));
    expect(attempt?.error).toBeTruthy();

    // With the server fixed, the same invitation goes through.
    const invited = await failingApi('POST', '/api/admin/user-roles', { email, role: 'clinic_staff', clinicId: failingClinicId });
    expect(invited.statusCode).toBe(201);
  });

  it('keeps the earlier link working when a resend cannot be sent', async () => {
    const email = uniqueEmail('reenvio-sem-smtp');
    const invited = await failingApi('POST', '/api/admin/user-roles', { email, role: 'patient', clinicId: failingClinicId });
    const userId = invited.json().user.id;
    const [mail] = await failing.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));
    const token = linkIn(mail!.text).searchParams.get('token');

    await breakSmtp();
    try {
      const refused = await failingApi('POST', `/api/admin/users/${userId}/invitation`);
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error.message).toBe(messages.adminUsers.resendNotSent);
    } finally {
      await fixSmtp();
    }
    expect(await failing.db.select().from(userRoles).where(eq(userRoles.userId, userId))).toHaveLength(1);
    const reset = await failing.app.inject({ method: 'POST', url: '/api/auth/reset-password', headers: { origin: PUBLIC_URL }, payload: { token, newPassword: 'outra-senha-1' } });
    expect(reset.statusCode).toBe(200);
  });
});
