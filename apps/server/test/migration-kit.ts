import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { z } from 'zod';
import { PGLITE_EXTENSIONS, type Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { createPostgresDatabase } from './postgres-database.ts';
import { databaseUrlOf, testDatabaseKind } from './helpers.ts';

/**
 * What a test of one migration needs: an empty database of the run's kind, and the migrations folder cut after the
 * migration before it — so the test writes the rows of the world before, then migrates to today.
 */
export const MIGRATIONS = path.resolve(import.meta.dirname, '../src/db/migrations');

/** The test's database through its own driver, so that each migrator gets the database type it takes. */
export type Opened = { db: Database; migrate: (folder: string) => Promise<void>; close: () => Promise<void> };

export async function openForMigrations(): Promise<Opened> {
  if (testDatabaseKind() === 'pglite') {
    const client = await PGlite.create(undefined, { extensions: PGLITE_EXTENSIONS });
    const db = drizzlePglite({ client, schema, casing: 'snake_case' });
    return { db, migrate: (folder) => migratePglite(db, { migrationsFolder: folder }), close: () => client.close() };
  }
  // An empty database on the test server (dropped on close), reached through a pool of this test's own.
  const database = await createPostgresDatabase(1);
  const pool = new pg.Pool({ connectionString: await databaseUrlOf(database), max: 2 });
  // Closing drops the database WITH (FORCE): a connection still on its way out then gets 'terminating connection due
  // to administrator command', which a pool without a listener throws as an uncaught error (it failed a CI run whose
  // every test had passed). The app's own pools listen the same way (db/client.ts).
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
  return {
    db,
    migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await database.close();
    },
  };
}

/** The migrations folder as it was up to `lastTag`: the journal cut after it, the SQL files as they are. */
export async function migrationsUpTo(lastTag: string): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-migrations-'));
  await fs.cp(MIGRATIONS, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = z.object({ entries: z.array(z.object({ tag: z.string() }).loose()) }).loose().parse(JSON.parse(await fs.readFile(journalFile, 'utf8')));
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`${lastTag} is not in the journal`);
  await fs.writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
  return folder;
}

