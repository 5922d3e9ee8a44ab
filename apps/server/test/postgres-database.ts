import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres, type DatabaseHandle } from '../src/db/client.ts';

/** Runs one statement on the TEST_DATABASE_URL server's maintenance connection. */
export async function onTestServer(statement: string): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A database name no other test file uses. */
export function uniqueDatabaseName(prefix = 'carteirinha_test'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** The TEST_DATABASE_URL server's URL of one of its databases. */
export function testServerUrl(database: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${database}`;
  return url.toString();
}

/** Drops a database of the test server, closing whatever is still connected to it. */
export async function dropTestServerDatabase(name: string): Promise<void> {
  await onTestServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * A fresh PostgreSQL database on the TEST_DATABASE_URL server, dropped on close: empty, or a copy of `template` (a
 * migrated database nobody is connected to; copying it is a file copy, far cheaper than migrating).
 */
export async function createPostgresDatabase(poolSize = 4, options: { template?: string } = {}): Promise<DatabaseHandle> {
  const name = uniqueDatabaseName();
  await onTestServer(options.template ? `CREATE DATABASE ${name} TEMPLATE ${options.template}` : `CREATE DATABASE ${name}`);
  const handle = openPostgres(testServerUrl(name), poolSize);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await dropTestServerDatabase(name);
    },
  };
}
