import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_CLINIC_SLUG, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { tenantResponseSchema } from '@carteirinha/shared/contracts/tenant';
import { z } from 'zod';
import { APP_DATABASE, APP_ROLE, asSuperuser, createAppDatabase, eventually, startCluster, startPgBouncer, tearDownProcessTest, type Bouncer, type Cluster } from '../test/postgres-cluster.ts';
import { call, cookieOf, freePort, startServer, stopServer, type ServerProcess } from '../test/server-process.ts';

/**
 * Issue 28, "PgBouncer in transaction mode in front": two server processes reach PostgreSQL only through Debian's
 * PgBouncer (1.18: no prepared statement survives a transaction there), with a pool smaller than theirs, and
 * DATABASE_DIRECT_URL for what needs a session of its own (the migrations' advisory lock, LISTEN). The hot path's
 * prepared lookups — the caller's identity, the card by number — must then go unnamed, and a change on one process
 * must still clear the other's cache.
 */

let cluster: Cluster;
let bouncer: Bouncer;
let dataDir: string;
let first: ServerProcess;
let second: ServerProcess;

const clinicHost = (server: ServerProcess) => `${DEMO_CLINIC_SLUG}.localhost:${new URL(server.baseUrl).port}`;
const cardsSchema = z.object({ items: z.array(z.object({ number: z.string() })) });
const validationSchema = z.object({ valid: z.boolean() });

function start(port: number): Promise<ServerProcess> {
  return startServer(dataDir, port, {
    DATABASE_URL: bouncer.appDatabaseUrl,
    DATABASE_DIRECT_URL: cluster.appDatabaseUrl,
    SEED_DEMO: 'true',
    PAYMENT_PROVIDER: 'local',
    LOG_LEVEL: 'warn',
  });
}

async function signIn(server: ServerProcess, email: string): Promise<string> {
  const host = clinicHost(server);
  const answer = await call(server.baseUrl, 'POST', '/api/auth/sign-in/email', { host, headers: { origin: `http://${host}` }, body: { email, password: DEMO_PASSWORD } });
  expect(answer.status, answer.body).toBe(200);
  return cookieOf(answer);
}

const as = (server: ServerProcess, cookie: string) => (method: string, url: string, body?: unknown) =>
  call(server.baseUrl, method, url, { host: clinicHost(server), headers: { cookie, origin: `http://${clinicHost(server)}` }, ...(body === undefined ? {} : { body }) });

/** The database's sessions from PgBouncer: every client backend of the app's database but the direct LISTEN ones. */
async function serverConnectionsFromPooler(): Promise<number> {
  return asSuperuser(cluster, 'postgres', async (client) => {
    const { rows } = await client.query<{ count: number }>(
      `select count(*)::int as count from pg_stat_activity where datname = $1 and backend_type = 'client backend' and application_name <> 'carteirinha-listen' and pid <> pg_backend_pid()`,
      [APP_DATABASE],
    );
    return rows[0]?.count ?? 0;
  });
}

beforeAll(async () => {
  cluster = await startCluster('carteirinha-bouncer-pg-');
  await createAppDatabase(cluster);
  // Behind a pooler the timeouts are the role's, not the connection's (README, "Behind PgBouncer").
  await asSuperuser(cluster, 'postgres', async (client) => {
    await client.query(`ALTER ROLE ${APP_ROLE} SET statement_timeout = '15s'`);
    await client.query(`ALTER ROLE ${APP_ROLE} SET lock_timeout = '5s'`);
  });
  bouncer = await startPgBouncer(cluster, 3);
  dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'carteirinha-bouncer-data-'));
  first = await start(await freePort());
  second = await start(await freePort());
}, 180_000);

afterAll(async () => {
  if (second) await stopServer(second);
  if (first) await stopServer(first);
  await bouncer?.stop();
  await tearDownProcessTest({ cluster, dataDir });
}, 60_000);

describe('two server processes behind PgBouncer in transaction mode', () => {
  it('reads the caller and validates cards with unnamed statements, over three server connections', async () => {
    const patient = await signIn(first, DEMO_ACCOUNTS.patient);
    const cards = cardsSchema.parse(JSON.parse((await as(first, patient)('GET', '/api/patient/cards')).body));
    const number = cards.items[0]?.number;
    expect(number).toBeDefined();
    const staff = await signIn(second, DEMO_ACCOUNTS.clinicStaff);

    // Many requests at once on both processes (pools of 10 each) share PgBouncer's three server connections: a named
    // statement prepared on one would be missing on the next ("prepared statement … does not exist").
    const reads = Array.from({ length: 30 }, (_, index) => as(index % 2 === 0 ? first : second, patient)('GET', '/api/me'));
    const validations = Array.from({ length: 10 }, (_, index) => as(index % 2 === 0 ? second : first, staff)('POST', '/api/clinic/card-validations', { cardToken: number, source: 'manual' }));
    const answers = await Promise.all([...reads, ...validations]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    for (const validation of answers.slice(30)) expect(validationSchema.parse(JSON.parse(validation.body)).valid).toBe(true);
    expect(await serverConnectionsFromPooler()).toBeLessThanOrEqual(bouncer.poolSize);
  }, 60_000);

  it('clears the other process’s cache through LISTEN on the direct connection', async () => {
    const nameOn = async (server: ServerProcess) => {
      const tenant = tenantResponseSchema.parse(JSON.parse((await call(server.baseUrl, 'GET', '/api/tenant', { host: clinicHost(server) })).body));
      return tenant.kind === 'clinic' ? tenant.clinic.name : null;
    };
    expect(await nameOn(second)).not.toBeNull();
    const owner = await signIn(first, DEMO_ACCOUNTS.clinicAdmin);
    const renamed = `Clínica Atrás do Pooler ${Date.now()}`;
    const saved = await as(first, owner)('PATCH', '/api/clinic/branding', { displayName: renamed, primaryColor: '#0F766E' });
    expect(saved.status, saved.body).toBe(200);
    expect(await eventually(async () => (await nameOn(second)) === renamed, 8, 250)).toBe(true);
  }, 60_000);
});
