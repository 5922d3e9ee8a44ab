import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, signUp, uniqueEmail, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '5', SIGN_IN_ACCOUNT_FAILURE_LIMIT: '3', SIGN_IN_WINDOW_MINUTES: '15' });
});
afterAll(async () => {
  await t.close();
});

describe('sign-in rate limits', () => {
  it('limits one IP, with Retry-After and a pt-BR message, and leaves other IPs alone', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      // Unknown accounts, so only the IP limit can be what stops the sixth.
      statuses.push((await signIn(t.app, uniqueEmail('ip'), 'qualquer-senha', '10.9.0.1')).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const limited = await signIn(t.app, email, undefined, '10.9.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toEqual({
      error: { code: 'RATE_LIMITED', message: 'Muitas tentativas. Aguarde alguns minutos e tente novamente.' },
    });
    expect((await signIn(t.app, email, undefined, '10.9.0.2')).statusCode).toBe(200);
  });

  it('limits failed attempts on one account even when they come from many IPs', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await signIn(t.app, email, 'senha-errada', `10.8.0.${attempt + 1}`)).statusCode).toBe(401);
    }
    // Even the right password waits for the window to slide: the attacker learns nothing from this answer.
    const blocked = await signIn(t.app, email, undefined, '10.8.0.99');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('RATE_LIMITED');
    // Another account is unaffected.
    const other = uniqueEmail();
    await signUp(t.app, { email: other });
    expect((await signIn(t.app, other, undefined, '10.8.0.99')).statusCode).toBe(200);
  });

  it('forgets earlier failures after a successful sign-in', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    await signIn(t.app, email, 'senha-errada', '10.7.0.1');
    await signIn(t.app, email, 'senha-errada', '10.7.0.2');
    expect((await signIn(t.app, email, undefined, '10.7.0.3')).statusCode).toBe(200);
    await signIn(t.app, email, 'senha-errada', '10.7.0.4');
    await signIn(t.app, email, 'senha-errada', '10.7.0.5');
    expect((await signIn(t.app, email, undefined, '10.7.0.6')).statusCode).toBe(200);
  });
});
