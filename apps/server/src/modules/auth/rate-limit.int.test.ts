import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, signInFailures, users, verifications } from '../../db/schema.ts';
import { PUBLIC_URL, createTestApp, signIn, signUp, uniqueEmail, type TestApp, settleWork } from '../../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    SIGN_IN_IP_LIMIT: '5',
    SIGN_IN_ADDRESS_FAILURE_LIMIT: '3',
    SIGN_IN_ACCOUNT_FAILURE_LIMIT: '8',
    SIGN_IN_WINDOW_MINUTES: '15',
  });
});
afterAll(async () => {
  await t.close();
});

const RATE_LIMITED = { error: { code: 'RATE_LIMITED', message: 'Muitas tentativas. Aguarde alguns minutos e tente novamente.' } };

/** Moves every recorded failure of the account back in time, as if the attacker had waited between tries. */
async function ageFailures(email: string, seconds: number): Promise<void> {
  await t.db
    .update(signInFailures)
    .set({ createdAt: sql`${signInFailures.createdAt} - make_interval(secs => ${seconds})` })
    .where(eq(signInFailures.email, email));
}

function retryAfterOf(response: { headers: Record<string, unknown> }): number {
  return Number(response.headers['retry-after']);
}

async function ceilingNoticesTo(email: string) {
  return t.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), eq(emailOutbox.subject, 'Muitas tentativas de acesso à sua conta')));
}

/** A reset link of the account, made as better-auth makes them, and used with a new password. */
async function completeReset(email: string, newPassword: string) {
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) throw new Error('no user');
  const token = randomBytes(16).toString('hex');
  await t.db.insert(verifications).values({ identifier: `reset-password:${token}`, value: user.id, expiresAt: new Date(Date.now() + 60_000) });
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    headers: { origin: PUBLIC_URL },
    payload: { token, newPassword },
  });
}

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
    expect(retryAfterOf(limited)).toBeGreaterThan(0);
    expect(limited.json()).toEqual(RATE_LIMITED);
    expect((await signIn(t.app, email, undefined, '10.9.0.2')).statusCode).toBe(200);
  });

  it("never refuses the right password from elsewhere for one address's failures (issue 12, item 4)", async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    const attacker: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) attacker.push((await signIn(t.app, email, 'senha-errada', '10.8.0.1')).statusCode);
    // The attacker's own address is held back, with a Retry-After within the window …
    expect(attacker).toEqual([401, 401, 401, 429, 429]);
    const held = await signIn(t.app, email, undefined, '10.8.0.1');
    expect(held.statusCode).toBe(429);
    expect(held.json()).toEqual(RATE_LIMITED);
    expect(retryAfterOf(held)).toBeGreaterThan(0);
    expect(retryAfterOf(held)).toBeLessThanOrEqual(15 * 60);
    // … and the owner, anywhere else, signs in.
    expect((await signIn(t.app, email, undefined, '10.8.0.2')).statusCode).toBe(200);
  });

  it('meets a distributed attack with a growing delay, then the hourly ceiling; tells the owner once; a reset clears it', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    // The owner's usual place.
    expect((await signIn(t.app, email, undefined, '10.6.0.1')).statusCode).toBe(200);

    const waits: number[] = [];
    let address = 0;
    let failures = 0;
    while (failures < 8) {
      // One try per address, as a botnet would: the per-address limit never comes into play.
      address += 1;
      const attempt = await signIn(t.app, email, 'senha-errada', `10.6.1.${address}`);
      if (attempt.statusCode === 429) {
        expect(attempt.json()).toEqual(RATE_LIMITED);
        waits.push(retryAfterOf(attempt));
        // The attacker waits the delay out (the failures are moved back in time), then goes on.
        await ageFailures(email, 90);
        continue;
      }
      expect(attempt.statusCode).toBe(401);
      failures += 1;
    }
    // Half the ceiling goes without delay; then each failure makes the next try wait longer: 1 s, 2 s, 4 s …
    expect(waits).toEqual([1, 2, 4, 8]);

    // At the ceiling, an unknown address waits until the oldest failure is an hour old — even with the right password.
    const ceiling = await signIn(t.app, email, undefined, '10.6.2.1');
    expect(ceiling.statusCode).toBe(429);
    expect(ceiling.json()).toEqual(RATE_LIMITED);
    expect(retryAfterOf(ceiling)).toBeGreaterThan(60);
    expect(retryAfterOf(ceiling)).toBeLessThanOrEqual(60 * 60);
    // The owner's known address is not held back by failures someone else caused.
    expect((await signIn(t.app, email, 'senha-errada', '10.6.0.1')).statusCode).toBe(401);
    expect((await signIn(t.app, email, undefined, '10.6.0.1')).statusCode).toBe(200);

    // The owner hears of it once (the e-mail leaves in the background), not once per attempt.
    await settleWork(t);
    expect(await ceilingNoticesTo(email)).toHaveLength(1);
    const [notice] = await ceilingNoticesTo(email);
    expect(notice?.text).toContain(`${PUBLIC_URL}/auth`);
    expect((await signIn(t.app, email, 'senha-errada', '10.6.0.1')).statusCode).toBe(401);
    await settleWork(t);
    expect(await ceilingNoticesTo(email)).toHaveLength(1);

    // A completed password reset lifts the ceiling at once.
    expect((await completeReset(email, 'outra-senha-forte-456')).statusCode).toBe(200);
    expect((await signIn(t.app, email, 'outra-senha-forte-456', '10.6.2.2')).statusCode).toBe(200);
  });

  it("forgets the owner's own mistakes after the owner signs in, and not a stranger's", async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    expect((await signIn(t.app, email, 'senha-errada', '10.7.0.1')).statusCode).toBe(401);
    expect((await signIn(t.app, email, 'senha-errada', '10.7.0.9')).statusCode).toBe(401);
    expect((await signIn(t.app, email, 'senha-errada', '10.7.0.9')).statusCode).toBe(401);
    expect((await signIn(t.app, email, undefined, '10.7.0.1')).statusCode).toBe(200);
    const remaining = await t.db.select({ ip: signInFailures.ipAddress }).from(signInFailures).where(eq(signInFailures.email, email));
    expect(remaining.map((row) => row.ip)).toEqual(['10.7.0.9', '10.7.0.9']);
    expect((await signIn(t.app, email, 'senha-errada', '10.7.0.9')).statusCode).toBe(401);
    expect((await signIn(t.app, email, undefined, '10.7.0.9')).statusCode).toBe(429);
  });
});
