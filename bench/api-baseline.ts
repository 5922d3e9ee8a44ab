/**
 * Load test of the hot, always-there endpoints: the health check and GET /api/me with a real session (the call every
 * page makes). Starts the server in-process on a fresh embedded database, drives it with autocannon over loopback,
 * and appends the figures to bench/results/api-baseline.json.
 *
 *   npm run api-baseline -w bench [-- --postgres postgres://…]
 */
import autocannon from 'autocannon';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { seedDatabase } from '../apps/server/src/db/seed.ts';
import { recordRun, signInCookie, startBenchServer } from './harness.ts';

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
  const server = await startBenchServer();
  await seedDatabase({ db: server.database.db, auth: server.app.auth, cardBox: server.app.cardBox, withDemo: true });
  const cookie = await signInCookie(server, DEMO_ACCOUNTS.patient, DEMO_PASSWORD);

  const health = await run(`${server.address}/api/health`, {});
  const me = await run(`${server.address}/api/me`, { cookie });
  await server.close();
  await recordRun('api-baseline', server, { connections: CONNECTIONS, durationSeconds: DURATION_SECONDS, health, me });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
