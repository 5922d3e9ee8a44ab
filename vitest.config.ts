import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Unit and server tests. The server's integration tests (*.int.test.ts) run against PGlite always, and a second
 * time against PostgreSQL when TEST_DATABASE_URL names a server (CI does).
 */
const serverTests = ['apps/server/src/**/*.int.test.ts', 'apps/server/test/**/*.int.test.ts'];
/** Tests that only have a meaning on a PostgreSQL server (pg_dump): run only when TEST_DATABASE_URL names one. */
const postgresOnlyTests = ['apps/server/src/**/*.postgres.test.ts'];
/** Tests of the embedded database itself (persistence, the server process on its default database). */
const pgliteOnlyTests = ['apps/server/src/**/*.pglite.test.ts', 'apps/server/test/**/*.pglite.test.ts'];

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one, on CI's two. The server tests often wait on a database
    // (PostgreSQL's own processes), so a second worker there uses the idle time: CI went from 25 min 27 s to 22 min 45 s.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/shared/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.ts', 'apps/web/build/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/*.pglite.test.ts', '**/*.postgres.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'server-pglite',
          include: [...serverTests, ...pgliteOnlyTests],
          env: { TEST_DB: 'pglite' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: 'server-postgres',
                include: [...serverTests, ...postgresOnlyTests],
                env: { TEST_DB: 'postgres' },
                globalSetup: ['apps/server/test/postgres-global-setup.ts'],
                testTimeout: 60_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
    ],
  },
});
