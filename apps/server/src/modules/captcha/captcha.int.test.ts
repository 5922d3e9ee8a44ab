import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_HEADER } from '@carteirinha/shared/contracts/captcha';
import { messages } from '@carteirinha/shared/messages';
import { users } from '../../db/schema.ts';
import { solvedCaptchaHeaders } from '../../../test/captcha-kit.ts';
import { PUBLIC_URL, TEST_PASSWORD, createTestApp, uniqueEmail, type TestApp } from '../../../test/helpers.ts';

const MINUTE_MS = 60_000;
let t: TestApp;
/** The app's clock runs this far ahead of the real one: a test moves it to see a challenge expire. */
let clockOffsetMs = 0;

/** A challenge from the server, solved as the browser's widget does (small work: CAPTCHA_MAX_COUNTER is low here). */
async function solvedCaptcha(): Promise<string> {
  const answer = await t.app.inject({ method: 'GET', url: '/api/captcha/challenge' });
  expect(answer.statusCode).toBe(200);
  const headers = await solvedCaptchaHeaders(answer.json());
  return headers[CAPTCHA_HEADER] ?? '';
}

function signUp(email: string, captcha?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: PUBLIC_URL, ...(captcha ? { [CAPTCHA_HEADER]: captcha } : {}) },
    payload: { email, password: TEST_PASSWORD, name: 'Pessoa com Captcha' },
  });
}

async function accountExists(email: string): Promise<boolean> {
  return (await t.db.select({ id: users.id }).from(users).where(eq(users.email, email))).length > 0;
}

function expectRefused(response: Awaited<ReturnType<typeof signUp>>) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({ error: { code: 'CAPTCHA_FAILED', message: messages.errors.CAPTCHA_FAILED } });
  expect(response.cookies).toHaveLength(0);
}

beforeAll(async () => {
  t = await createTestApp(
    { CAPTCHA: 'on', CAPTCHA_COST: '10', CAPTCHA_MAX_COUNTER: '20', CAPTCHA_EXPIRES_MINUTES: '10', CAPTCHA_AFTER_SIGN_IN_FAILURES: '2', SIGN_IN_IP_LIMIT: '1000' },
    { now: () => new Date(Date.now() + clockOffsetMs) },
  );
});
afterAll(async () => {
  await t.close();
});

describe('captcha on sign-up (CAPTCHA=on)', () => {
  it('the site says the forms carry it', async () => {
    const tenant = await t.app.inject({ method: 'GET', url: '/api/tenant' });
    expect(tenant.json()).toMatchObject({ captcha: true });
  });

  it('refuses a sign-up without a solved challenge, and creates nothing', async () => {
    const email = uniqueEmail('sem-captcha');
    expectRefused(await signUp(email));
    expectRefused(await signUp(email, Buffer.from('{"challenge":{}}').toString('base64')));
    expectRefused(await signUp(email, 'não é base64 nem json'));
    expect(await accountExists(email)).toBe(false);
  });

  it('accepts a solved challenge once: the same one again is refused and creates nothing', async () => {
    const captcha = await solvedCaptcha();
    const first = uniqueEmail('captcha');
    const accepted = await signUp(first, captcha);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await accountExists(first)).toBe(true);

    const second = uniqueEmail('captcha-reusado');
    expectRefused(await signUp(second, captcha));
    expect(await accountExists(second)).toBe(false);
  });

  it('refuses an expired challenge, and creates nothing', async () => {
    const captcha = await solvedCaptcha();
    clockOffsetMs = 11 * MINUTE_MS;
    try {
      const email = uniqueEmail('captcha-expirado');
      expectRefused(await signUp(email, captcha));
      expect(await accountExists(email)).toBe(false);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('refuses a challenge whose signed parameters were changed (less work)', async () => {
    const captcha = JSON.parse(Buffer.from(await solvedCaptcha(), 'base64').toString('utf8')) as { challenge: { parameters: { cost: number } } };
    captcha.challenge.parameters.cost = 1;
    const email = uniqueEmail('captcha-alterado');
    expectRefused(await signUp(email, Buffer.from(JSON.stringify(captcha)).toString('base64')));
    expect(await accountExists(email)).toBe(false);
  });
});

describe('captcha on password reset and on sign-in after failures', () => {
  it('a reset request carries it', async () => {
    const request = (captcha?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/request-password-reset',
        headers: { origin: PUBLIC_URL, ...(captcha ? { [CAPTCHA_HEADER]: captcha } : {}) },
        payload: { email: uniqueEmail('reset'), redirectTo: '/auth/redefinir-senha' },
      });
    expect((await request()).statusCode).toBe(400);
    expect((await request(await solvedCaptcha())).statusCode).toBe(200);
  });

  it('a sign-in is asked only after the address failed: then without it, even the right password is refused', async () => {
    const remoteAddress = '203.0.113.77';
    const email = uniqueEmail('tentativas');
    expect((await signUp(email, await solvedCaptcha())).statusCode).toBe(200);
    const signIn = (password: string, captcha?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        remoteAddress,
        headers: { origin: PUBLIC_URL, ...(captcha ? { [CAPTCHA_HEADER]: captcha } : {}) },
        payload: { email, password },
      });
    expect((await signIn('senha-errada-1')).statusCode).toBe(401);
    expect((await signIn('senha-errada-2')).statusCode).toBe(401);
    const asked = await signIn(TEST_PASSWORD);
    expect(asked.statusCode).toBe(400);
    expect(asked.json()).toMatchObject({ error: { code: 'CAPTCHA_FAILED' } });
    expect((await signIn(TEST_PASSWORD, await solvedCaptcha())).statusCode).toBe(200);
  });
});

describe('captcha off (CAPTCHA=off)', () => {
  it('has no challenge, and the forms do not ask for it', async () => {
    const off = await createTestApp({ CAPTCHA: 'off' });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/api/captcha/challenge' })).statusCode).toBe(404);
      expect((await off.app.inject({ method: 'GET', url: '/api/tenant' })).json()).toMatchObject({ captcha: false });
    } finally {
      await off.close();
    }
  });
});
