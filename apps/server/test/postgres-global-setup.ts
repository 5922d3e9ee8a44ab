import type { TestProject } from 'vitest/node';
import { openPostgres } from '../src/db/client.ts';
import { dropTestServerDatabase, onTestServer, testServerUrl, uniqueDatabaseName } from './postgres-database.ts';

/**
 * Runs once before the PostgreSQL test files: migrates one database, which every test database is then copied from
 * (`CREATE DATABASE … TEMPLATE`, template-database.ts). Migrating it here also creates the cluster-wide roles
 * (carteirinha_tenant, carteirinha_platform) before any test file runs, so two files can never race to create them.
 */
export default async function prepareTestCluster(project: TestProject): Promise<() => Promise<void>> {
  if (!process.env.TEST_DATABASE_URL) return async () => undefined;
  const template = uniqueDatabaseName('carteirinha_template');
  await onTestServer(`CREATE DATABASE ${template}`);
  const database = openPostgres(testServerUrl(template), 1);
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  project.provide('postgresTemplateDatabase', template);
  return () => dropTestServerDatabase(template);
}
