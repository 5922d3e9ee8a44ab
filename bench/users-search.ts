/**
 * The admin users search (/admin/usuarios 'Buscar usuários...') at 50 000 accounts: GET /api/admin/users?q=… over
 * HTTP from the real server, timed request by request, on the embedded PGlite and, when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names a PostgreSQL server, on a fresh database there too. It also records the query plans
 * (EXPLAIN ANALYZE) of the page and of its count, to confirm that the trigram indexes of migration 0008 serve the
 * '%term%' search. Records each run in bench/results/users-search.json.
 *
 *   npm run users-search -w bench [-- [--users N] [--requests N]]
 */
import { desc, eq, or, sql, type SQLWrapper } from 'drizzle-orm';
import { z } from 'zod';
import { pageOf } from '@carteirinha/shared/contracts/pagination';
import { adminUserSchema } from '@carteirinha/shared/contracts/users';
import type { Database } from '../apps/server/src/db/client.ts';
import { clinics, userRoles, users } from '../apps/server/src/db/schema.ts';
import { foldedContains } from '../apps/server/src/lib/sql.ts';
import { ensureSettingsRow } from '../apps/server/src/modules/settings/repository.ts';
import { DEMO_SETTINGS } from '../apps/server/src/modules/settings/store.ts';
import { seedManyClinics, seedManyUsers } from '../apps/server/test/generators.ts';
import { authRequest, benchOnEachDatabase, type BenchServer, recordRun, signInCookie, startBenchServer } from './harness.ts';

function numberFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

/** DESIGN.md §4: lists stay fast at 50 000 patients. */
const USERS = numberFlag('--users', 50_000);
/** Timed requests per search term, after a few untimed ones that warm the caches and the query plans. */
const REQUESTS = numberFlag('--requests', 100);
const WARM_UP = 10;
const PAGE_SIZE = 20;
/** One account in fifty is a "silva": a common surname, about 2 % of the list. */
const SILVAS_EVERY = 50;
const ADMIN_PASSWORD = 'senha-do-bench-123';
/**
 * What an admin types: a common surname (name and e-mail), an e-mail prefix that matches a fifth of the accounts, one
 * exact account, and a term that matches nothing (the whole index has to say so).
 */
const SEARCHES = ['silva', 'gerado.4', 'pessoa gerado 4242', 'ninguem-com-este-nome'];
/** The list with no search, the screen's first page: what a search costs is measured against it. */
const UNFILTERED = '';

type SearchFigures = { q: string; matches: number; p50Ms: number; p99Ms: number; meanMs: number; maxMs: number };

function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/** The value at `fraction` of the sorted timings (nearest rank). */
function percentile(sorted: readonly number[], fraction: number): number {
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

/** 50 000 accounts in two generate_series statements: 49 in 50 "gerado", 1 in 50 "silva"; three in four are patients. */
async function seed(db: Database): Promise<void> {
  await seedManyClinics(db, 1, 'bench');
  const clinic = await db.query.clinics.findFirst({ columns: { id: true } });
  const silvas = Math.floor(USERS / SILVAS_EVERY);
  await seedManyUsers(db, USERS - silvas, { prefix: 'gerado', clinicId: clinic?.id });
  await seedManyUsers(db, silvas, { prefix: 'silva', clinicId: clinic?.id });
}

/** As in the tests, an admin signs in with the password alone; the admin is one more account in the list. */
async function signInAsAdmin(server: BenchServer): Promise<string> {
  const { db } = server.database;
  await ensureSettingsRow(db, DEMO_SETTINGS);
  const email = 'admin.bench@carteirinha.dev';
  await authRequest(server, 'sign-up/email', { email, password: ADMIN_PASSWORD, name: 'Admin do Bench' });
  const admin = await db.query.users.findFirst({ where: (user, { eq: equals }) => equals(user.email, email) });
  if (!admin) throw new Error('the admin was not created');
  await db.insert(userRoles).values({ userId: admin.id, role: 'admin' });
  return signInCookie(server, email, ADMIN_PASSWORD);
}

const userPageSchema = pageOf(adminUserSchema);

async function searchOnce(server: BenchServer, cookie: string, q: string): Promise<{ ms: number; total: number }> {
  const search = new URLSearchParams({ page: '1', pageSize: String(PAGE_SIZE) });
  if (q) search.set('q', q);
  const url = `${server.address}/api/admin/users?${search.toString()}`;
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  const body: unknown = await response.json();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`search "${q}": ${response.status} ${JSON.stringify(body)}`);
  return { ms, total: userPageSchema.parse(body).total };
}

/** One search term, REQUESTS times in a row (the admin's screen asks one page at a time). */
async function timeSearch(server: BenchServer, cookie: string, q: string): Promise<SearchFigures> {
  for (let i = 0; i < WARM_UP; i += 1) await searchOnce(server, cookie, q);
  const timings: number[] = [];
  let matches = 0;
  for (let i = 0; i < REQUESTS; i += 1) {
    const { ms, total } = await searchOnce(server, cookie, q);
    timings.push(ms);
    matches = total;
  }
  const sorted = [...timings].sort((a, b) => a - b);
  return {
    q,
    matches,
    p50Ms: oneDecimal(percentile(sorted, 0.5)),
    p99Ms: oneDecimal(percentile(sorted, 0.99)),
    meanMs: oneDecimal(timings.reduce((sum, ms) => sum + ms, 0) / timings.length),
    maxMs: oneDecimal(sorted.at(-1) ?? 0),
  };
}

const planRows = z.object({ rows: z.array(z.object({ 'QUERY PLAN': z.string() })) });

async function explain(db: Database, query: SQLWrapper): Promise<string[]> {
  const result = planRows.parse(await db.execute(sql`explain (analyze, costs off, buffers off) ${query}`));
  return result.rows.map((row) => row['QUERY PLAN']);
}

/**
 * The plans of the two statements the search runs (repository.ts listUsers): its page, and its count. The count has
 * to read every match, so it is where an index matters most; the page may also walk (created_at, id) backwards and
 * stop at 20 rows when matches are common.
 */
async function explainSearch(db: Database, q: string) {
  const where = or(foldedContains(users.email, q), foldedContains(users.name, q));
  const page = db
    .select({ id: users.id })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(clinics, eq(clinics.id, userRoles.clinicId))
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(PAGE_SIZE);
  const total = db.select({ total: sql`count(*)` }).from(users).where(where);
  const pagePlan = await explain(db, page);
  const countPlan = await explain(db, total);
  const usesTrigram = (plan: string[]) => plan.some((line) => /users_(email|name)_search_idx/.test(line));
  return { q, pageUsesTrigramIndex: usesTrigram(pagePlan), countUsesTrigramIndex: usesTrigram(countPlan), pagePlan, countPlan };
}


/**
 * How the table was looked after before the measure. PGlite has no autovacuum: rows inserted since the trigram indexes
 * were built sit in the GIN "pending list", which makes the planner price the indexes above a sequential scan, until
 * a VACUUM merges it. PostgreSQL's autovacuum does both in the background.
 */
const MAINTENANCE = [
  { name: 'analyze', statement: sql`analyze` },
  { name: 'vacuum analyze', statement: sql`vacuum analyze` },
] as const;

async function measure(server: BenchServer, cookie: string) {
  const unfiltered = await timeSearch(server, cookie, UNFILTERED);
  const searches: SearchFigures[] = [];
  for (const q of SEARCHES) searches.push(await timeSearch(server, cookie, q));
  const plans = [];
  for (const q of SEARCHES) plans.push(await explainSearch(server.database.db, q));
  return { unfiltered, searches, plans };
}

function report(kind: string, maintenance: string, figures: Awaited<ReturnType<typeof measure>>): void {
  const label = `${kind} (${maintenance})`;
  console.log(`${label} no search: p50 ${figures.unfiltered.p50Ms} ms, p99 ${figures.unfiltered.p99Ms} ms`);
  for (const search of figures.searches) {
    console.log(`${label} q="${search.q}": ${search.matches} matches, p50 ${search.p50Ms} ms, p99 ${search.p99Ms} ms`);
  }
  for (const plan of figures.plans) {
    console.log(`${label} q="${plan.q}": trigram index used by the count: ${plan.countUsesTrigramIndex}, by the page: ${plan.pageUsesTrigramIndex}`);
  }
}

async function benchOn(postgresUrl: string | null): Promise<void> {
  const server = await startBenchServer({ postgresUrl });
  const { db } = server.database;
  try {
    const seedStarted = performance.now();
    await seed(db);
    const seedSeconds = oneDecimal((performance.now() - seedStarted) / 1000);
    const cookie = await signInAsAdmin(server);

    const phases = [];
    for (const maintenance of MAINTENANCE) {
      await db.execute(maintenance.statement);
      const figures = await measure(server, cookie);
      report(server.database.kind, maintenance.name, figures);
      phases.push({ maintenance: maintenance.name, ...figures });
    }
    await recordRun('users-search', server, { users: USERS, pageSize: PAGE_SIZE, requestsPerSearch: REQUESTS, seedSeconds, phases });
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  if (!Number.isInteger(USERS) || USERS < SILVAS_EVERY) throw new Error(`--users takes a whole number of at least ${SILVAS_EVERY}`);
  if (!Number.isInteger(REQUESTS) || REQUESTS < 1) throw new Error('--requests takes a whole number of at least 1');
  await benchOnEachDatabase('carteirinha_bench', benchOn);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
