import { randomUUID } from 'node:crypto';
import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, profiles } from '../db/schema.ts';
import { cookieHeaderOf, createClinic, createSignedInUser, createTestApp, PUBLIC_URL, signIn, uniqueEmail, type TestApp, settleWork } from '../../test/helpers.ts';

const PASSWORD = 'senha-do-cadastro-7731';
const NEW_PASSWORD = 'senha-redefinida-8842';
const INVITED_PASSWORD = 'senha-do-convite-9953';
const CPF_DIGITS = '52998224725';
const CPF_FORMATTED = '529.982.247-25';

/** Every line the server logged, as written (JSON, one per line). */
const lines: string[] = [];
const logStream = { write: (line: string) => void lines.push(line) };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream });
});
afterAll(async () => t.close());

/** The link of the newest e-mail to this address whose subject matches (mail goes in the background: wait for it). */
async function linkTo(email: string, subject: string): Promise<URL> {
  await settleWork(t);
  const [mail] = await t.db
    .select({ text: emailOutbox.text })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), like(emailOutbox.subject, `%${subject}%`)))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  const found = mail && /https?:\/\/\S+/.exec(mail.text);
  if (!found) throw new Error(`no "${subject}" e-mail to ${email}`);
  return new URL(found[0]);
}

function tokenOf(link: URL): string {
  const token = link.searchParams.get('token');
  if (!token) throw new Error(`no token in ${link.href}`);
  return token;
}

/** The values of the cookies a response set (the session token and its signature among them). */
function cookieValues(cookieHeader: string): string[] {
  return cookieHeader
    .split('; ')
    .map((pair) => decodeURIComponent(pair.slice(pair.indexOf('=') + 1)))
    .flatMap((value) => [value, ...value.split('.')])
    .filter((value) => value.length >= 16);
}

describe('the log of a whole scenario', () => {
  it('holds no token, password, CPF or session cookie', async () => {
    const secrets: string[] = [PASSWORD, NEW_PASSWORD, INVITED_PASSWORD, CPF_DIGITS, CPF_FORMATTED];
    const post = (url: string, payload: Record<string, unknown>, cookie?: string) =>
      t.app.inject({ method: 'POST', url, headers: { origin: PUBLIC_URL, ...(cookie ? { cookie } : {}) }, payload });

    // Sign-up, then the verification link opened from the mailbox.
    const email = uniqueEmail('log');
    const signedUp = await post('/api/auth/sign-up/email', { email, password: PASSWORD, name: 'Pessoa do Log' });
    expect(signedUp.statusCode).toBe(200);
    secrets.push(...cookieValues(cookieHeaderOf(signedUp)));
    const verification = await linkTo(email, 'Confirme');
    secrets.push(tokenOf(verification));
    await t.app.inject({ method: 'GET', url: `${verification.pathname}${verification.search}` });

    // A reset: asked for, the page opened, the new password set, then a sign-in with it.
    expect((await post('/api/auth/request-password-reset', { email, redirectTo: '/auth/redefinir-senha' })).statusCode).toBe(200);
    const reset = await linkTo(email, 'senha');
    const resetToken = tokenOf(reset);
    secrets.push(resetToken);
    await t.app.inject({ method: 'GET', url: `${reset.pathname}${reset.search}` });
    expect((await post('/api/auth/reset-password', { token: resetToken, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
    const signedIn = await signIn(t.app, email, NEW_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    secrets.push(...cookieValues(cookieHeaderOf(signedIn)));

    // An invitation from 'Novo Usuário', accepted through its link.
    const admin = await createSignedInUser(t, 'admin');
    secrets.push(...cookieValues(admin.cookie));
    const { clinicId } = await createClinic(t.db, 'Clínica do Log');
    const invitedEmail = uniqueEmail('convidada');
    const invited = await post('/api/admin/user-roles', { email: invitedEmail, role: 'clinic_staff', clinicId }, admin.cookie);
    expect(invited.statusCode).toBe(201);
    const invitation = await linkTo(invitedEmail, '');
    const invitationToken = tokenOf(invitation);
    secrets.push(invitationToken);
    await t.app.inject({ method: 'GET', url: `${invitation.pathname}${invitation.search}` });
    expect((await post('/api/auth/reset-password', { token: invitationToken, newPassword: INVITED_PASSWORD })).statusCode).toBe(200);

    // A statement that fails with a CPF among its parameters, logged the way the error handler logs a 500.
    const failure = await t.db
      .insert(profiles)
      .values({ id: randomUUID(), fullName: 'Pessoa Sem Conta', cpf: CPF_FORMATTED })
      .then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    t.app.log.error({ err: failure, errorId: randomUUID() }, 'unexpected failure');

    const log = lines.join('');
    // The log did record the scenario: the access log with its URLs redacted, and the database error by code.
    expect(log).toContain('token=[redacted]');
    const databaseLine = lines.find((line) => line.includes('unexpected failure'));
    expect(databaseLine).toMatch(/"code":"22001"/);
    expect(databaseLine).toContain('insert into \\"profiles\\"');
    for (const secret of secrets) {
      const leaking = lines.filter((line) => line.includes(secret));
      expect(leaking, `a log line holds ${secret}`).toEqual([]);
    }
  });
});
