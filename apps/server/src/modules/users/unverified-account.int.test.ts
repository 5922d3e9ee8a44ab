import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { accounts, auditLog, emailOutbox, profiles, sessions, userRoles, users } from '../../db/schema.ts';
import {
  PUBLIC_URL,
  TEST_PASSWORD,
  apiAs,
  changeSettings,
  cookieHeaderOf,
  createClinic,
  createSignedInUser,
  enrolTotp,
  createTestApp,
  signIn,
  signUp,
  uniqueEmail,
  type TestApp,
  settleWork,
} from '../../../test/helpers.ts';

/**
 * Issue 12, item 1: anyone can sign up with a future team member's address. A role given to that address must reach
 * the mailbox's owner only: an account whose owner never confirmed the e-mail and signed in is invited (set-password
 * link) and loses the password, sessions and second factor someone else gave it (ADR 006).
 */
let t: TestApp;
let admin: { userId: string; cookie: string };
let clinicId: string;

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  admin = await createSignedInUser(t, 'admin');
  clinicId = (await createClinic(t.db, 'Clínica Vigilante')).clinicId;
});
afterAll(async () => {
  await t.close();
});

const api = apiAs(() => t, () => admin.cookie);
/** The helpers' password, so `enrolTotp` can enrol a factor on the attacker's account. */
const ATTACKER_PASSWORD = TEST_PASSWORD;

/** The attacker's move: sign up with the victim's address, and stay signed in. */
async function preRegister(email: string): Promise<{ userId: string; cookie: string }> {
  const response = await signUp(t.app, { email, password: ATTACKER_PASSWORD, name: 'Nome do Atacante' });
  expect(response.statusCode).toBe(200);
  // The sign-up's confirmation e-mail is a job: it goes out before the admin acts, as it would in real time.
  await settleWork(t);
  return { userId: response.json().user.id, cookie: cookieHeaderOf(response) };
}

async function lastMailTo(email: string) {
  await settleWork(t);
  const [mail] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt)).limit(1);
  if (!mail) throw new Error(`no e-mail to ${email}`);
  return mail;
}

function tokenIn(text: string): string | null {
  const found = /https?:\/\/\S+/.exec(text);
  if (!found) throw new Error('no link in the e-mail');
  return new URL(found[0]).searchParams.get('token');
}

async function expectTakenBack(attacker: { userId: string; cookie: string }, email: string) {
  expect((await signIn(t.app, email, ATTACKER_PASSWORD)).statusCode).toBe(401);
  expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: attacker.cookie } })).statusCode).toBe(401);
  expect(await t.db.select().from(accounts).where(eq(accounts.userId, attacker.userId))).toEqual([]);
  expect(await t.db.select().from(sessions).where(eq(sessions.userId, attacker.userId))).toEqual([]);
  const [user] = await t.db.select({ name: users.name, twoFactorEnabled: users.twoFactorEnabled }).from(users).where(eq(users.id, attacker.userId));
  expect(user).toEqual({ name: email.split('@')[0], twoFactorEnabled: false });
  const [profile] = await t.db.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.id, attacker.userId));
  expect(profile?.fullName).toBe(email.split('@')[0]);
}

/** The mailbox's owner opens the invitation and sets a password of their own. */
async function ownerSetsPassword(email: string): Promise<void> {
  const mail = await lastMailTo(email);
  expect(mail.subject).toMatch(/Você foi convidado/);
  const reset = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    headers: { origin: PUBLIC_URL },
    payload: { token: tokenIn(mail.text), newPassword: 'senha-da-dona-1' },
  });
  expect(reset.statusCode).toBe(200);
}

describe("'Novo Usuário' for an address someone pre-registered", () => {
  it('invites the mailbox instead of giving Super Admin to the password the attacker chose', async () => {
    const email = uniqueEmail('futura-admin');
    const attacker = await preRegister(email);

    const given = await api('POST', '/api/admin/user-roles', { email, role: 'admin' });
    expect(given.statusCode).toBe(201);
    expect(given.json()).toMatchObject({ invited: true, unverifiedAccount: true, user: { id: attacker.userId, role: 'admin', invitationPending: true } });
    await expectTakenBack(attacker, email);

    await ownerSetsPassword(email);
    const owner = await signIn(t.app, email, 'senha-da-dona-1');
    expect(owner.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookieHeaderOf(owner) } });
    expect(me.json()).toMatchObject({ role: 'admin', user: { emailVerified: true } });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, attacker.userId));
    expect(audit?.details).toMatchObject({ role: 'admin', invited: true, unverifiedAccount: true });
  });

  it('does the same when the account is named by its id, and drops a second factor the attacker enrolled', async () => {
    const email = uniqueEmail('futura-atendente');
    const attacker = await preRegister(email);
    await enrolTotp(t, attacker.cookie);

    const given = await api('POST', '/api/admin/user-roles', { userId: attacker.userId, role: 'clinic_staff', clinicId });
    expect(given.statusCode).toBe(201);
    expect(given.json()).toMatchObject({ invited: true, unverifiedAccount: true });
    await expectTakenBack(attacker, email);
  });

  it('invites an account that confirmed the e-mail but never signed in', async () => {
    const email = uniqueEmail('nunca-entrou');
    const attacker = await preRegister(email);
    await t.db.update(users).set({ emailVerified: true, lastSignInAt: null }).where(eq(users.id, attacker.userId));
    const given = await api('POST', '/api/admin/user-roles', { email, role: 'clinic_admin', clinicId });
    expect(given.json()).toMatchObject({ invited: true, unverifiedAccount: true });
    expect((await signIn(t.app, email, ATTACKER_PASSWORD)).statusCode).toBe(401);
  });

  it('gives the role directly to an owner who confirmed the e-mail and signed in', async () => {
    const person = await createSignedInUser(t, null);
    await t.db.update(users).set({ emailVerified: true }).where(eq(users.id, person.userId));
    const given = await api('POST', '/api/admin/user-roles', { email: person.email, role: 'clinic_staff', clinicId });
    expect(given.json()).toMatchObject({ invited: false, unverifiedAccount: false, user: { role: 'clinic_staff' } });
    expect((await signIn(t.app, person.email)).statusCode).toBe(200);
  });
});

describe("'Alterar Permissões' of a pre-registered patient", () => {
  it('raises a patient whose owner never confirmed the e-mail only through an invitation', async () => {
    const email = uniqueEmail('paciente-promovido');
    const attacker = await preRegister(email);
    await t.db.insert(userRoles).values({ userId: attacker.userId, role: 'patient', clinicId });

    const changed = await api('PUT', `/api/admin/user-roles/${attacker.userId}`, { role: 'clinic_admin', clinicId });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ role: 'clinic_admin', invitationPending: true });
    await expectTakenBack(attacker, email);
    await ownerSetsPassword(email);
    expect((await signIn(t.app, email, 'senha-da-dona-1')).statusCode).toBe(200);
  });
});

describe('an invitation to a pre-registered account that cannot be sent', () => {
  it('gives no role and says why', async () => {
    const email = uniqueEmail('sem-smtp');
    const attacker = await preRegister(email);
    // Nothing listens on this SMTP port of this machine: the send is refused at once.
    await changeSettings(t, admin.cookie, { smtpHost: '127.0.0.1', smtpPort: 2525 });
    try {
      const refused = await api('POST', '/api/admin/user-roles', { email, role: 'admin' });
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error.message).toBe(messages.adminUsers.unverifiedInviteNotSent);
    } finally {
      await changeSettings(t, admin.cookie, { smtpHost: null });
    }
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, attacker.userId))).toEqual([]);
    expect((await signIn(t.app, email, ATTACKER_PASSWORD)).statusCode).toBe(401);
  });
});
