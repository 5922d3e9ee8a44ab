import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres } from '../src/db/client.ts';

/**
 * Runs once before the PostgreSQL test files. The migrations create cluster-wide roles (carteirinha_tenant,
 * carteirinha_platform), and their advisory lock serialises servers on one database only: two test files migrating
 * their own fresh databases at the same moment on a new cluster would race to create the same role. Migrating one
 * throw-away database first leaves the roles in place, so every later migration finds them.
 */
export default async function prepareTestCluster(): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return;
  const name = `carteirinha_setup_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = openPostgres(url.toString(), 1);
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
