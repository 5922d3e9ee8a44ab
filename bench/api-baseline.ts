/**
 * Load test of the hot, always-there endpoints: the health check and GET /api/me with a real session (the call every
 * page makes). Starts the server in-process on a fresh embedded database, drives it with autocannon over loopback,
 * and appends the figures to bench/results/api-baseline.json.
 *
 *   node --import tsx bench/api-baseline.ts [--postgres postgres://…]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite, openPostgres } from '../apps/server/src/db/client.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';

const DURATION_SECONDS = 10;
const CONNECTIONS = 20;

async function run(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main(): Promise<void> {
  const postgresUrl = process.argv.includes('--postgres') ? process.argv[process.argv.indexOf('--postgres') + 1] : undefined;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-bench-'));
  const database = postgresUrl ? openPostgres(postgresUrl) : await openPglite(path.join(dataDir, 'pglite'));
  await database.migrate();
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1' });
  const app = await buildApp({ config, database, authSecret: 'bench-secret-that-is-long-enough-0123456789' });
  await seedDatabase({ db: database.db, auth: app.auth, withDemo: true });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  const signIn = await fetch(`${address}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: config.publicUrl },
    body: JSON.stringify({ email: DEMO_ACCOUNTS.patient, password: DEMO_PASSWORD }),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

  const health = await run(`${address}/api/health`, {});
  const me = await run(`${address}/api/me`, { cookie });
  await app.close();
  await database.close();
  await fs.rm(dataDir, { recursive: true, force: true });

  const record = {
    date: new Date().toISOString(),
    database: database.kind,
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    connections: CONNECTIONS,
    durationSeconds: DURATION_SECONDS,
    health,
    me,
  };
  console.log(JSON.stringify(record, null, 2));
  const file = path.join(import.meta.dirname, 'results', 'api-baseline.json');
  const previous: unknown[] = await fs.readFile(file, 'utf8').then((text) => JSON.parse(text) as unknown[], () => []);
  await fs.writeFile(file, `${JSON.stringify([...previous, record], null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
