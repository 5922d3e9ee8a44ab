/**
 * What every bench script does around its measurement: the real server on a fresh database, listening on loopback;
 * signing in over HTTP as the browser does; and one entry per run appended to results/<name>.json.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite, openPostgres, type DatabaseHandle } from '../apps/server/src/db/client.ts';
import { resolveAuthSecret } from '../apps/server/src/lib/secret.ts';

/** The auth secret of bench servers: a script that seeds sealed secrets (card secrets) derives the same keys. */
export const BENCH_AUTH_SECRET = 'bench-secret-that-is-long-enough-0123456789';

/** The address the server believes it is served from; auth requests come from this origin. */
const PUBLIC_URL = 'http://127.0.0.1';

export type BenchServer = {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** http://127.0.0.1:<port> */
  address: string;
  /** A folder for the run's files, removed by `close`. */
  dataDir: string;
  close: () => Promise<void>;
};

/** `--postgres postgres://…` or DATABASE_URL: a PostgreSQL server; otherwise a fresh embedded PGlite. */
function postgresUrl(): string | undefined {
  const flag = process.argv.indexOf('--postgres');
  return flag === -1 ? process.env.DATABASE_URL : process.argv[flag + 1];
}

/**
 * The application as deployed (production settings, silent logs) on a migrated database, on a free loopback port.
 * `options.postgresUrl` overrides the command line, for a script that runs on both databases in turn; `null` forces
 * the embedded PGlite.
 */
export async function startBenchServer(options: { postgresUrl?: string | null; env?: Record<string, string> } = {}): Promise<BenchServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-bench-'));
  const url = options.postgresUrl === undefined ? postgresUrl() : (options.postgresUrl ?? undefined);
  const database = url ? openPostgres(url) : await openPglite(path.join(dataDir, 'pglite'));
  await database.migrate();
  // `env`: settings a script needs beyond production's defaults (a rate limit the load itself would hit, say).
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PUBLIC_URL, ...options.env });
  const app = await buildApp({ config, database, authSecret: BENCH_AUTH_SECRET });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    database,
    address,
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The application as deployed on data that already exists (the generator's, `npm run seed -w bench`): PGlite in
 * `dataDir`, or the PostgreSQL database `databaseUrl`, with the deployment's auth secret (AUTH_SECRET, else
 * `dataDir`/auth-secret) so that the generated cards validate. Nothing is removed on close.
 */
export async function startServerOnData(options: { dataDir: string; databaseUrl?: string; env?: Record<string, string> }): Promise<BenchServer> {
  const database = options.databaseUrl ? openPostgres(options.databaseUrl) : await openPglite(path.join(options.dataDir, 'pglite'));
  await database.migrate();
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', JOBS_ENABLED: 'false', DATA_DIR: options.dataDir, PUBLIC_URL, ...options.env });
  const authSecret = await resolveAuthSecret({ authSecret: process.env.AUTH_SECRET, dataDir: options.dataDir });
  const app = await buildApp({ config, database, authSecret });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    database,
    address,
    dataDir: options.dataDir,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** A better-auth e-mail call (`sign-up/email`, `sign-in/email`) from the site's own origin; throws unless it succeeds. */
export async function authRequest(server: BenchServer, action: string, body: Record<string, string>): Promise<Response> {
  const response = await fetch(`${server.address}/api/auth/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${action} failed: ${response.status} ${await response.text()}`);
  return response;
}

/**
 * Signs in with e-mail and password at `address`, a server whose PUBLIC_URL is `origin` (the in-process bench server's,
 * or a production start's own address); returns the `cookie` header that carries the session.
 */
export async function signInAt(address: string, origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${address}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Signs in on the in-process bench server; returns the `cookie` header that carries the session. */
export function signInCookie(server: BenchServer, email: string, password: string): Promise<string> {
  return signInAt(server.address, PUBLIC_URL, email, password);
}

/** Prints one run's figures and appends them to results/<name>.json, after the date, database and machine. */
export async function recordRun(name: string, server: BenchServer, figures: Record<string, unknown>): Promise<void> {
  const record = await appendResult(name, { database: server.database.kind, ...figures });
  console.log(JSON.stringify(record, null, 2));
}

/** Appends one run's figures to results/<name>.json, after the date and the machine; answers the entry written. */
export async function appendResult(name: string, figures: Record<string, unknown>): Promise<Record<string, unknown>> {
  const record = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    ...figures,
  };
  const file = path.join(import.meta.dirname, 'results', `${name}.json`);
  const previous: unknown[] = await fs.readFile(file, 'utf8').then((text) => JSON.parse(text) as unknown[], () => []);
  await fs.writeFile(file, `${JSON.stringify([...previous, record], null, 2)}\n`);
  return record;
}

/** A database of its own on the PostgreSQL server, dropped afterwards, so the run starts empty and leaves nothing. */
async function withFreshPostgresDatabase(serverUrl: string, prefix: string, run: (url: string) => Promise<void>): Promise<void> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    await run(url.toString());
  } finally {
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  }
}

/**
 * Runs a bench on the embedded PGlite (skipped with --postgres-only) and, when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names a PostgreSQL server, again on a fresh database created there (`<prefix>_<random>`).
 */
export async function benchOnEachDatabase(prefix: string, benchOn: (postgresUrl: string | null) => Promise<void>): Promise<void> {
  if (!process.argv.includes('--postgres-only')) await benchOn(null);
  const postgresServer = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (postgresServer) await withFreshPostgresDatabase(postgresServer, prefix, (url) => benchOn(url));
}
