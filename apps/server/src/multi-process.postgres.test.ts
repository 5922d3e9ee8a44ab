import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_CLINIC_SLUG, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { adminDashboardSchema } from '@carteirinha/shared/contracts/dashboard';
import { meResponseSchema } from '@carteirinha/shared/contracts/me';
import { tenantResponseSchema } from '@carteirinha/shared/contracts/tenant';
import { createAppDatabase, eventually, startCluster, tearDownProcessTest, type Cluster } from '../test/postgres-cluster.ts';
import { call, cookieOf, freePort, startServer, stopServer, type ServerProcess } from '../test/server-process.ts';

/**
 * Issue 28, "past one machine": several server processes on one PostgreSQL. Two independent servers (as on two
 * machines) share one database; what one does — a sign-out, a deactivation, a clinic's new name, the hits of a rate
 * limit, a dashboard's figures — holds on the other at once. Then one start with WEB_CONCURRENCY=2 forks two workers on one port and drains
 * both on SIGTERM. The job queues (webhooks included) are claimed with SKIP LOCKED: jobs.int.test.ts runs two
 * processes' connections on one queue, and validation-limit.postgres.test.ts the card validations' limit.
 */

/** The sign-in limit per address of both servers: small, so that the test reaches it. */
const SIGN_IN_IP_LIMIT = 6;
/** A loopback address no other test signs in from: the limit test counts its hits alone. */
const OTHER_CLIENT = '127.0.0.2';

let cluster: Cluster;
let dataDir: string;
let first: ServerProcess;
let second: ServerProcess;

function start(port: number, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServer(dataDir, port, {
    DATABASE_URL: cluster.appDatabaseUrl,
    SEED_DEMO: 'true',
    PAYMENT_PROVIDER: 'local',
    SIGN_IN_IP_LIMIT: String(SIGN_IN_IP_LIMIT),
    LOG_LEVEL: 'warn',
    ...env,
  });
}

const portOf = (server: ServerProcess) => new URL(server.baseUrl).port;
const clinicHost = (server: ServerProcess) => `${DEMO_CLINIC_SLUG}.localhost:${portOf(server)}`;
const platformHost = (server: ServerProcess) => `localhost:${portOf(server)}`;

/** Signs in through `server` on `host`; the session's Cookie header. */
async function signIn(server: ServerProcess, host: string, email: string, from?: string): Promise<string> {
  const answer = await call(server.baseUrl, 'POST', '/api/auth/sign-in/email', {
    host,
    headers: { origin: `http://${host}` },
    body: { email, password: DEMO_PASSWORD },
    ...(from ? { from } : {}),
  });
  expect(answer.status, answer.body).toBe(200);
  return cookieOf(answer);
}

function me(server: ServerProcess, host: string, cookie: string) {
  return call(server.baseUrl, 'GET', '/api/me', { host, headers: { cookie } });
}

/**
 * The other process refuses the session once the trigger's message reaches it: asked every 10 ms for at most one
 * second, far inside the 5 s its cache would otherwise keep the row (CALLER_CACHE_MS), and refused from then on. The
 * message usually lands before the change's own answer; on a loaded CI machine one request once came first (ADR 035).
 */
async function refusedWithinTheMessage(server: ServerProcess, host: string, cookie: string): Promise<boolean> {
  const refused = await eventually(async () => (await me(server, host, cookie)).status === 401, 100, 10);
  return refused && (await me(server, host, cookie)).status === 401;
}

beforeAll(async () => {
  cluster = await startCluster('carteirinha-multi-pg-');
  await createAppDatabase(cluster);
  dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'carteirinha-multi-data-'));
  // The first migrates and seeds; the second starts on what it made, as a second machine would.
  first = await start(await freePort());
  second = await start(await freePort());
}, 180_000);

afterAll(async () => {
  if (second) await stopServer(second);
  await tearDownProcessTest({ server: first, cluster, dataDir });
}, 60_000);

describe('two server processes on one PostgreSQL', () => {
  it('a sign-out on one process ends the session on the other at once: within the message, not the 5 s cache', async () => {
    const cookie = await signIn(first, clinicHost(first), DEMO_ACCOUNTS.patient);
    expect((await me(second, clinicHost(second), cookie)).status).toBe(200);
    const out = await call(first.baseUrl, 'POST', '/api/auth/sign-out', { host: clinicHost(first), headers: { cookie, origin: `http://${clinicHost(first)}` }, body: {} });
    expect(out.status, out.body).toBe(200);
    expect(await refusedWithinTheMessage(second, clinicHost(second), cookie)).toBe(true);
  }, 60_000);

  it('a clinic’s new name, saved on one process, is the other’s within a moment, not after its 30 s cache', async () => {
    const nameOn = async (server: ServerProcess) => {
      const answer = await call(server.baseUrl, 'GET', '/api/tenant', { host: clinicHost(server) });
      const tenant = tenantResponseSchema.parse(JSON.parse(answer.body));
      return tenant.kind === 'clinic' ? tenant.clinic.name : null;
    };
    const before = await nameOn(second);
    expect(before).not.toBeNull();
    const owner = await signIn(first, clinicHost(first), DEMO_ACCOUNTS.clinicAdmin);
    const renamed = `Clínica Renomeada ${Date.now()}`;
    const saved = await call(first.baseUrl, 'PATCH', '/api/clinic/branding', {
      host: clinicHost(first),
      headers: { cookie: owner, origin: `http://${clinicHost(first)}` },
      body: { displayName: renamed, primaryColor: '#0F766E' },
    });
    expect(saved.status, saved.body).toBe(200);
    // LISTEN/NOTIFY takes milliseconds; up to ten seconds (a loaded CI machine) is still a third of the cache's 30 s, which
    // alone would keep the old name.
    expect(await eventually(async () => (await nameOn(second)) === renamed, 40, 250)).toBe(true);
  }, 60_000);

  it('a clinic created on one process is counted on the other’s admin Dashboard within a moment, not after its 60 s cache', async () => {
    const admin = await signIn(first, platformHost(first), DEMO_ACCOUNTS.admin);
    const activeClinicsOn = async (server: ServerProcess) => {
      const answer = await call(server.baseUrl, 'GET', '/api/admin/dashboard', { host: platformHost(server), headers: { cookie: admin } });
      expect(answer.status, answer.body).toBe(200);
      return adminDashboardSchema.parse(JSON.parse(answer.body)).kpis.activeClinics;
    };
    const before = await activeClinicsOn(second);
    expect(await activeClinicsOn(second)).toBe(before);
    const created = await call(first.baseUrl, 'POST', '/api/admin/clinics', {
      host: platformHost(first),
      headers: { cookie: admin, origin: `http://${platformHost(first)}` },
      body: { name: 'Clínica dos Dois Processos', cnpj: generateCnpj(), slug: `dois-processos-${Date.now()}`, planId: null, status: 'active' },
    });
    expect(created.status, created.body).toBe(201);
    // Up to ten seconds, a sixth of the cache's 60 s: only the message can make it.
    expect(await eventually(async () => (await activeClinicsOn(second)) === before + 1, 40, 250)).toBe(true);
  }, 60_000);

  it('counts one address’s sign-ins across both processes against one limit', async () => {
    const answers = [];
    for (let attempt = 0; attempt < SIGN_IN_IP_LIMIT + 1; attempt += 1) {
      const server = attempt % 2 === 0 ? first : second;
      const host = platformHost(server);
      answers.push(
        await call(server.baseUrl, 'POST', '/api/auth/sign-in/email', {
          host,
          from: OTHER_CLIENT,
          headers: { origin: `http://${host}` },
          body: { email: DEMO_ACCOUNTS.admin, password: DEMO_PASSWORD },
        }),
      );
    }
    // Each process alone saw at most four of the seven: only a shared count refuses the seventh.
    expect(answers.slice(0, SIGN_IN_IP_LIMIT).map((answer) => answer.status)).toEqual(Array(SIGN_IN_IP_LIMIT).fill(200));
    expect(answers[SIGN_IN_IP_LIMIT]?.status).toBe(429);
  }, 60_000);

  it('a deactivation on one process refuses the account’s session on the other at once: within the message, not the 5 s cache', async () => {
    const staff = await signIn(second, clinicHost(second), DEMO_ACCOUNTS.clinicStaff);
    const seen = await me(second, clinicHost(second), staff);
    expect(seen.status).toBe(200);
    const staffId = meResponseSchema.parse(JSON.parse(seen.body)).user.id;
    const admin = await signIn(first, platformHost(first), DEMO_ACCOUNTS.admin);
    const removed = await call(first.baseUrl, 'DELETE', `/api/admin/user-roles/${staffId}`, {
      host: platformHost(first),
      headers: { cookie: admin, origin: `http://${platformHost(first)}` },
    });
    expect(removed.status, removed.body).toBe(204);
    expect(await refusedWithinTheMessage(second, clinicHost(second), staff)).toBe(true);
  }, 60_000);
});

describe('WEB_CONCURRENCY=2', () => {
  it('forks two workers on one port, answers through both, and drains them on SIGTERM', async () => {
    const server = await start(await freePort(), { WEB_CONCURRENCY: '2', LOG_LEVEL: 'info' });
    try {
      expect(await eventually(async () => (server.output().match(/Carteirinha em .*processo \d/g) ?? []).length === 2, 120, 250)).toBe(true);
      const answers = await Promise.all(Array.from({ length: 20 }, () => call(server.baseUrl, 'GET', '/api/health')));
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    } finally {
      expect(await stopServer(server)).toBe(0);
    }
    expect(server.output()).toContain('SIGTERM: draining 2 server processes');
    expect(server.output().match(/shutting down: finishing requests in flight/g)).toHaveLength(2);
  }, 120_000);
});
