import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type Logger } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir, securePrivateTree } from './data-dir.ts';
import { privateRelativeArchive } from './pglite-archive.ts';
import * as schema from './schema.ts';

const execFileAsync = promisify(execFile);

export type Schema = typeof schema;
/** The one database type the code sees, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export type DatabaseHandle = {
  db: Database;
  /**
   * Where reads that may be a moment behind go: the streaming replica of DATABASE_REPLICA_URL (reports, dashboards,
   * exports: the heavy reads), else `db` itself. A read that must see a write just made — a list after a save, the
   * card, a visit's history — reads `db` (ADR 033).
   */
  reader: Database;
  kind: DatabaseKind;
  /** Applies the committed SQL migrations; safe to call from several processes at once. */
  migrate: () => Promise<void>;
  close: () => Promise<void>;
  /** Writes a full copy of the database to `file` (PGlite: its data folder as .tar.gz; PostgreSQL: pg_dump -Fc). */
  backup: (file: string) => Promise<void>;
  /** The file name ending of a backup of this kind. */
  backupExtension: string;
  /**
   * Routine upkeep that the database does not do by itself. PGlite has no autovacuum: without VACUUM (ANALYZE) the
   * planner keeps stale statistics after bulk inserts and scans 50 000 accounts instead of using the trigram search
   * indexes (bench/users-search.ts: 1.1 s against 6–96 ms). null on PostgreSQL, whose autovacuum already does it.
   */
  maintain: (() => Promise<void>) | null;
  /** Answers whether the database takes a query within `timeoutMs` (readiness): never waits longer, never throws. */
  ping: (timeoutMs: number) => Promise<boolean>;
  /**
   * Calls `listener` with the text and parameters of every statement the application sends through Drizzle from now on (better-auth's
   * included, as its adapter is Drizzle), until the returned function is called. For tests that count what a request
   * costs (no N+1); with no listener it costs one check of an empty set per statement.
   */
  onStatement: (listener: StatementListener) => () => void;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel`, from any process on this database, until the
   * returned function is called. PostgreSQL listens on a connection of its own, outside the pool (a pooler in
   * transaction mode would lose it); when that connection is lost it calls `onLost` at once, and once it is made again
   * `onMessage(null)`: messages may have been missed meanwhile. PGlite, in this process, never loses it.
   */
  listen: (channel: string, onMessage: (payload: string | null) => void, onLost?: () => void) => Promise<() => Promise<void>>;
};

export type StatementListener = (statement: string, params: unknown[]) => void;

/** Drizzle's logger, turned into a list of listeners: the one hook both drivers share. */
function statementObserver(): { logger: Logger; onStatement: DatabaseHandle['onStatement'] } {
  const listeners = new Set<StatementListener>();
  return {
    logger: {
      logQuery(query, params) {
        for (const listener of listeners) listener(query, params);
      },
    },
    onStatement(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');
/** Any constant shared by every process: serialises migrations on a PostgreSQL server. */
const MIGRATION_LOCK_KEY = 727_274_001;

/** The PostgreSQL extensions the migrations create, which PGlite must load (trigram search indexes). */
export const PGLITE_EXTENSIONS = { pg_trgm };

export type PgliteOptions = {
  /**
   * Starts from a copy of another PGlite's data folder (`dumpDataDir`) instead of an empty cluster: the tests open
   * each database from one migrated at the start of the run (0.5 s, against 2–4 s of initdb and migrations). Only in
   * memory.
   */
  loadDataDir?: Blob;
  /**
   * Called when the data folder's lock was lost while open (see lockDataDir): another process may be writing, so
   * the server must stop. Only for a folder on disk.
   */
  onLockCompromised?: (error: Error) => void;
};

/**
 * Opens the embedded PGlite database. `dataDir` undefined keeps it in memory (tests); otherwise it persists there,
 * under an exclusive lock: a second process on the same folder is refused (DataDirLockedError) before it opens it.
 */
export type PgliteHandle = DatabaseHandle & {
  /** The whole data folder as an uncompressed tarball, which `loadDataDir` opens again. */
  dumpDataDir: () => Promise<Blob>;
};

/**
 * PGlite's own start, with shared buffers at 64 MB instead of 128: the WebAssembly memory they take is never given
 * back, and opening the generated data (1.9 GB) touched most of it — 302 MB resident after the open, 205 with 64 MB,
 * which kept the embedded start over issue 28's 400 MB (bench/RESULTS.md). The pages the hot path reads stay cached
 * far below that, and the rest is read through the operating system's file cache.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=64MB'];

export async function openPglite(dataDir: string | undefined, options: PgliteOptions = {}): Promise<PgliteHandle> {
  let unlock: (() => Promise<void>) | null = null;
  if (dataDir) {
    await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
    unlock = await lockDataDir(dataDir, options.onLockCompromised ?? ((error) => { throw error; }));
  }
  let client: PGlite;
  try {
    if (options.loadDataDir && dataDir) throw new Error('loadDataDir opens an in-memory database only');
    client = await PGlite.create(dataDir, {
      extensions: PGLITE_EXTENSIONS,
      startParams: PGLITE_START_PARAMS,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  } catch (error) {
    await unlock?.();
    throw error;
  }
  // PGlite copies a new cluster into the folder with mode 0666 whatever the umask (the files PostgreSQL makes later
  // are its own 0600): take the group's and others' bits away once it is there.
  if (dataDir) {
    await securePrivateTree(dataDir).catch(async (error: unknown) => {
      await client.close();
      await unlock?.();
      throw error;
    });
  }
  const observer = statementObserver();
  const db = drizzlePglite({ client, schema, casing: 'snake_case', logger: observer.logger });
  return {
    db,
    reader: db,
    kind: 'pglite',
    onStatement: observer.onStatement,
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: async () => {
      try {
        await client.close();
      } finally {
        await unlock?.();
      }
    },
    backup: async (file) => {
      const dump = await client.dumpDataDir('gzip');
      await fs.writeFile(file, await privateRelativeArchive(new Uint8Array(await dump.arrayBuffer())), { mode: 0o600 });
    },
    backupExtension: '.tar.gz',
    maintain: async () => {
      await client.exec('VACUUM (ANALYZE)');
    },
    ping: (timeoutMs) => pingWithin(db, timeoutMs),
    listen: (channel, onMessage) => client.listen(checkedChannel(channel), onMessage),
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}

/**
 * pg_dump refuses a server of a newer major version than its own ("aborting because of server version mismatch"):
 * the backup then needs a newer pg_dump, named by PG_DUMP_PATH. Thrown before pg_dump runs, with both versions.
 */
export class PgDumpVersionMismatchError extends Error {
  constructor(
    readonly pgDumpMajor: number,
    readonly serverMajor: number,
    readonly pgDumpPath: string,
  ) {
    super(`${pgDumpPath} is PostgreSQL ${pgDumpMajor} and cannot dump a PostgreSQL ${serverMajor} server; set PG_DUMP_PATH to pg_dump ${serverMajor} or newer`);
    this.name = 'PgDumpVersionMismatchError';
  }
}

/** The major version in `pg_dump --version` ("pg_dump (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)" → 15). */
export function pgDumpMajorVersion(versionLine: string): number | null {
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(versionLine);
  return match?.[1] ? Number(match[1]) : null;
}

/** The major version in `server_version_num` (150018 → 15; from PostgreSQL 10 on it is the number ÷ 10 000). */
export function serverMajorVersion(serverVersionNum: number): number {
  return Math.floor(serverVersionNum / 10_000);
}

/** The libpq environment for a connection string: the password travels neither on the command line nor in `ps`. */
function libpqEnvironment(connectionString: string): NodeJS.ProcessEnv {
  const url = new URL(connectionString);
  const sslmode = url.searchParams.get('sslmode');
  return {
    ...process.env,
    PGHOST: decodeURIComponent(url.hostname) || 'localhost',
    PGPORT: url.port || '5432',
    PGUSER: decodeURIComponent(url.username),
    PGPASSWORD: decodeURIComponent(url.password),
    PGDATABASE: decodeURIComponent(url.pathname.slice(1)),
    ...(sslmode ? { PGSSLMODE: sslmode } : {}),
  };
}

/** A failed child process as one line: its stderr when it wrote one, else the first line of the error. */
function childFailure(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const stderr = 'stderr' in error ? error.stderr : undefined;
  if (typeof stderr === 'string' && stderr.trim()) return stderr.trim();
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** Refuses early, with both versions said, when pg_dump is older than the server it would dump. */
async function assertPgDumpCanDump(pool: pg.Pool, pgDumpPath: string): Promise<void> {
  let versionLine: string;
  try {
    versionLine = (await execFileAsync(pgDumpPath, ['--version'], { timeout: 30_000 })).stdout;
  } catch (error) {
    throw new Error(`pg_dump not found or not runnable (${pgDumpPath}): ${childFailure(error)}`, { cause: error });
  }
  const pgDumpMajor = pgDumpMajorVersion(versionLine);
  const result = await pool.query<{ server_version_num: string }>('SHOW server_version_num');
  const serverMajor = serverMajorVersion(Number(result.rows[0]?.server_version_num));
  if (pgDumpMajor !== null && pgDumpMajor < serverMajor) throw new PgDumpVersionMismatchError(pgDumpMajor, serverMajor, pgDumpPath);
}

/**
 * pg_dump in the custom format (restorable with pg_restore); the client tools come with Debian's postgresql, or
 * PG_DUMP_PATH names another. The connection goes through libpq's environment, not the command line, so the password
 * shows neither in `ps` nor in an error message (which quotes the command line).
 */
async function runPgDump(pool: pg.Pool, connectionString: string, pgDumpPath: string, file: string): Promise<void> {
  await assertPgDumpCanDump(pool, pgDumpPath);
  try {
    await execFileAsync(pgDumpPath, ['--format=custom', '--no-owner', `--file=${file}`], { env: libpqEnvironment(connectionString), timeout: 10 * 60_000 });
  } catch (error) {
    throw new Error(`pg_dump failed: ${childFailure(error)}`, { cause: error });
  }
}

/**
 * The limits every connection to a PostgreSQL server carries (issue 12 item 3): a fault of the database — a restart,
 * a lost network, a table lock held by someone else — makes requests fail fast with 503 instead of hanging.
 */
export const POSTGRES_TIMEOUTS = {
  /** Waiting for a connection: a free one from the pool, or a new one from the server. */
  connectionMs: 5_000,
  /**
   * The longest statement. Requests run short statements; the CSV export reads in batches of 1 000 rows, one
   * statement each (modules/reports/definitions.ts), so no single statement grows with the size of the report.
   */
  statementMs: 15_000,
  /** Waiting for a lock: a statement behind a long transaction fails instead of queueing traffic (checklist 37). */
  lockMs: 5_000,
  /** A transaction left open between statements holds its locks: the server ends it (and its connection). */
  idleInTransactionMs: 15_000,
  /** Client side: an answer that never comes (a lost network, a frozen server) fails a little after the server's own limit. */
  queryMs: 20_000,
} as const;

/**
 * Connection settings of every pooled connection. Through a pooler in transaction mode (`pooled`) the server-side
 * timeouts cannot be startup parameters (PgBouncer refuses them, and would hand the connection to another client
 * anyway): they are the login role's then (`ALTER ROLE … SET`, README "Behind PgBouncer").
 */
function poolOptions(connectionString: string, max: number, pooled = false): pg.PoolConfig {
  const serverTimeouts = {
    statement_timeout: POSTGRES_TIMEOUTS.statementMs,
    lock_timeout: POSTGRES_TIMEOUTS.lockMs,
    idle_in_transaction_session_timeout: POSTGRES_TIMEOUTS.idleInTransactionMs,
  };
  return {
    connectionString,
    max,
    connectionTimeoutMillis: POSTGRES_TIMEOUTS.connectionMs,
    ...(pooled ? {} : serverTimeouts),
    query_timeout: POSTGRES_TIMEOUTS.queryMs,
    keepAlive: true,
    application_name: 'carteirinha',
  };
}

/** The databases reached through a pooler in transaction mode: their statements must be sent unnamed. */
const behindPooler = new WeakSet<Database>();

/**
 * The name of a prepared statement (the hot path's lookups), or '' — node-postgres then sends it unnamed — on a
 * database reached through PgBouncer in transaction mode, which (1.18) keeps no named statement between
 * transactions: the next one may run on another server connection that never saw it.
 */
export function statementName(db: Database, name: string): string {
  return behindPooler.has(db) ? '' : name;
}

/** Swallows a connection's 'error' event: the query in flight already failed with it, and the pool drops the client. */
function ignoreConnectionError(): void {}

/**
 * Applies the migrations on a connection of their own, which holds the advisory lock that serialises them across
 * processes. Waiting for that lock has no time limit (another process is migrating); the migrations themselves have
 * no statement limit (an index on a big table takes what it takes) but give up on a table lock after
 * `POSTGRES_TIMEOUTS.lockMs`, so a migration never queues the live traffic behind it (checklist case 37).
 */
async function migrateOnOwnConnection(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: POSTGRES_TIMEOUTS.connectionMs, application_name: 'carteirinha-migrate' });
  client.on('error', ignoreConnectionError);
  await client.connect();
  try {
    await client.query('SET statement_timeout = 0');
    await client.query('SET lock_timeout = 0');
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`SET lock_timeout = ${POSTGRES_TIMEOUTS.lockMs}`);
    try {
      await migratePg(drizzlePg({ client, schema, casing: 'snake_case' }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A pool whose dropped connections never crash the process. A connection the server drops (restart,
 * pg_terminate_backend, failover) emits 'error'. The pool listens on idle connections only; a checked-out one — in
 * the middle of a transaction — would crash the process without a listener of its own. The query in flight fails (and
 * answers 503), the pool discards the connection, and the next query opens a new one: the server recovers by itself
 * when the database is back.
 */
function resilientPool(options: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(options);
  pool.on('error', ignoreConnectionError);
  pool.on('connect', (client) => client.on('error', ignoreConnectionError));
  return pool;
}

/**
 * Opens a node-postgres pool on a PostgreSQL server, and one on its read replica when `replicaUrl` is given; backups
 * run `pgDumpPath` (PG_DUMP_PATH, default `pg_dump`).
 */
export function openPostgres(
  connectionString: string,
  poolSize = 10,
  options: { pgDumpPath?: string; replicaUrl?: string; directUrl?: string } = {},
): DatabaseHandle {
  const pgDumpPath = options.pgDumpPath ?? 'pg_dump';
  // Through a pooler, what needs a session of its own — the migrations' advisory lock, LISTEN, pg_dump — goes direct.
  const pooled = options.directUrl !== undefined;
  const directUrl = options.directUrl ?? connectionString;
  const pool = resilientPool(poolOptions(connectionString, poolSize, pooled));
  const replicaPool = options.replicaUrl ? resilientPool({ ...poolOptions(options.replicaUrl, poolSize), application_name: 'carteirinha-replica' }) : null;
  const observer = statementObserver();
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case', logger: observer.logger });
  if (pooled) behindPooler.add(db);
  const reader = replicaPool ? drizzlePg({ client: replicaPool, schema, casing: 'snake_case', logger: observer.logger }) : db;
  return {
    db,
    reader,
    kind: 'postgres',
    onStatement: observer.onStatement,
    migrate: () => migrateOnOwnConnection(directUrl),
    close: async () => {
      await Promise.all([pool.end(), replicaPool?.end()]);
    },
    backup: (file) => runPgDump(pool, directUrl, pgDumpPath, file),
    backupExtension: '.dump',
    maintain: null,
    ping: (timeoutMs) => pingWithin(db, timeoutMs),
    listen: (channel, onMessage, onLost) => listenOnOwnConnection(directUrl, checkedChannel(channel), onMessage, onLost),
  };
}

/** LISTEN takes an identifier, not a parameter: the channels are the code's own constants, checked all the same. */
function checkedChannel(channel: string): string {
  if (!/^[a-z_]{1,63}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  return channel;
}

/** How long a lost listening connection waits before it is made again. */
const LISTEN_RECONNECT_MS = 1_000;

/** LISTEN on a connection of its own, made again (every second) whenever it is lost, until stopped. */
async function listenOnOwnConnection(
  connectionString: string,
  channel: string,
  onMessage: (payload: string | null) => void,
  onLost: () => void = () => undefined,
): Promise<() => Promise<void>> {
  let current: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (again: boolean): Promise<void> => {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: POSTGRES_TIMEOUTS.connectionMs, keepAlive: true, application_name: 'carteirinha-listen' });
    client.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    client.on('error', () => reconnectLater(client));
    client.on('end', () => reconnectLater(client));
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    if (stopped) {
      await client.end();
      return;
    }
    current = client;
    if (again) onMessage(null);
  };

  const reconnectLater = (lost: pg.Client): void => {
    if (stopped || retry || (current !== null && current !== lost)) return;
    current = null;
    onLost();
    lost.end().catch(() => undefined);
    retry = setTimeout(() => {
      retry = undefined;
      connect(true).catch(() => reconnectLater(lost));
    }, LISTEN_RECONNECT_MS);
    retry.unref();
  };

  await connect(false);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await current?.end().catch(() => undefined);
  };
}

/** The database the configuration names: PostgreSQL when a URL is given, else PGlite under the data folder. */
export async function openDatabase(
  options: { databaseUrl: string | undefined; replicaUrl?: string | undefined; directUrl?: string | undefined; poolSize?: number; dataDir: string; pgDumpPath?: string } & PgliteOptions,
): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, options.poolSize, {
      pgDumpPath: options.pgDumpPath,
      ...(options.replicaUrl ? { replicaUrl: options.replicaUrl } : {}),
      ...(options.directUrl ? { directUrl: options.directUrl } : {}),
    });
  }
  return openPglite(path.join(options.dataDir, 'pglite'), { onLockCompromised: options.onLockCompromised });
}

/** Answers whether the database takes queries (health and readiness checks). */
async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/**
 * `pingDatabase` that answers false after `timeoutMs`: a readiness probe behind a pool full of requests stuck on a
 * lock must answer, not wait with them. A ping still running when the time is up finishes (or fails) on its own.
 */
async function pingWithin(db: Database, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([pingDatabase(db), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
