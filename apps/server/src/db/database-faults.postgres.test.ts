import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { APP_DATABASE, APP_ROLE, asSuperuser, createAppDatabase, eventually, startCluster, tearDownProcessTest, type Cluster } from '../../test/postgres-cluster.ts';
import { freePort, startServer, type ServerProcess } from '../../test/server-process.ts';

/**
 * Issue 12 item 3: PostgreSQL faults under load must not kill the server, hang its requests or keep it down after the
 * database is back. The test runs its own throw-away cluster — it stops and restarts it — so the shared test server is
 * never disturbed. The server logs in as a role that owns the tables but is not a superuser, as a deployment does:
 * row-level security (FORCEd by migration 0012) binds it, and migrating, seeding and serving must all still work.
 */

/** A request that has not answered after this long is a hang (the server's own limits are shorter). */
const REQUEST_BOUND_MS = 15_000;

type Outcome = { url: string; status: number | 'no answer'; retryAfter: string | null; detail?: string };

async function request(baseUrl: string, url: string, cookie = ''): Promise<Outcome> {
  try {
    const response = await fetch(`${baseUrl}${url}`, { headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(REQUEST_BOUND_MS) });
    const body = await response.text();
    return { url, status: response.status, retryAfter: response.headers.get('retry-after'), ...(response.status >= 500 ? { detail: body } : {}) };
  } catch (error) {
    return { url, status: 'no answer', retryAfter: null, detail: String(error) };
  }
}

/** Concurrent workers calling `urls` in turn until stopped (and at most `maxPerWorker` times each). */
function startLoad(baseUrl: string, urls: string[], cookie: string, workers: number, maxPerWorker = 5_000) {
  let running = true;
  const outcomes: Outcome[] = [];
  const work = async (worker: number) => {
    for (let i = 0; running && i < maxPerWorker; i += 1) outcomes.push(await request(baseUrl, urls[(worker + i) % urls.length] ?? '/api/health', cookie));
  };
  const done = Promise.all(Array.from({ length: workers }, (_, worker) => work(worker)));
  return {
    outcomes,
    stop: async () => {
      running = false;
      await done;
      return outcomes;
    },
  };
}

/** What must hold of every answer given while the database failed: an answer, 200 or a 503 that says when to retry. */
function expectFastAnswers(outcomes: Outcome[]): void {
  const wrong = outcomes.filter((outcome) => !(outcome.status === 200 || (outcome.status === 503 && outcome.retryAfter !== null)));
  expect(wrong.slice(0, 5)).toEqual([]);
}

describe('the server process when PostgreSQL fails under load', () => {
  let cluster: Cluster;
  let dataDir: string;
  let server: ServerProcess;
  let cookie = '';
  // Public reads, a signed-in read, and a tenant-scoped read: one transaction of several statements
  // (withTenantScope), during which the connection is checked out of the pool between statements.
  const urls = ['/api/public/plans', '/api/me', '/api/public/clinics?q=Demo', '/api/clinic/subscription-plans', '/api/clinic/subscription-plans'];

  beforeAll(async () => {
    cluster = await startCluster('carteirinha-faults-pg-');
    await createAppDatabase(cluster);
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'carteirinha-faults-data-'));
    server = await startServer(dataDir, await freePort(), {
      DATABASE_URL: cluster.appDatabaseUrl,
      SEED_DEMO: 'true',
    });
    const signIn = await fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ email: DEMO_ACCOUNTS.clinicAdmin, password: DEMO_PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    cookie = signIn.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
  }, 240_000);

  afterAll(async () => {
    await tearDownProcessTest({ server, cluster, dataDir });
  }, 60_000);

  async function allAnswer200(): Promise<boolean> {
    const answers = await Promise.all(['/api/ready', ...urls].map((url) => request(server.baseUrl, url, cookie)));
    return answers.every((answer) => answer.status === 200);
  }

  it('migrated and serves as a table owner that row-level security binds', async () => {
    const owner = await asSuperuser(cluster, APP_DATABASE, async (client) =>
      (await client.query<{ owner: string; super: boolean }>(`select tableowner as owner, (select rolsuper from pg_roles where rolname = tableowner) as super from pg_tables where tablename = 'user_roles'`)).rows[0],
    );
    expect(owner).toEqual({ owner: APP_ROLE, super: false });
    for (const url of urls) expect((await request(server.baseUrl, url, cookie)).status, url).toBe(200);
    // The clinics table FORCEs row-level security: its owner sees the clinics through the platform policy.
    const clinics = await (await fetch(`${server.baseUrl}/api/public/clinics?q=Demo`)).json();
    expect(JSON.stringify(clinics)).toContain('Clínica Demo');
  });

  it('lives through terminated backends and a fast restart under load, and recovers by itself', async () => {
    const load = startLoad(server.baseUrl, urls, cookie, 6);
    expect(await eventually(async () => load.outcomes.filter((o) => o.status === 200).length >= 30)).toBe(true);
    for (let round = 0; round < 10; round += 1) {
      await asSuperuser(cluster, 'postgres', (client) =>
        client.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [APP_DATABASE]),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await cluster.pgCtl('-m', 'fast', 'restart');
    expect(await eventually(allAnswer200)).toBe(true);
    const before = load.outcomes.length;
    expect(await eventually(async () => load.outcomes.slice(before).filter((o) => o.status === 200).length >= 30)).toBe(true);
    const outcomes = await load.stop();

    expect(server.child.exitCode).toBeNull();
    expectFastAnswers(outcomes);
    expect(server.output()).not.toMatch(/uncaught|unhandled/i);
  }, 180_000);

  it('answers 503 while the database is down, stays alive (health 200), and is ready again once it is back', async () => {
    await cluster.pgCtl('-m', 'fast', 'stop');
    try {
      const ready = await request(server.baseUrl, '/api/ready');
      expect(ready).toMatchObject({ status: 503, retryAfter: expect.any(String) });
      for (const url of urls) expect(await request(server.baseUrl, url, cookie), url).toMatchObject({ status: 503, retryAfter: expect.any(String) });
      expect((await request(server.baseUrl, '/api/health')).status).toBe(200);
      const body = await (await fetch(`${server.baseUrl}/api/public/plans`)).json();
      expect(body).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: 'Serviço temporariamente indisponível. Tente novamente em instantes.' } });
    } finally {
      await cluster.pgCtl('start');
    }
    expect(await eventually(allAnswer200)).toBe(true);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);

  it('does not let a held table lock stall requests or the probes: 503 after the lock timeout, health 200', async () => {
    const locker = new pg.Client({ connectionString: cluster.superuserUrl(APP_DATABASE) });
    locker.on('error', () => undefined);
    await locker.connect();
    let load: ReturnType<typeof startLoad> | null = null;
    try {
      await locker.query('begin');
      await locker.query('lock table plans, sessions, users, user_roles, clinics in access exclusive mode');
      // More requests than the pool has connections: every connection waits on the lock, and so would the probe.
      load = startLoad(server.baseUrl, urls, cookie, 20);
      expect(await eventually(async () => load?.outcomes.some((o) => o.status === 503) ?? false)).toBe(true);
      expect((await request(server.baseUrl, '/api/health')).status).toBe(200);
      // The probe waits for a pooled connection like any request: it says 503 once the pool is held by the lock's
      // waiters, which under a loaded machine may take a moment after the first 503 of the load.
      expect(
        await eventually(async () => {
          const ready = await request(server.baseUrl, '/api/ready');
          return ready.status === 503 && typeof ready.retryAfter === 'string';
        }),
      ).toBe(true);
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end().catch(() => undefined);
    }
    const outcomes = load ? await load.stop() : [];
    expectFastAnswers(outcomes);
    expect(await eventually(allAnswer200)).toBe(true);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});
