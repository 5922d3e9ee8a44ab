import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.ts';
import { createTestApp, PUBLIC_URL, TEST_PASSWORD, uniqueEmail, type TestApp } from '../../../test/helpers.ts';

/** The load balancer's own address: the socket every request comes from. */
const PROXY = '10.0.0.2';

/** A forged leading entry, different on every call, as a client rotating X-Forwarded-For would write. */
const forged = () => `198.51.100.${randomInt(1, 254)}`;

async function signInThroughProxy(t: TestApp, forwardedFor: string, socket = PROXY) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    remoteAddress: socket,
    headers: { origin: PUBLIC_URL, 'x-forwarded-for': forwardedFor },
    payload: { email: uniqueEmail('ninguem'), password: 'qualquer-senha' },
  });
}

/** The address the server recorded for the session a sign-up made: the client's address as the server sees it. */
async function addressSeenBySignUp(t: TestApp, forwardedFor: string, socket = PROXY): Promise<string | null | undefined> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    remoteAddress: socket,
    headers: { origin: PUBLIC_URL, 'x-forwarded-for': forwardedFor },
    payload: { email: uniqueEmail('proxy'), password: TEST_PASSWORD, name: 'Pessoa Atrás do Proxy' },
  });
  expect(response.statusCode).toBe(200);
  const userId = response.json<{ user: { id: string } }>().user.id;
  const [session] = await t.db.select({ ipAddress: sessions.ipAddress }).from(sessions).where(eq(sessions.userId, userId));
  return session?.ipAddress;
}

describe('TRUST_PROXY=1 (one load balancer in front)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1', SIGN_IN_IP_LIMIT: '3' });
  });
  afterAll(async () => t.close());

  it('takes the address the proxy appended, not a leading entry the client wrote', async () => {
    expect(await addressSeenBySignUp(t, `${forged()}, 203.0.113.7`)).toBe('203.0.113.7');
    expect(await addressSeenBySignUp(t, '203.0.113.8')).toBe('203.0.113.8');
  });

  it('keeps limiting a client that rotates forged X-Forwarded-For entries', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await signInThroughProxy(t, `${forged()}, 203.0.113.20`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // Another client behind the same proxy is not limited by it.
    expect((await signInThroughProxy(t, `${forged()}, 203.0.113.21`)).statusCode).toBe(401);
  });
});

describe('TRUST_PROXY with the proxies addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '10.0.0.0/8' });
  });
  afterAll(async () => t.close());

  it('walks back over the trusted proxies only', async () => {
    // Two proxies of ours (10.0.0.3, then the socket 10.0.0.2): the client is the entry before them.
    expect(await addressSeenBySignUp(t, `${forged()}, 203.0.113.30, 10.0.0.3`)).toBe('203.0.113.30');
    // A client that reaches the server directly cannot name itself with the header.
    expect(await addressSeenBySignUp(t, '10.0.0.9', '203.0.113.31')).toBe('203.0.113.31');
  });
});

describe('without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SIGN_IN_IP_LIMIT: '2' });
  });
  afterAll(async () => t.close());

  it('ignores X-Forwarded-For entirely', async () => {
    expect(await addressSeenBySignUp(t, '203.0.113.40', '203.0.113.41')).toBe('203.0.113.41');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await signInThroughProxy(t, forged(), '203.0.113.42')).statusCode);
    expect(statuses).toEqual([401, 401, 429]);
  });
});
