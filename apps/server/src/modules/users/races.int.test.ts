import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { userRoles, users } from '../../db/schema.ts';
import { apiAs, createClinic, createSignedInUser, createTestApp, testDatabaseKind, uniqueEmail, type TestApp } from '../../../test/helpers.ts';
import { deactivateUser, updateRole } from './service.ts';

/**
 * Two admins acting on the same person at the same moment. To make the race certain rather than lucky, one side is a
 * transaction held open on its own connection while the other's request runs: on PostgreSQL the request then meets
 * the held rows (a unique index, a lock) exactly as a concurrent admin would; on PGlite, which has one connection,
 * the request waits for the transaction and meets its committed result. Either way the answer is the catalogue's.
 */
const HOLD_MS = 300;

let t: TestApp;
let admin: { userId: string; cookie: string };
let clinicId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t, 'admin');
  clinicId = (await createClinic(t.db, 'Clínica da Corrida')).clinicId;
});
afterAll(async () => {
  await t.close();
});

const api = apiAs(() => t, () => admin.cookie);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `write` in a transaction that stays open while `request` starts, then commits; answers the request. */
async function raceAgainstOpenTransaction<T>(write: (tx: TestApp['db']) => Promise<void>, request: () => Promise<T>): Promise<T> {
  let pending: Promise<T> | undefined;
  await t.db.transaction(async (tx) => {
    await write(tx);
    pending = request();
    await sleep(HOLD_MS);
  });
  if (!pending) throw new Error('request not started');
  return pending;
}

describe('races end in catalogue messages', () => {
  it('two admins giving the same user a role: the second is told the user already has one', async () => {
    const person = await createSignedInUser(t, null);
    const answer = await raceAgainstOpenTransaction(
      async (tx) => {
        await tx.insert(userRoles).values({ userId: person.userId, role: 'patient', clinicId });
      },
      () => api('POST', '/api/admin/user-roles', { userId: person.userId, role: 'clinic_staff', clinicId }),
    );
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error.message).toBe(messages.admin.alreadyHasRole);
    expect(await t.db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, person.userId))).toEqual([{ role: 'patient' }]);
  });

  it('the same e-mail invited twice at once: one invitation, and the other admin is told', async () => {
    const email = uniqueEmail('duas-vezes');
    const answer = await raceAgainstOpenTransaction(
      async (tx) => {
        const [user] = await tx.insert(users).values({ email, name: 'duas-vezes' }).returning({ id: users.id });
        await tx.insert(userRoles).values({ userId: user!.id, role: 'patient', clinicId });
      },
      () => api('POST', '/api/admin/user-roles', { email, role: 'patient', clinicId }),
    );
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error.message).toBe(messages.admin.alreadyHasRole);
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);

    // Truly at the same time, through the API: one 201, one 409, never a 500.
    const other = uniqueEmail('ao-mesmo-tempo');
    const answers = await Promise.all([1, 2].map(() => api('POST', '/api/admin/user-roles', { email: other, role: 'patient', clinicId })));
    expect(answers.map((response) => response.statusCode).sort()).toEqual([201, 409]);
  });

  it('two admins demoting each other at once leave one Super Admin', async () => {
    const first = await createSignedInUser(t, 'admin');
    const second = await createSignedInUser(t, 'admin');
    // Everyone else stops being an admin, so that these two are the last.
    await t.db.update(userRoles).set({ role: 'clinic_staff', clinicId }).where(eq(userRoles.userId, admin.userId));
    try {
      const answer = await raceAgainstOpenTransaction(
        // "second demotes first", committed while "first demotes second" is under way.
        async (tx) => {
          await tx.select({ id: userRoles.id }).from(userRoles).where(eq(userRoles.role, 'admin')).for('update');
          await tx.update(userRoles).set({ role: 'clinic_staff', clinicId }).where(eq(userRoles.userId, first.userId));
        },
        () => t.app.inject({ method: 'PUT', url: `/api/admin/user-roles/${second.userId}`, headers: { cookie: first.cookie }, payload: { role: 'patient', clinicId } }),
      );
      // PostgreSQL: the request was past the guard and meets the locked count (409). PGlite: it waited, and by then
      // its caller was no admin any more (403).
      expect(answer.statusCode).toBe(testDatabaseKind() === 'postgres' ? 409 : 403);
      if (answer.statusCode === 409) expect(answer.json().error.message).toBe(messages.adminUsers.lastAdmin);
      const admins = await t.db.select().from(userRoles).where(eq(userRoles.role, 'admin'));
      expect(admins.map((row) => row.userId)).toEqual([second.userId]);
    } finally {
      await t.db.update(userRoles).set({ role: 'admin', clinicId: null }).where(eq(userRoles.userId, admin.userId));
    }
  });

  it('never demotes or removes the last Super Admin', async () => {
    const lone = await createTestApp();
    try {
      const only = await createSignedInUser(lone, 'admin');
      const { clinicId: loneClinic } = await createClinic(lone.db, 'Clínica Solitária');
      // Someone who is not the admin acting on them (the guard keeps this from the API; the rule stands anyway).
      const actor = { userId: (await createSignedInUser(lone, null)).userId };
      await expect(updateRole(lone.db, actor, only.userId, { role: 'clinic_admin', clinicId: loneClinic })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: messages.adminUsers.lastAdmin,
      });
      await expect(deactivateUser(lone.db, actor, only.userId)).rejects.toMatchObject({ message: messages.adminUsers.lastAdmin });
      expect(await lone.db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, only.userId))).toEqual([{ role: 'admin' }]);
      // An admin whose role stays admin (a save without changes) is fine.
      await expect(updateRole(lone.db, actor, only.userId, { role: 'admin' })).resolves.toMatchObject({ role: 'admin' });
    } finally {
      await lone.close();
    }
  });
});
