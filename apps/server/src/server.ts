import cluster, { type Worker } from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import { DataDirLockedError, PRIVATE_UMASK, securePrivateTree } from './db/data-dir.ts';
import { DATABASE_MAINTENANCE_QUEUE, registerDatabaseMaintenanceJob } from './db/maintenance.ts';
import { seedDatabase } from './db/seed.ts';
import { resolveAuthSecret } from './lib/secret.ts';

/** Requests in flight get this long to finish after SIGTERM before the process gives up on them. */
const SHUTDOWN_GRACE_MS = 10_000;
/** A worker that died unasked is forked again after this long (not at once: a crash at start would spin). */
const WORKER_RESTART_MS = 1_000;
/** Set in the workers of WEB_CONCURRENCY > 1: their primary migrated and seeded the database before forking them. */
const PREPARED_BY_PRIMARY = 'CARTEIRINHA_PREPARED_BY_PRIMARY';

/** Set once the server can shut down gracefully; before that a lost data-folder lock just exits. */
let stopServer: (reason: string, exitCode: number) => void = (_reason, exitCode) => process.exit(exitCode);

/**
 * Opens the database and builds the app. `prepare`: apply the migrations and the seed first — the one process of a
 * single-process start, or the primary of several, which does it once before any worker answers.
 */
async function openApp(config: Config, prepare: boolean): Promise<{ app: FastifyInstance; database: DatabaseHandle }> {
  // Before anything is written: the data folder (database, backups, uploads, secret) is the server user's only.
  const fixedModes = await securePrivateTree(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    replicaUrl: config.databaseReplicaUrl,
    directUrl: config.databaseDirectUrl,
    poolSize: config.databasePoolSize,
    dataDir: config.dataDir,
    pgDumpPath: config.pgDumpPath,
    onLockCompromised: (error) => {
      console.error(`The lock on the embedded database's folder was lost (${error.message}); stopping so that two processes never write it.`);
      stopServer('data folder lock lost', 1);
    },
  });
  if (prepare) await database.migrate();
  const authSecret = await resolveAuthSecret({ authSecret: config.authSecret, dataDir: config.dataDir });
  const app = await buildApp({ config, database, authSecret });
  if (prepare) {
    const seeded = await seedDatabase({ db: database.db, auth: app.auth, cardBox: app.cardBox, withDemo: config.seedDemo });
    for (const line of seeded.report) app.log.info(line);
  }
  if (fixedModes.length > 0) app.log.warn({ dataDir: config.dataDir, count: fixedModes.length }, 'took group and other permissions away from files in the data folder');
  return { app, database };
}

/** One server process: answers requests, runs the jobs, drains on SIGTERM (and when its cluster's primary is gone). */
async function runServer(config: Config, prepare: boolean): Promise<void> {
  const { app, database } = await openApp(config, prepare);

  // Backups, reports, trial expiry, payments' work, PGlite's upkeep: queues on the job runner (ADR 012);
  // app.close() stops it. The upkeep runs once now too: the seed (or a restore) may just have written many rows.
  if (registerDatabaseMaintenanceJob(app.jobs, database, app.log)) await app.jobs.enqueue(DATABASE_MAINTENANCE_QUEUE);
  if (config.jobsEnabled) app.jobs.start();
  else app.log.warn('JOBS_ENABLED=false: this process runs no background jobs');

  let closing = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const forceExit = setTimeout(() => {
      app.log.error('requests did not finish in time; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    forceExit.unref();
    try {
      await app.close();
      await database.close();
      process.exit(exitCode);
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  stopServer = (reason, exitCode) => void shutdown(reason, exitCode);
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  // A worker whose primary died (kill -9) would otherwise answer on alone, with nobody to stop it.
  if (cluster.isWorker) process.once('disconnect', () => void shutdown('primary gone'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Carteirinha em ${config.publicUrl} (banco: ${database.kind}${cluster.isWorker ? `, processo ${cluster.worker?.id ?? ''}` : ''})`);
}

/** The primary's own lines (it has no app, hence no logger): the workers log as one process does. */
function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * WEB_CONCURRENCY > 1 (PostgreSQL only): this process migrates and seeds, then forks the workers, which share the port
 * (node:cluster hands each connection to one of them), answer requests and run the jobs (claimed with SKIP LOCKED, so
 * each once). Every counter that matters is in the database, and the per-process caches are cleared on every process
 * through LISTEN/NOTIFY (ADR 030). SIGTERM drains every worker, then exits 0 if they all did.
 */
async function runPrimary(config: Config): Promise<void> {
  const { app, database } = await openApp(config, true);
  await app.close();
  await database.close();

  let stopping = false;
  let failed = false;
  const live = new Set<Worker>();
  const fork = () => live.add(cluster.fork({ [PREPARED_BY_PRIMARY]: '1' }));
  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker);
    if (stopping) {
      failed ||= code !== 0;
      if (live.size === 0) process.exit(failed ? 1 : 0);
      return;
    }
    console.error(`server process ${worker.id} ended (${signal ?? `code ${code}`}); starting another`);
    setTimeout(fork, WORKER_RESTART_MS).unref();
  });
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: draining ${live.size} server processes`);
    if (live.size === 0) process.exit(0);
    for (const worker of live) worker.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 2_000).unref();
  };
  stopServer = (reason) => stop(reason);
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  for (let started = 0; started < config.webConcurrency; started += 1) fork();
  say(`Carteirinha em ${config.publicUrl}: ${config.webConcurrency} processos (banco: ${database.kind})`);
}

async function main(): Promise<void> {
  process.umask(PRIVATE_UMASK);
  const config = loadConfig();
  if (cluster.isPrimary && config.webConcurrency > 1) return runPrimary(config);
  return runServer(config, process.env[PREPARED_BY_PRIMARY] !== '1');
}

main().catch((error: unknown) => {
  // A second server on the same embedded database is an operator's mistake: one clear line, not a stack trace.
  console.error(error instanceof DataDirLockedError ? error.message : error);
  process.exit(1);
});
