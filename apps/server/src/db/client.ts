import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

const execFileAsync = promisify(execFile);

export type Schema = typeof schema;
/** The one database type the code sees, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export type DatabaseHandle = {
  db: Database;
  kind: DatabaseKind;
  /** Applies the committed SQL migrations; safe to call from several processes at once. */
  migrate: () => Promise<void>;
  close: () => Promise<void>;
  /** Writes a full copy of the database to `file` (PGlite: its data folder as .tar.gz; PostgreSQL: pg_dump -Fc). */
  backup: (file: string) => Promise<void>;
  /** The file name ending of a backup of this kind. */
  backupExtension: string;
};

const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');
/** Any constant shared by every process: serialises migrations on a PostgreSQL server. */
const MIGRATION_LOCK_KEY = 727_274_001;

/** The PostgreSQL extensions the migrations create, which PGlite must load (trigram search indexes). */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * Opens the embedded PGlite database. `dataDir` undefined keeps it in memory (tests); otherwise it persists there.
 */
export async function openPglite(dataDir: string | undefined): Promise<DatabaseHandle> {
  if (dataDir) await fs.mkdir(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS });
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
    backup: async (file) => {
      const dump = await client.dumpDataDir('gzip');
      await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
    },
    backupExtension: '.tar.gz',
  };
}

/**
 * pg_dump in the custom format (restorable with pg_restore); the client tools come with Debian's postgresql. The
 * connection goes through libpq's environment, not the command line, so the password shows neither in `ps` nor in
 * an error message (which quotes the command line).
 */
async function runPgDump(connectionString: string, file: string): Promise<void> {
  const url = new URL(connectionString);
  const env = {
    ...process.env,
    PGHOST: decodeURIComponent(url.hostname) || 'localhost',
    PGPORT: url.port || '5432',
    PGUSER: decodeURIComponent(url.username),
    PGPASSWORD: decodeURIComponent(url.password),
    PGDATABASE: decodeURIComponent(url.pathname.slice(1)),
    ...(url.searchParams.get('sslmode') ? { PGSSLMODE: url.searchParams.get('sslmode') ?? '' } : {}),
  };
  try {
    await execFileAsync('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`], { env, timeout: 10 * 60_000 });
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const reason = typeof stderr === 'string' && stderr.trim() ? stderr.trim() : String((error as Error).message).split('\n')[0];
    throw new Error(`pg_dump failed: ${reason}`, { cause: error });
  }
}

/** Opens a node-postgres pool on a PostgreSQL server. */
export function openPostgres(connectionString: string, poolSize = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle connection that the server drops (restart, failover) emits 'error'; without a listener that would
  // crash the process. The pool discards the connection and the next query opens a new one.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      const lockClient = await pool.connect();
      try {
        await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(db, { migrationsFolder });
      } finally {
        await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        lockClient.release();
      }
    },
    close: () => pool.end(),
    backup: (file) => runPgDump(connectionString, file),
    backupExtension: '.dump',
  };
}

/** The database the configuration names: PostgreSQL when a URL is given, else PGlite under the data folder. */
export async function openDatabase(options: { databaseUrl: string | undefined; dataDir: string }): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(path.join(options.dataDir, 'pglite'));
}

/** Answers whether the database takes queries (health and readiness checks). */
export async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
