/**
 * The caller cache (issue 28, ADR 035): a process keeps a session's caller row between requests, and every change to
 * it — made through the app or straight in the database — clears it through the triggers' NOTIFY. The cache's time
 * is a minute here, so a change seen on the first request after its message arrived can only be the message's doing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meResponseSchema } from '@carteirinha/shared/contracts/me';
import { clinics, passkeys, sessions, userRoles, users } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, statementsDuring, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let clinicId: string;

beforeAll(async () => {
  t = await createTestApp({ JOBS_ENABLED: 'false', CALLER_CACHE_MS: '60000' });
  clinicId = (await createClinic(t.db, 'Clínica do Cache')).clinicId;
  await t.app.background.settled();
});
afterAll(() => t.close());

const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

const meOf = (body: string) => meResponseSchema.parse(JSON.parse(body));

/** /api/me's answer once every message committed so far has reached the app (PostgreSQL: milliseconds after). */
async function meOnceDelivered(cookie: string): Promise<{ status: number; body: string }> {
  await t.app.caches.delivered();
  const answer = await me(cookie);
  return { status: answer.statusCode, body: answer.body };
}

/**
 * The statements of one /api/me once the session is kept: the messages of the user's own creation (its role's insert)
 * are let arrive first, then one request reads and keeps the caller, and the one measured should read nothing.
 */
async function statementsOnceKept(cookie: string): Promise<string[]> {
  await t.app.caches.delivered();
  expect((await me(cookie)).statusCode).toBe(200);
  return statementsDuring(t, async () => expect((await me(cookie)).statusCode).toBe(200));
}

describe('the caller cache', () => {
  it('reads a session once, then answers its requests without a statement', async () => {
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    const first = await statementsDuring(t, async () => expect((await me(staff.cookie)).statusCode).toBe(200));
    expect(first.filter((statement) => /"sessions"/.test(statement))).toHaveLength(1);
    expect(await statementsOnceKept(staff.cookie)).toEqual([]);
    const statements = await statementsDuring(t, async () => {
      for (let request = 0; request < 5; request += 1) expect((await me(staff.cookie)).statusCode).toBe(200);
    });
    expect(statements).toEqual([]);
  });

  it('drops a session at sign-out before the answer leaves: the next request is refused', async () => {
    const patient = await createSignedInUser(t, 'patient', clinicId);
    expect((await me(patient.cookie)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie: patient.cookie, origin: PUBLIC_URL }, payload: {} });
    expect(out.statusCode, out.body).toBe(200);
    expect((await me(patient.cookie)).statusCode).toBe(401);
  });

  it('sees a session ended in the database, a deactivation and a removed role, each made by hand in SQL', async () => {
    const ended = await createSignedInUser(t, 'clinic_staff', clinicId);
    const deactivated = await createSignedInUser(t, 'clinic_staff', clinicId);
    const demoted = await createSignedInUser(t, 'clinic_admin', clinicId);
    for (const user of [ended, deactivated, demoted]) expect((await me(user.cookie)).statusCode).toBe(200);

    await t.db.delete(sessions).where(eq(sessions.userId, ended.userId));
    expect((await meOnceDelivered(ended.cookie)).status).toBe(401);

    await t.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, deactivated.userId));
    expect((await meOnceDelivered(deactivated.cookie)).status).toBe(401);

    await t.db.update(userRoles).set({ role: 'clinic_staff' }).where(eq(userRoles.userId, demoted.userId));
    const after = await meOnceDelivered(demoted.cookie);
    expect(meOf(after.body).role).toBe('clinic_staff');
  });

  it('sees a clinic suspended and a passkey added, for callers already kept', async () => {
    const owner = await createSignedInUser(t, 'clinic_admin', clinicId);
    const before = meOf((await me(owner.cookie)).body);
    expect(before.clinic?.status).toBe('active');
    expect(before.twoFactor.passkey).toBe(false);

    await t.db.insert(passkeys).values({
      userId: owner.userId,
      name: 'Chave do teste',
      credentialId: `credential-${owner.userId}`,
      publicKey: 'chave',
      rpId: 'localhost',
      deviceType: 'singleDevice',
    });
    const withPasskey = await meOnceDelivered(owner.cookie);
    expect(meOf(withPasskey.body).twoFactor.passkey).toBe(true);

    await t.db.update(clinics).set({ status: 'suspended' }).where(eq(clinics.id, clinicId));
    try {
      const suspended = await meOnceDelivered(owner.cookie);
      expect(meOf(suspended.body).clinic?.status).toBe('suspended');
    } finally {
      await t.db.update(clinics).set({ status: 'active' }).where(eq(clinics.id, clinicId));
    }
  });

  it('keeps a change that was rolled back out of it: the cache stays, nothing is cleared for nothing', async () => {
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    expect(await statementsOnceKept(staff.cookie)).toEqual([]);
    await t.db
      .transaction(async (tx) => {
        await tx.update(users).set({ name: 'Nome Desfeito' }).where(eq(users.id, staff.userId));
        tx.rollback();
      })
      .catch(() => undefined);
    // A message, had the rollback sent one, would have arrived before this marker sent after it.
    await t.app.caches.delivered();
    const statements = await statementsDuring(t, async () => expect((await me(staff.cookie)).statusCode).toBe(200));
    expect(statements).toEqual([]);
  });
});
