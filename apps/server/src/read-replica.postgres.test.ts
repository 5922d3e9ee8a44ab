import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { adminDashboardSchema } from '@carteirinha/shared/contracts/dashboard';
import { adminClinicSchema } from '@carteirinha/shared/contracts/clinics';
import { asSuperuser, createAppDatabase, eventually, startCluster, startReplica, tearDownProcessTest, type Cluster } from '../test/postgres-cluster.ts';
import { call, cookieOf, freePort, startServer, type ServerProcess } from '../test/server-process.ts';

/**
 * Issue 28, "a streaming read replica" (ADR 033): a primary, a hot standby made from it with pg_basebackup, and the
 * real server with DATABASE_REPLICA_URL. The standby's replay is paused while a clinic is created: the admin's
 * dashboard (the replica) does not have it yet, its page after the save (the primary) does; resumed, the dashboard
 * has it too.
 */

let primary: Cluster;
let replica: Cluster;
let dataDir: string;
let server: ServerProcess;
let admin: string;

const host = () => `localhost:${new URL(server.baseUrl).port}`;
const asAdmin = (method: string, url: string, body?: unknown) =>
  call(server.baseUrl, method, url, { host: host(), headers: { cookie: admin, origin: `http://${host()}` }, ...(body === undefined ? {} : { body }) });
const onReplica = <T,>(sql: string) => asSuperuser(replica, 'postgres', async (client) => (await client.query<T & object>(sql)).rows);

async function dashboard() {
  const answer = await asAdmin('GET', '/api/admin/dashboard');
  expect(answer.status, answer.body).toBe(200);
  return adminDashboardSchema.parse(JSON.parse(answer.body));
}

/** Whether the standby has replayed everything the primary has written so far. */
async function replicaCaughtUp(): Promise<boolean> {
  const [written] = await asSuperuser(primary, 'postgres', async (client) => (await client.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows);
  const [replayed] = await onReplica<{ behind: boolean }>(`select pg_last_wal_replay_lsn() < '${written?.lsn ?? '0/0'}'::pg_lsn as behind`);
  return replayed?.behind === false;
}

beforeAll(async () => {
  primary = await startCluster('carteirinha-primary-');
  await createAppDatabase(primary);
  replica = await startReplica(primary);
  dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'carteirinha-replica-data-'));
  server = await startServer(dataDir, await freePort(), {
    DATABASE_URL: primary.appDatabaseUrl,
    DATABASE_REPLICA_URL: replica.appDatabaseUrl,
    SEED_DEMO: 'true',
    PAYMENT_PROVIDER: 'local',
    LOG_LEVEL: 'warn',
  });
  const signedIn = await call(server.baseUrl, 'POST', '/api/auth/sign-in/email', {
    host: host(),
    headers: { origin: `http://${host()}` },
    body: { email: DEMO_ACCOUNTS.admin, password: DEMO_PASSWORD },
  });
  expect(signedIn.status, signedIn.body).toBe(200);
  admin = cookieOf(signedIn);
}, 180_000);

afterAll(async () => {
  await replica?.destroy();
  await tearDownProcessTest({ server, cluster: primary, dataDir });
}, 60_000);

describe('a streaming read replica', () => {
  it('serves the dashboard from the replica, a moment behind, while the page after a save reads the primary', async () => {
    expect(await eventually(replicaCaughtUp)).toBe(true);
    const before = await dashboard();
    await onReplica('select pg_wal_replay_pause()');
    try {
      const created = await asAdmin('POST', '/api/admin/clinics', { name: 'Clínica da Réplica', cnpj: generateCnpj(), slug: `replica-${Date.now()}`, planId: null, status: 'active' });
      expect(created.status, created.body).toBe(201);
      const clinic = adminClinicSchema.parse(JSON.parse(created.body));
      // Read your writes: the clinic's own page, right after the save, is read from the primary.
      expect((await asAdmin('GET', `/api/admin/clinics/${clinic.id}`)).status).toBe(200);
      // The dashboard is the replica's, which has not replayed the clinic yet.
      const paused = await dashboard();
      expect(paused.kpis.activeClinics).toBe(before.kpis.activeClinics);
      expect(paused.recentClinics.map((recent) => recent.id)).not.toContain(clinic.id);

      await onReplica('select pg_wal_replay_resume()');
      expect(
        await eventually(async () => {
          const resumed = await dashboard();
          return resumed.kpis.activeClinics === before.kpis.activeClinics + 1 && resumed.recentClinics.some((recent) => recent.id === clinic.id);
        }),
      ).toBe(true);
    } finally {
      await onReplica('select pg_wal_replay_resume()');
    }
  }, 120_000);
});
