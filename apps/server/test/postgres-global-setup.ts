import { createPostgresDatabase } from './postgres-database.ts';

/**
 * Runs once before the PostgreSQL test files. The migrations create cluster-wide roles (carteirinha_tenant,
 * carteirinha_platform), and their advisory lock serialises servers on one database only: two test files migrating
 * their own fresh databases at the same moment on a new cluster would race to create the same role. Migrating one
 * throw-away database first leaves the roles in place, so every later migration finds them.
 */
export default async function prepareTestCluster(): Promise<void> {
  if (!process.env.TEST_DATABASE_URL) return;
  const database = await createPostgresDatabase(1);
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
}
