import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openPglite, type DatabaseHandle } from '../src/db/client.ts';
import { createPostgresDatabase } from './postgres-database.ts';

/**
 * Migrate once, copy per test database (issue 21; CONVENTIONS "Fast isolated databases"). A global setup migrates one
 * database at the start of the run — a PGlite whose data folder is dumped to a file, and a PostgreSQL database kept
 * as a template — and every test database is a copy of it: PGlite opens the dump (`loadDataDir`, ~0.5 s against
 * 2–4 s of initdb in WebAssembly and every migration), PostgreSQL runs `CREATE DATABASE … TEMPLATE`. The migrations
 * themselves stay covered by the one test that migrates an empty database (db/database.int.test.ts).
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite's data folder, dumped by pglite-global-setup.ts. */
    pgliteTemplateFile: string;
    /** The migrated PostgreSQL database that test databases are made from (postgres-global-setup.ts). */
    postgresTemplateDatabase: string;
  }
}

/** Dumps a freshly migrated PGlite to a file for the workers to open; answers the file and how to remove it. */
export async function writePgliteTemplate(): Promise<{ file: string; remove: () => Promise<void> }> {
  const database = await openPglite(undefined);
  try {
    await database.migrate();
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-pglite-template-'));
    const file = path.join(folder, 'migrated.tar');
    await fs.writeFile(file, new Uint8Array(await (await database.dumpDataDir()).arrayBuffer()));
    return { file, remove: () => fs.rm(folder, { recursive: true, force: true }) };
  } finally {
    await database.close();
  }
}

/** What the global setup provided, or undefined when the file runs outside the project that provides it. */
function provided<K extends 'pgliteTemplateFile' | 'postgresTemplateDatabase'>(key: K): string | undefined {
  try {
    return inject(key) || undefined;
  } catch {
    return undefined;
  }
}

// One read of the dump per worker: without per-file isolation, every file of the worker opens its copies from it.
let pgliteTemplate: Promise<Blob> | null = null;

/** A migrated in-memory PGlite: a copy of the run's template, or migrated from nothing where there is none. */
export async function openMigratedPglite(): Promise<DatabaseHandle> {
  const file = provided('pgliteTemplateFile');
  if (!file) {
    const database = await openPglite(undefined);
    await database.migrate();
    return database;
  }
  pgliteTemplate ??= fs.readFile(file).then((bytes) => new Blob([new Uint8Array(bytes)]));
  return openPglite(undefined, { loadDataDir: await pgliteTemplate });
}

/** A migrated PostgreSQL database of its own: a copy of the run's template, or migrated from nothing where there is none. */
export async function createMigratedPostgresDatabase(): Promise<DatabaseHandle> {
  const template = provided('postgresTemplateDatabase');
  if (template) return createPostgresDatabase(4, { template });
  const database = await createPostgresDatabase();
  await database.migrate();
  return database;
}
