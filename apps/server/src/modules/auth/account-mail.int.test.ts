import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CONFIRMED_PARAM } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';
import { clinics, emailOutbox, jobs, sessions, users, verifications } from '../../db/schema.ts';
import {
  PUBLIC_URL,
  TEST_PASSWORD,
  cookieHeaderOf,
  createClinic,
  createSignedInUser,
  createTestApp,
  signIn,
  signUp,
  uniqueEmail,
  type TestApp,
  settleWork,
} from '../../../test/helpers.ts';
import { ACCOUNT_MAIL_QUEUE, AUTH_MAIL_PER_RECIPIENT_PER_HOUR } from './account-mail.ts';

/**
 * Issue 12, items 2, 9, 12, 15 and 16: what the e-mails of sign-up and password reset carry and where their links
 * lead, what the answers tell about an address, and what a link can do once opened.
 */
let t: TestApp;
let clinicSlug: string;
let clinicId: string;

/** Another clinic's own domain: its DNS is that clinic's to point anywhere, so its Host proves nothing. */
const FOREIGN_HOST = 'outra-clinica.example:8443';

beforeAll(async () => {
  // Many sign-ups and resets from one address: the per-IP limit is not what these tests are about.
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  const foreign = await createClinic(t.db, 'Outra Clínica');
  await t.db.update(clinics).set({ domain: 'outra-clinica.example' }).where(eq(clinics.id, foreign.clinicId));
  clinicId = (await createClinic(t.db, 'Clínica dos Links')).clinicId;
  await t.db.update(clinics).set({ displayName: 'Links Saúde', primaryColor: '#be123c' }).where(eq(clinics.id, clinicId));
  const [clinic] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
  clinicSlug = clinic!.slug;
});
afterAll(async () => {
  await t.close();
});

/** E-mails go after the answer: wait for them before reading the outbox. */
async function mailsTo(email: string) {
  await settleWork(t);
  return t.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt));
}

async function lastMailTo(email: string) {
  const [mail] = await mailsTo(email);
  if (!mail) throw new Error(`no e-mail to ${email}`);
  return mail;
}

function linkIn(text: string): URL {
  const found = /https?:\/\/\S+/.exec(text);
  if (!found) throw new Error('no link in the e-mail');
  return new URL(found[0]);
}

function requestReset(email: string, host?: string) {
  const headers: Record<string, string> = host ? { host, origin: `http://${host}` } : { origin: PUBLIC_URL };
  return t.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', headers, payload: { email, redirectTo: '/auth/redefinir-senha' } });
}

function resetPassword(token: string | null, newPassword: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/reset-password', headers: { origin: PUBLIC_URL }, payload: { token, newPassword } });
}

async function verifyEmailOf(email: string) {
  await t.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
}

/** The shape of a JSON value: its keys and the type of each leaf, so two answers can be compared without their values. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  }
  return value === null ? 'null' : typeof value;
}

describe('links are built from the account, not from the request (item 2)', () => {
  it("sends the Super Admin's reset link to PUBLIC_URL even when asked on a clinic's host with a port of its own", async () => {
    const admin = await createSignedInUser(t, 'admin');
    for (const host of [`${clinicSlug}.localhost:4444`, `${clinicSlug}.localhost`, FOREIGN_HOST]) {
      expect((await requestReset(admin.email, host)).statusCode).toBe(200);
      const mail = await lastMailTo(admin.email);
      expect(linkIn(mail.text).origin, host).toBe(PUBLIC_URL);
      // A clinic's brand only for that clinic's own accounts.
      expect(mail.text).not.toContain('Links Saúde');
      expect(mail.html).not.toContain('#be123c');
    }
  });

  it("sends a clinic patient's link to that clinic's canonical address, wherever the request came from", async () => {
    const patient = await createSignedInUser(t, 'patient', clinicId);
    for (const host of [undefined, FOREIGN_HOST, `${clinicSlug}.localhost:4444`]) {
      expect((await requestReset(patient.email, host)).statusCode).toBe(200);
      const mail = await lastMailTo(patient.email);
      expect(linkIn(mail.text).origin, String(host)).toBe(`http://${clinicSlug}.localhost:3999`);
      expect(mail.text).toContain('Links Saúde');
      expect(mail.html).toContain('#be123c');
    }
  });

  it("uses a clinic's own domain, with PUBLIC_URL's scheme, for its accounts", async () => {
    const other = await createClinic(t.db, 'Clínica do Domínio');
    await t.db.update(clinics).set({ domain: 'clinica-dominio.example' }).where(eq(clinics.id, other.clinicId));
    const staff = await createSignedInUser(t, 'clinic_staff', other.clinicId);
    expect((await requestReset(staff.email, `${clinicSlug}.localhost:3999`)).statusCode).toBe(200);
    expect(linkIn((await lastMailTo(staff.email)).text).origin).toBe('http://clinica-dominio.example');
  });

  it("sends a platform sign-up's verification link to PUBLIC_URL, not to the Host's port", async () => {
    const email = uniqueEmail('verifica-host');
    // The platform answers on any IP: a Host with another port must not reach the link.
    const host = '127.0.0.1:4444';
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { host, origin: `http://${host}` },
      payload: { email, password: TEST_PASSWORD, name: 'Pessoa Nova' },
    });
    expect(response.statusCode).toBe(200);
    const link = linkIn((await lastMailTo(email)).text);
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toBe('/api/auth/verify-email');
  });
});

describe('the answers do not tell which addresses have an account (item 9)', () => {
  it('answers a sign-up of a registered address exactly as a new one, changes nothing and tells the owner by e-mail', async () => {
    const owner = await createSignedInUser(t, 'patient', clinicId);
    const before = await t.db.select().from(users).where(eq(users.id, owner.userId));
    const sessionsBefore = await t.db.select().from(sessions).where(eq(sessions.userId, owner.userId));

    const fresh = await signUp(t.app, { email: uniqueEmail('novo'), name: 'Pessoa Qualquer' });
    const taken = await signUp(t.app, { email: owner.email, password: 'outra-senha-qualquer', name: 'Pessoa Qualquer' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(shapeOf(taken.json())).toEqual(shapeOf(fresh.json()));
    expect(taken.json().user).toMatchObject({ email: owner.email, name: 'Pessoa Qualquer', emailVerified: false });
    expect(taken.json().user.id).not.toBe(owner.userId);

    // Nothing of the account changed, and no session was handed to whoever typed the address.
    expect(await t.db.select().from(users).where(eq(users.id, owner.userId))).toEqual(before);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, owner.userId))).toEqual(sessionsBefore);
    expect(taken.cookies.filter((cookie) => cookie.name.includes('session_token') && cookie.value !== '')).toEqual([]);
    expect((await signIn(t.app, owner.email, 'outra-senha-qualquer')).statusCode).toBe(401);

    const notice = await lastMailTo(owner.email);
    expect(notice.subject).toBe(messages.email.signUpAttemptSubject);
    // The owner's own home, and nothing the stranger typed.
    expect(linkIn(notice.text).origin).toBe(`http://${clinicSlug}.localhost:3999`);
    expect(notice.text).not.toContain('Pessoa Qualquer');
  });

  it('answers the same on a clinic host, and enrols nobody there', async () => {
    const owner = await createSignedInUser(t, 'admin');
    const host = `${clinicSlug}.localhost:3999`;
    const signUpOnClinic = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { host, origin: `http://${host}` },
        payload: { email, password: TEST_PASSWORD, name: 'Pessoa da Clínica' },
      });
    const fresh = await signUpOnClinic(uniqueEmail('novo-clinica'));
    const taken = await signUpOnClinic(owner.email);
    expect(taken.statusCode).toBe(200);
    expect(shapeOf(taken.json())).toEqual(shapeOf(fresh.json()));
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: owner.cookie } });
    expect(me.json().role).toBe('admin');
  });

  it('answers a reset request the same for a known and an unknown address', async () => {
    const known = await createSignedInUser(t, null);
    const forKnown = await requestReset(known.email);
    const forUnknown = await requestReset(uniqueEmail('ninguem'));
    expect(forKnown.statusCode).toBe(200);
    expect(forUnknown.statusCode).toBe(forKnown.statusCode);
    expect(forUnknown.json()).toEqual(forKnown.json());
    expect(await mailsTo(known.email)).toHaveLength(2);
  });
});

/** The statements a request sends to the database while it is answered, and the jobs it wrote. */
async function structureOf(request: () => Promise<{ statusCode: number }>): Promise<{ statements: string[]; jobs: { queue: string; kind: unknown }[] }> {
  await settleWork(t);
  const before = new Set((await t.db.select({ id: jobs.id }).from(jobs)).map((row) => row.id));
  const statements: string[] = [];
  const stop = t.database.onStatement((statement) => statements.push(statement));
  try {
    expect((await request()).statusCode).toBe(200);
    // What runs after the answer (better-auth's background work) is part of what an observer can time.
    await t.app.background.settled();
  } finally {
    stop();
  }
  const written = (await t.db.select({ id: jobs.id, queue: jobs.queue, payload: jobs.payload }).from(jobs)).filter((row) => !before.has(row.id));
  return { statements, jobs: written.map((row) => ({ queue: row.queue, kind: row.payload.kind })) };
}

describe('known and unknown addresses do the same work (issue 22)', () => {
  it('a reset request makes the same statements and enqueues the same job for a known and an unknown address; only the job tells them apart', async () => {
    const known = await createSignedInUser(t, null);
    const unknown = uniqueEmail('ninguem-aqui');
    const forKnown = await structureOf(() => requestReset(known.email));
    const forUnknown = await structureOf(() => requestReset(unknown));
    expect(forKnown.statements.length).toBeGreaterThan(0);
    expect(forUnknown.statements).toEqual(forKnown.statements);
    expect(forKnown.jobs).toEqual([{ queue: ACCOUNT_MAIL_QUEUE, kind: 'passwordReset' }]);
    expect(forUnknown.jobs).toEqual(forKnown.jobs);

    // The jobs run: the account gets its link; the unknown address gets nothing (the decoy ends quietly).
    expect((await mailsTo(known.email)).filter((mail) => mail.subject === messages.email.resetSubject)).toHaveLength(1);
    expect(await mailsTo(unknown)).toEqual([]);
  });

  it('a sign-up writes one account-mail job for a new address (its confirmation) and for a known one (the owner told)', async () => {
    const owner = await createSignedInUser(t, null);
    const forNew = await structureOf(() => signUp(t.app, { email: uniqueEmail('novo') }));
    const forKnown = await structureOf(() => signUp(t.app, { email: owner.email }));
    expect(forNew.jobs).toEqual([{ queue: ACCOUNT_MAIL_QUEUE, kind: 'verifyEmail' }]);
    expect(forKnown.jobs).toEqual([{ queue: ACCOUNT_MAIL_QUEUE, kind: 'signUpAttempt' }]);
  });
});

describe('e-mail abuse (item 12)', () => {
  it('refuses a name longer than 120 characters at sign-up and in the profile, in pt-BR', async () => {
    const long = 'N'.repeat(121);
    const refused = await signUp(t.app, { email: uniqueEmail('nome-longo'), name: long });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(messages.validation.fullNameMax);
    expect((await signUp(t.app, { email: uniqueEmail('nome-120'), name: 'N'.repeat(120) })).statusCode).toBe(200);

    const person = await createSignedInUser(t, null);
    const update = await t.app.inject({ method: 'POST', url: '/api/auth/update-user', headers: { cookie: person.cookie, origin: PUBLIC_URL }, payload: { name: long } });
    expect(update.statusCode).toBe(400);
    expect(update.json().message).toBe(messages.validation.fullNameMax);
    const [row] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, person.userId));
    expect(row?.name).toBe('Pessoa de Teste');
  });

  it('keeps the name typed at sign-up out of mail to an address nobody confirmed', async () => {
    const email = uniqueEmail('sem-nome');
    const bait = 'Ganhe um premio em http://evil.example';
    expect((await signUp(t.app, { email, name: bait })).statusCode).toBe(200);
    const verification = await lastMailTo(email);
    expect(verification.subject).toBe(messages.email.verifySubject);
    expect(verification.text).not.toContain('premio');
    expect(verification.html).not.toContain('premio');

    await requestReset(email);
    const reset = await lastMailTo(email);
    expect(reset.subject).toBe(messages.email.resetSubject);
    expect(reset.text).not.toContain('premio');

    // Once the owner confirmed the address, their own name greets them again.
    await verifyEmailOf(email);
    await requestReset(email);
    expect((await lastMailTo(email)).text).toContain(bait);
  });

  it(`sends at most ${AUTH_MAIL_PER_RECIPIENT_PER_HOUR} such e-mails an hour to one address, and answers as usual past it`, async () => {
    const person = await createSignedInUser(t, null);
    await settleWork(t);
    for (let attempt = 0; attempt < AUTH_MAIL_PER_RECIPIENT_PER_HOUR + 3; attempt += 1) {
      expect((await requestReset(person.email)).statusCode).toBe(200);
    }
    // The sign-up's verification e-mail counts too.
    expect(await mailsTo(person.email)).toHaveLength(AUTH_MAIL_PER_RECIPIENT_PER_HOUR);
    const other = await createSignedInUser(t, null);
    await requestReset(other.email);
    expect(await mailsTo(other.email)).toHaveLength(2);
  });
});

describe('a completed reset ends every reset link of the account (item 15)', () => {
  it('refuses the other links once one was used', async () => {
    const person = await createSignedInUser(t, null);
    await requestReset(person.email);
    const first = linkIn((await lastMailTo(person.email)).text).searchParams.get('token');
    await requestReset(person.email);
    const second = linkIn((await lastMailTo(person.email)).text).searchParams.get('token');
    expect(second).not.toBe(first);

    expect((await resetPassword(second, 'senha-nova-segura-1')).statusCode).toBe(200);
    const reused = await resetPassword(first, 'senha-do-atacante-2');
    expect(reused.statusCode).toBe(400);
    expect(await t.db.select().from(verifications).where(and(eq(verifications.value, person.userId), like(verifications.identifier, 'reset-password:%')))).toEqual([]);
    expect((await signIn(t.app, person.email, 'senha-nova-segura-1')).statusCode).toBe(200);
  });
});

describe('opening a verification link signs nobody in (item 16)', () => {
  it("keeps the victim's own session when they open the link of someone else's account", async () => {
    const victim = await createSignedInUser(t, 'patient', clinicId);
    const attackerEmail = uniqueEmail('atacante');
    const attacker = await signUp(t.app, { email: attackerEmail, name: 'Atacante' });
    expect(attacker.statusCode).toBe(200);
    const link = linkIn((await lastMailTo(attackerEmail)).text);

    const opened = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: { cookie: victim.cookie } });
    expect(opened.statusCode).toBe(302);
    // It lands on the site root, which then says the address is confirmed (issue 13, item 12).
    expect(opened.headers.location).toBe(`/?${EMAIL_CONFIRMED_PARAM}=1`);
    expect(opened.cookies.filter((cookie) => cookie.name.includes('session'))).toEqual([]);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: victim.cookie } });
    expect(me.json().user.email).toBe(victim.email);

    // The link still confirmed the address, and started no session for its account.
    const [row] = await t.db.select({ id: users.id, emailVerified: users.emailVerified }).from(users).where(eq(users.email, attackerEmail));
    expect(row?.emailVerified).toBe(true);
    const attackerSessions = await t.db.select().from(sessions).where(eq(sessions.userId, row!.id));
    expect(attackerSessions).toHaveLength(1);
    expect(cookieHeaderOf(attacker)).toContain('session_token');
  });

  it('confirms the address of a signed-out visitor without signing them in', async () => {
    const email = uniqueEmail('confirma');
    await signUp(t.app, { email });
    const link = linkIn((await lastMailTo(email)).text);
    const opened = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(opened.statusCode).toBe(302);
    // It lands on the site root, which then says the address is confirmed (issue 13, item 12).
    expect(opened.headers.location).toBe(`/?${EMAIL_CONFIRMED_PARAM}=1`);
    expect(opened.cookies.filter((cookie) => cookie.name.includes('session_token') && cookie.value !== '')).toEqual([]);
  });
});
