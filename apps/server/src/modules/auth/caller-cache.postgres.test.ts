/**
 * The caller cache without its messages (ADR 035): while the listening connection is down, a process reads every
 * caller from the database, so a change it cannot hear about is still seen at once; once the connection is made
 * again it keeps callers again. PostgreSQL only: PGlite's listening lives in the process and cannot be cut.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, statementsDuring, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let clinicId: string;

beforeAll(async () => {
  t = await createTestApp({ JOBS_ENABLED: 'false', CALLER_CACHE_MS: '60000' });
  clinicId = (await createClinic(t.db, 'Clínica Sem Recado')).clinicId;
});
afterAll(() => t.close());

const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

/** Whether one /api/me read the caller from the database (true) or from the process's copy (false). */
async function readTheDatabase(cookie: string): Promise<boolean> {
  const statements = await statementsDuring(t, async () => expect((await me(cookie)).statusCode).toBe(200));
  return statements.some((statement) => /"sessions"/.test(statement));
}

async function until(check: () => Promise<boolean>): Promise<boolean> {
  for (let attempt = 0; attempt < 80; attempt += 1) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('the caller cache when the listening connection is lost', () => {
  it('reads every caller from the database until it listens again, then keeps them again', async () => {
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    const colleague = await createSignedInUser(t, 'clinic_staff', clinicId);
    expect(await until(async () => !(await readTheDatabase(staff.cookie)))).toBe(true);

    await t.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'carteirinha-listen' and datname = current_database()`);
    // The copy is no longer used: each request reads the database.
    expect(await until(() => readTheDatabase(staff.cookie))).toBe(true);
    expect(await readTheDatabase(staff.cookie)).toBe(true);

    // A change whose message no one hears while the connection is down is still seen on the next request.
    await t.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, staff.userId));
    expect((await me(staff.cookie)).statusCode).toBe(401);

    // The connection is made again within a second or two: callers are kept again.
    expect(await until(async () => !(await readTheDatabase(colleague.cookie)))).toBe(true);
  });
});
