import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirLockedError, PRIVATE_UMASK, securePrivateTree } from './db/data-dir.ts';
import { DATABASE_MAINTENANCE_QUEUE, registerDatabaseMaintenanceJob } from './db/maintenance.ts';
import { seedDatabase } from './db/seed.ts';
import { resolveAuthSecret } from './lib/secret.ts';

/** Requests in flight get this long to finish after SIGTERM before the process gives up on them. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Set by main once the server can shut down gracefully; before that a lost data-folder lock just exits. */
let stopServer: (reason: string, exitCode: number) => void = (_reason, exitCode) => process.exit(exitCode);

async function main(): Promise<void> {
  // Before anything is written: the data folder (database, backups, uploads, secret) is the server user's only.
  process.umask(PRIVATE_UMASK);
  const config = loadConfig();
  const fixedModes = await securePrivateTree(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgDumpPath: config.pgDumpPath,
    onLockCompromised: (error) => {
      console.error(`The lock on the embedded database's folder was lost (${error.message}); stopping so that two processes never write it.`);
      stopServer('data folder lock lost', 1);
    },
  });
  await database.migrate();
  const authSecret = await resolveAuthSecret({ authSecret: config.authSecret, dataDir: config.dataDir });
  const app = await buildApp({ config, database, authSecret });

  const seeded = await seedDatabase({ db: database.db, auth: app.auth, cardBox: app.cardBox, withDemo: config.seedDemo });
  for (const line of seeded.report) app.log.info(line);
  if (fixedModes.length > 0) app.log.warn({ dataDir: config.dataDir, count: fixedModes.length }, 'took group and other permissions away from files in the data folder');

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

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Carteirinha em ${config.publicUrl} (banco: ${database.kind})`);
}

main().catch((error: unknown) => {
  // A second server on the same embedded database is an operator's mistake: one clear line, not a stack trace.
  console.error(error instanceof DataDirLockedError ? error.message : error);
  process.exit(1);
});
