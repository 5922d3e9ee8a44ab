import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Unit and server tests. The server's integration tests (*.int.test.ts) run against PGlite always, and a second
 * time against PostgreSQL when TEST_DATABASE_URL names a server (CI does).
 *
 * What keeps them cheap (issue 21; README "Tests"):
 * - every test database is a copy of one migrated at the start of the run (test/template-database.ts), made by each
 *   project's global setup;
 * - the server projects share the module graph between the files of a worker (`isolate: false`): the app is built
 *   per test by `buildApp`, modules hold constants only, and the few spies are on one app's objects and restored;
 * - the suites that grow with every route and check what does not depend on the driver (the fuzz suite: input
 *   handling; the authorization matrix: access rules) run once: on PostgreSQL when there is one (faster than PGlite's
 *   WebAssembly for them: in CI 118 s against 187 s for the fuzz suite, the run's longest file, 26/11), else on
 *   PGlite. PostgreSQL also keeps what really differs there: locks, pools, the login role and RLS, races, pg_dump,
 *   faults.
 */
const serverTests = ['apps/server/src/**/*.int.test.ts', 'apps/server/test/**/*.int.test.ts'];
/** Driver-independent suites that scale with the routes: run once, on PostgreSQL when TEST_DATABASE_URL names one. */
const onceRouteSuites = ['apps/server/test/fuzz.int.test.ts', 'apps/server/test/authorization-matrix.int.test.ts'];
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** Tests that only have a meaning on a PostgreSQL server (pg_dump, the process tests' own clusters). */
const postgresOnlyTests = ['apps/server/src/**/*.postgres.test.ts'];
/** Tests of the embedded database itself (persistence, the server process on its default database). */
const pgliteOnlyTests = ['apps/server/src/**/*.pglite.test.ts', 'apps/server/test/**/*.pglite.test.ts'];
/**
 * Files the clock sweep (apps/server/test/clock-sweep.sh) leaves out, comma-separated: a project's own `exclude`
 * replaces the command line's, so the sweep names them here.
 */
const sweepExcluded = process.env.CLOCK_SWEEP_EXCLUDE ? process.env.CLOCK_SWEEP_EXCLUDE.split(',') : [];

const serverProject = {
  isolate: false,
  restoreMocks: true,
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    // The JSON report feeds the summary at the end of `npm test` (.ci/test-summary.mjs).
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    // Vitest's default is one worker fewer than the cores: one, on CI's two. The server tests often wait on a database
    // (PostgreSQL's own processes), so a second worker there uses the idle time.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/shared/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.ts', 'apps/web/build/**/*.test.ts', 'lint/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/*.pglite.test.ts', '**/*.postgres.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          ...serverProject,
          name: 'server-pglite',
          include: [...serverTests, ...pgliteOnlyTests],
          exclude: [...(withPostgres ? onceRouteSuites : []), ...sweepExcluded, '**/node_modules/**'],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['apps/server/test/pglite-global-setup.ts'],
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                ...serverProject,
                name: 'server-postgres',
                include: [...serverTests, ...postgresOnlyTests],
                exclude: [...sweepExcluded, '**/node_modules/**'],
                env: { TEST_DB: 'postgres' },
                globalSetup: ['apps/server/test/postgres-global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
