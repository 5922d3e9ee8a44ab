import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import type { PlatformSettings } from '@carteirinha/shared/contracts/settings';
import { users, verifications } from '../../db/schema.ts';
import { seedDatabase } from '../../db/seed.ts';
import {
  PUBLIC_URL,
  TEST_PASSWORD,
  changeSettings,
  createSignedInUser,
  createTestApp,
  settingsFormOf,
  signIn,
  signUp,
  uniqueEmail,
  type TestApp,
} from '../../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const COMMON = 'Esta senha é muito comum e fácil de adivinhar. Escolha outra.';
const BLANK = 'A senha não pode ser feita só de espaços';
const TOO_SHORT = 'Senha deve ter no mínimo 6 caracteres';
/** 70 characters of Portuguese, with spaces, accents and an emoji. */
const PASSPHRASE = 'Minha avó fazia pão de queijo às três da tarde — e o café já estava 🌞';

const refusal = (message: string) => ({ error: { code: 'VALIDATION', message } });

async function accountExists(email: string): Promise<boolean> {
  return (await t.db.select({ id: users.id }).from(users).where(eq(users.email, email))).length > 0;
}

/** A reset (or invitation) link of the account, made as better-auth makes them. */
async function resetTokenOf(email: string): Promise<string> {
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) throw new Error('no user');
  const token = randomBytes(16).toString('hex');
  await t.db.insert(verifications).values({ identifier: `reset-password:${token}`, value: user.id, expiresAt: new Date(Date.now() + 60_000) });
  return token;
}

function post(url: string, payload: Record<string, unknown>, cookie?: string) {
  return t.app.inject({ method: 'POST', url, headers: { origin: PUBLIC_URL, ...(cookie ? { cookie } : {}) }, payload });
}

describe('password policy (issue 12, item 8)', () => {
  it('refuses common and blank passwords at sign-up, in pt-BR, and keeps the specification minimum and message', async () => {
    const cases: [string, string][] = [
      ['123456', COMMON],
      ['password', COMMON],
      ['PassWord', COMMON],
      ['senha123', COMMON],
      ['        ', BLANK],
      ['12345', TOO_SHORT],
    ];
    for (const [password, message] of cases) {
      const email = uniqueEmail('fraca');
      const response = await signUp(t.app, { email, password });
      expect(response.statusCode, password).toBe(400);
      expect(response.json()).toEqual(refusal(message));
      expect(await accountExists(email)).toBe(false);
    }
  });

  it('accepts a long Unicode passphrase with spaces, and signs in with it', async () => {
    expect([...PASSPHRASE].length).toBeGreaterThanOrEqual(64);
    const email = uniqueEmail('frase');
    expect((await signUp(t.app, { email, password: PASSPHRASE })).statusCode).toBe(200);
    expect((await signIn(t.app, email, PASSPHRASE)).statusCode).toBe(200);
    expect((await signUp(t.app, { email: uniqueEmail() })).statusCode).toBe(200);
  });

  it('applies to a reset or invitation link, which stays usable after a refusal', async () => {
    const { email } = await createSignedInUser(t, null);
    const token = await resetTokenOf(email);
    expect((await post('/api/auth/reset-password', { token, newPassword: '          ' })).json()).toEqual(refusal(BLANK));
    expect((await post('/api/auth/reset-password', { token, newPassword: 'iloveyou' })).json()).toEqual(refusal(COMMON));
    expect((await post('/api/auth/reset-password', { token, newPassword: 'uma senha bem diferente' })).statusCode).toBe(200);
    expect((await signIn(t.app, email, 'uma senha bem diferente')).statusCode).toBe(200);
  });

  it('applies to change-password', async () => {
    const { email, cookie } = await createSignedInUser(t, null);
    const weak = await post('/api/auth/change-password', { currentPassword: TEST_PASSWORD, newPassword: 'password1' }, cookie);
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual(refusal(COMMON));
    const strong = await post('/api/auth/change-password', { currentPassword: TEST_PASSWORD, newPassword: 'outra-senha-forte-789' }, cookie);
    expect(strong.statusCode).toBe(200);
    expect((await signIn(t.app, email, 'outra-senha-forte-789')).statusCode).toBe(200);
  });

  it("leaves the demo seed's password alone: the policy is for people setting one", async () => {
    await seedDatabase({ db: t.db, auth: t.app.auth, cardBox: t.app.cardBox, withDemo: true });
    expect((await signIn(t.app, DEMO_ACCOUNTS.patient, DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('takes the minimum from Configurações: raised by an admin, never below the floor, lowered only with the password', async () => {
    const admin = await createSignedInUser(t, 'admin');
    const read = async () => (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: { cookie: admin.cookie } })).json<PlatformSettings>();
    const save = async (changes: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: { cookie: admin.cookie, origin: PUBLIC_URL }, payload: { ...settingsFormOf(await read()), ...changes } });
    expect((await read()).passwordMinLength).toBe(6);

    const belowFloor = await save({ passwordMinLength: 5 });
    expect(belowFloor.statusCode).toBe(400);
    expect(belowFloor.json().error.message).toBe('Tamanho mínimo da senha deve ser entre 6 e 64 caracteres');

    const existing = await createSignedInUser(t, null);
    await changeSettings(t, admin.cookie, { passwordMinLength: 16 });
    expect((await read()).passwordMinLength).toBe(16);
    // TEST_PASSWORD has 15 characters.
    const short = await signUp(t.app, { email: uniqueEmail() });
    expect(short.json()).toEqual(refusal('Senha deve ter no mínimo 16 caracteres'));
    expect((await signUp(t.app, { email: uniqueEmail(), password: 'dezesseis-letras' })).statusCode).toBe(200);
    // An existing, shorter password still opens its account.
    expect((await signIn(t.app, existing.email)).statusCode).toBe(200);

    // Lowering it weakens security: the admin's password is asked again.
    const withoutPassword = await save({ passwordMinLength: 6, currentPassword: undefined });
    expect(withoutPassword.statusCode).toBe(403);
    expect(withoutPassword.json().error.code).toBe('REAUTHENTICATION_REQUIRED');
    expect((await save({ passwordMinLength: 6 })).statusCode).toBe(200);
    expect((await signUp(t.app, { email: uniqueEmail() })).statusCode).toBe(200);
  });
});
