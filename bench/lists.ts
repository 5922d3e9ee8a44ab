/**
 * Every list and figure of the product on the generated data (issue 24): for each request, the statements the server
 * sends for it (counted at the driver) with the plan of each (EXPLAIN (ANALYZE, BUFFERS), run with the same
 * parameters and, for tenant-scoped work, in the same row-level-security scope), then its p50/p99 and throughput
 * under load (autocannon, in this process). Records each run in bench/results/lists.json.
 *
 *   npm run seed -w bench -- --scale 1 --data-dir /tmp/escala          # once
 *   npm run lists -w bench -- --data-dir /tmp/escala                    # PGlite
 *   npm run lists -w bench -- --data-dir /tmp/escala-pg --database-url postgres://…/bench_scale_1
 *   [--duration 10] [--connections 10] [--only visits]
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { sql, TransactionRollbackError, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import type { Database } from '../apps/server/src/db/client.ts';
import { appendResult, type BenchServer, signInCookie, startServerOnData } from './harness.ts';

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const DATA_DIR = flag('--data-dir');
const DATABASE_URL = flag('--database-url');
const DURATION_SECONDS = Number(flag('--duration') ?? '10');
const CONNECTIONS = Number(flag('--connections') ?? '10');
const ONLY = flag('--only');
/** How deep the "deep page" scenarios go: the 50th page of 20 (rows 981–1 000). */
const DEEP_PAGE = 50;
const ORIGIN = 'http://127.0.0.1';

/** Goals of issue 28 for lists, searches and dashboards on 2 cores: p99 and throughput per database. */
const GOALS = { postgres: { p99Ms: 50, requestsPerSecond: 1000 }, pglite: { p99Ms: 200, requestsPerSecond: 300 } } as const;

type Scenario = { name: string; method: 'GET' | 'POST'; path: string; body?: string; cookie: string };

const rowsOf = z.object({ rows: z.array(z.record(z.string(), z.unknown())) });

async function one(db: Database, query: SQL): Promise<Record<string, unknown>> {
  const [row] = rowsOf.parse(await db.execute(query)).rows;
  if (!row) throw new Error('the generated data lacks what the bench needs: run npm run seed -w bench first');
  return row;
}

const text = (value: unknown) => String(value);

/** Who and what the scenarios use: the largest clinic and a median one, their staff, a busy patient, a card. */
async function cast(db: Database) {
  const clinicsBySize = sql`select clinic_id, count(*) as patients from user_roles where role = 'patient' and clinic_id is not null group by clinic_id order by count(*) desc`;
  const largest = await one(db, sql`select clinic_id, patients from (${clinicsBySize}) s limit 1`);
  const median = await one(db, sql`select clinic_id, patients from (${clinicsBySize}) s offset (select count(distinct clinic_id) / 2 from user_roles where role = 'patient') limit 1`);
  const staffOf = (clinicId: unknown) =>
    one(db, sql`select u.email from user_roles r join users u on u.id = r.user_id where r.clinic_id = ${text(clinicId)}::uuid and r.role = 'clinic_staff' order by u.email limit 1`);
  const card = await one(
    db,
    sql`select c.id, c.number, p.cpf, split_part(p.full_name, ' ', 1) as first_name
        from cards c join subscriptions s on s.id = c.subscription_id join profiles p on p.id = c.holder_user_id
        where c.clinic_id = ${text(largest.clinic_id)}::uuid and s.status = 'active' and c.dependent_id is null
        order by (select count(*) from visits v where v.card_id = c.id) desc limit 1`,
  );
  const busyPatient = await one(
    db,
    sql`select u.email, count(*) as charges from payments p join subscriptions s on s.id = p.subscription_id join users u on u.id = s.user_id
        where s.clinic_id = ${text(largest.clinic_id)}::uuid group by u.email order by count(*) desc limit 1`,
  );
  const visits = await one(db, sql`select count(*) as total from visits where clinic_id = ${text(largest.clinic_id)}::uuid`);
  const largestAdmin = await one(
    db,
    sql`select u.email from user_roles r join users u on u.id = r.user_id where r.clinic_id = ${text(largest.clinic_id)}::uuid and r.role = 'clinic_admin' order by u.email limit 1`,
  );
  // The patient whose Histórico is longest: the history, its summary and Início read the most rows for them.
  const historyPatient = await one(
    db,
    sql`select u.email, count(*) as visits from visits v join cards c on c.id = v.card_id join users u on u.id = c.holder_user_id
        where v.clinic_id = ${text(largest.clinic_id)}::uuid group by u.email order by count(*) desc limit 1`,
  );
  return {
    largest: { clinicId: text(largest.clinic_id), patients: Number(largest.patients), visits: Number(visits.total), staff: text((await staffOf(largest.clinic_id)).email), admin: text(largestAdmin.email) },
    historyPatient: { email: text(historyPatient.email), visits: Number(historyPatient.visits) },
    median: { clinicId: text(median.clinic_id), patients: Number(median.patients), staff: text((await staffOf(median.clinic_id)).email) },
    card: { id: text(card.id), number: text(card.number), cpf: text(card.cpf), firstName: text(card.first_name) },
    busyPatient: { email: text(busyPatient.email), charges: Number(busyPatient.charges) },
  };
}

/**
 * The path of page DEEP_PAGE of a list (or of its last page, when it has fewer), asked as the screen asks it: by the
 * cursor the page before answered when the list answers one (keyset), else by page number.
 */
async function deepPath(server: BenchServer, cookie: string, base: string): Promise<string> {
  const join = base.includes('?') ? '&' : '?';
  const pathOf = (page: number, after: string | null) => `${base}${join}pageSize=20&page=${page}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
  let after: string | null = null;
  for (let page = 1; page < DEEP_PAGE; page += 1) {
    const response = await fetch(`${server.address}${pathOf(page, after)}`, { headers: { cookie } });
    const body = z.object({ nextCursor: z.string().nullable().optional() }).parse(await response.json());
    if (body.nextCursor === undefined) return pathOf(DEEP_PAGE, null);
    if (body.nextCursor === null) return pathOf(page, after);
    after = body.nextCursor;
  }
  return pathOf(DEEP_PAGE, after);
}

const planRows = z.object({ rows: z.array(z.object({ 'QUERY PLAN': z.string() })) });

/** A logged statement ($1, $2 … with its parameters) as a Drizzle SQL, to run it again under EXPLAIN. */
function statementSql(statement: string, params: unknown[]): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of statement.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(statement.slice(last, match.index)));
    chunks.push(sql`${params[Number(match[1]) - 1]}`);
    last = (match.index ?? 0) + match[0].length;
  }
  chunks.push(sql.raw(statement.slice(last)));
  return sql.join(chunks);
}

const NOT_EXPLAINABLE = /^\s*(begin|commit|rollback|set |savepoint|release|select set_config)/i;

type StatementPlan = { statement: string; executionMs: number | null; planningMs: number | null; plan: string[] };

/**
 * The plans of the statements one request made, in order. A tenant-scoped request (withTenantScope) set
 * app.clinic_id and the tenant role first: its later statements are explained in that scope too, where row-level
 * security adds its conditions.
 */
async function explainStatements(db: Database, statements: { text: string; params: unknown[] }[]): Promise<StatementPlan[]> {
  const plans: StatementPlan[] = [];
  let tenantClinic: unknown = null;
  for (const statement of statements) {
    if (/set_config\('app\.clinic_id'/.test(statement.text)) tenantClinic = statement.params[0];
    if (NOT_EXPLAINABLE.test(statement.text)) continue;
    const explain = sql`explain (analyze, buffers) ${statementSql(statement.text, statement.params)}`;
    let planLines: string[] = [];
    const explainIn = (scoped: boolean) => db
      .transaction(async (tx) => {
        if (scoped) {
          await tx.execute(sql`select set_config('app.clinic_id', ${text(tenantClinic)}, true)`);
          await tx.execute(sql.raw('set local role carteirinha_tenant'));
        }
        planLines = planRows.parse(await tx.execute(explain)).rows.map((row) => row['QUERY PLAN']);
        // EXPLAIN ANALYZE runs the statement: what an insert wrote (a validation's row) goes with the transaction.
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    // The tenant scope lasts for its transaction, which the log does not show ending: a statement it refuses
    // (better-auth's session read of the next request) ran outside it.
    await explainIn(tenantClinic !== null).catch(async (error: unknown) => {
      if (tenantClinic === null || !String(error instanceof Error ? error.cause : error).includes('permission denied')) throw error;
      await explainIn(false);
    });
    const figure = (label: string) => {
      const line = planLines.find((entry) => entry.startsWith(label));
      return line ? Number(/([\d.]+) ms/.exec(line)?.[1]) : null;
    };
    plans.push({ statement: statement.text, executionMs: figure('Execution Time'), planningMs: figure('Planning Time'), plan: planLines });
  }
  return plans;
}

async function measure(server: BenchServer, scenario: Scenario) {
  let non2xx = 0;
  const result = await autocannon({
    url: server.address,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    requests: [
      {
        method: scenario.method,
        path: scenario.path,
        headers: { cookie: scenario.cookie, origin: ORIGIN, ...(scenario.body ? { 'content-type': 'application/json' } : {}) },
        ...(scenario.body ? { body: scenario.body } : {}),
        onResponse: (status) => {
          if (status >= 300) non2xx += 1;
        },
      },
    ],
  });
  return { requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, requests: result.requests.total, non2xx, errors: result.errors };
}

/**
 * Waits until the server is idle: autocannon resolves at the end of its duration while requests it sent are still
 * being answered (on PGlite one statement at a time, some taking seconds), and those must not be counted or
 * explained with the next scenario. A probe statement queues behind whatever runs; the server is idle when, after
 * it, a second passes without any statement starting.
 */
async function quiesce(server: BenchServer): Promise<void> {
  let seen = 0;
  const stop = server.database.onStatement(() => {
    seen += 1;
  });
  try {
    for (;;) {
      await server.database.db.execute(sql`select 1`);
      const before = seen;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      if (seen === before) return;
    }
  } finally {
    stop();
  }
}

async function main(): Promise<void> {
  if (!DATA_DIR) throw new Error('--data-dir names the generated data (PGlite) or the folder with its auth-secret (PostgreSQL)');
  // The per-address sign-in limit is counted in the database: after hot-path's sign-in load from this same address, the
  // window would still refuse this run's few sign-ins (429).
  const server = await startServerOnData({ dataDir: DATA_DIR, databaseUrl: DATABASE_URL, env: { CARD_VALIDATIONS_PER_MINUTE: '100000000', SIGN_IN_IP_LIMIT: '1000000' } });
  const kind = server.database.kind;
  try {
    const { db } = server.database;
    const people = await cast(db);
    const admin = await signInCookie(server, DEMO_ACCOUNTS.admin, DEMO_PASSWORD);
    const largeStaff = await signInCookie(server, people.largest.staff, DEMO_PASSWORD);
    const medianStaff = await signInCookie(server, people.median.staff, DEMO_PASSWORD);
    const patient = await signInCookie(server, people.busyPatient.email, DEMO_PASSWORD);
    const largeAdmin = await signInCookie(server, people.largest.admin, DEMO_PASSWORD);
    const historyPatient = await signInCookie(server, people.historyPatient.email, DEMO_PASSWORD);
    const all: Scenario[] = [
      { name: 'admin dashboard', method: 'GET', path: '/api/admin/dashboard', cookie: admin },
      { name: 'admin clinics, page 1', method: 'GET', path: '/api/admin/clinics?pageSize=20', cookie: admin },
      { name: 'admin clinics, search "saude"', method: 'GET', path: '/api/admin/clinics?pageSize=20&q=saude', cookie: admin },
      { name: `admin clinics, page ${DEEP_PAGE} (or the last)`, method: 'GET', path: await deepPath(server, admin, '/api/admin/clinics'), cookie: admin },
      { name: 'admin clinics summary', method: 'GET', path: '/api/admin/clinics/summary', cookie: admin },
      { name: 'admin users, page 1', method: 'GET', path: '/api/admin/users?pageSize=20', cookie: admin },
      { name: 'admin users, search "silva"', method: 'GET', path: '/api/admin/users?pageSize=20&q=silva', cookie: admin },
      { name: 'admin users, search one e-mail', method: 'GET', path: `/api/admin/users?pageSize=20&q=${encodeURIComponent(people.busyPatient.email)}`, cookie: admin },
      { name: `admin users, page ${DEEP_PAGE}`, method: 'GET', path: await deepPath(server, admin, '/api/admin/users'), cookie: admin },
      { name: 'admin users counts', method: 'GET', path: '/api/admin/users/counts', cookie: admin },
      { name: 'admin plans', method: 'GET', path: '/api/admin/plans', cookie: admin },
      { name: 'admin plans summary', method: 'GET', path: '/api/admin/plans/summary', cookie: admin },
      { name: 'admin reports summary, all time', method: 'GET', path: '/api/admin/reports/summary', cookie: admin },
      { name: 'clinic visits, largest clinic, page 1', method: 'GET', path: '/api/clinic/visits?pageSize=20', cookie: largeStaff },
      { name: `clinic visits, largest clinic, page ${DEEP_PAGE}`, method: 'GET', path: await deepPath(server, largeStaff, '/api/clinic/visits'), cookie: largeStaff },
      { name: 'clinic visits, largest clinic, search a first name', method: 'GET', path: `/api/clinic/visits?pageSize=20&q=${encodeURIComponent(people.card.firstName)}`, cookie: largeStaff },
      { name: 'clinic visits, largest clinic, search "hemograma"', method: 'GET', path: '/api/clinic/visits?pageSize=20&q=hemograma', cookie: largeStaff },
      { name: 'clinic visits, largest clinic, search nothing found', method: 'GET', path: '/api/clinic/visits?pageSize=20&q=ninguem-com-este-nome', cookie: largeStaff },
      { name: "clinic visits, one card's history", method: 'GET', path: `/api/clinic/visits?pageSize=20&cardId=${people.card.id}`, cookie: largeStaff },
      { name: 'clinic visits, median clinic, page 1', method: 'GET', path: '/api/clinic/visits?pageSize=20', cookie: medianStaff },
      { name: 'card validation by number', method: 'POST', path: '/api/clinic/card-validations', body: JSON.stringify({ cardToken: people.card.number, source: 'manual' }), cookie: largeStaff },
      { name: 'card validation by CPF', method: 'POST', path: '/api/clinic/card-validations', body: JSON.stringify({ cardToken: people.card.cpf, source: 'manual' }), cookie: largeStaff },
      { name: "patient's charges", method: 'GET', path: '/api/patient/payments', cookie: patient },
      { name: "patient's cards", method: 'GET', path: '/api/patient/cards', cookie: patient },
      // Issues 25–27: the clinic's members, payouts and network; the patient's Início, Histórico and network.
      { name: 'clinic members, largest clinic, page 1', method: 'GET', path: '/api/clinic/members?pageSize=20', cookie: largeAdmin },
      { name: 'clinic members, largest clinic, search a first name', method: 'GET', path: `/api/clinic/members?pageSize=20&q=${encodeURIComponent(people.card.firstName)}`, cookie: largeAdmin },
      { name: 'clinic members, largest clinic, search one CPF', method: 'GET', path: `/api/clinic/members?pageSize=20&q=${people.card.cpf}`, cookie: largeAdmin },
      { name: `clinic members, largest clinic, page ${DEEP_PAGE}`, method: 'GET', path: await deepPath(server, largeAdmin, '/api/clinic/members'), cookie: largeAdmin },
      { name: 'clinic dashboard, largest clinic', method: 'GET', path: '/api/clinic/dashboard', cookie: largeAdmin },
      { name: 'clinic dashboard charts, largest clinic', method: 'GET', path: '/api/clinic/dashboard/charts', cookie: largeAdmin },
      { name: 'clinic payouts, largest clinic', method: 'GET', path: '/api/clinic/payouts', cookie: largeAdmin },
      { name: 'clinic network, largest clinic', method: 'GET', path: '/api/clinic/network?pageSize=20', cookie: largeAdmin },
      { name: "patient's home (longest history)", method: 'GET', path: '/api/patient/home', cookie: historyPatient },
      { name: "patient's history, page 1 (longest history)", method: 'GET', path: '/api/patient/history?pageSize=20', cookie: historyPatient },
      { name: "patient's history summary, all time (longest history)", method: 'GET', path: '/api/patient/history/summary', cookie: historyPatient },
      { name: "patient's network, nearest first", method: 'GET', path: '/api/patient/network?pageSize=20&lat=-23.56&lng=-46.65', cookie: historyPatient },
    ];
    const scenarios = all.filter((scenario) => !ONLY || scenario.name.includes(ONLY));

    const figures = [];
    for (const scenario of scenarios) {
      await quiesce(server);
      const captured: { text: string; params: unknown[] }[] = [];
      const stop = server.database.onStatement((statement, params) => captured.push({ text: statement, params }));
      const response = await fetch(`${server.address}${scenario.path}`, {
        method: scenario.method,
        headers: { cookie: scenario.cookie, origin: ORIGIN, ...(scenario.body ? { 'content-type': 'application/json' } : {}) },
        body: scenario.body,
      });
      stop();
      if (!response.ok) throw new Error(`${scenario.name}: ${response.status} ${await response.text()}`);
      const plans = await explainStatements(db, captured);
      await quiesce(server);
      const loadAverage = Math.round((os.loadavg()[0] ?? 0) * 10) / 10;
      const load = await measure(server, scenario);
      const goal = GOALS[kind];
      const entry = { name: scenario.name, path: scenario.path, statements: captured.length, loadAverage, ...load, meetsGoal: load.p99Ms <= goal.p99Ms && load.requestsPerSecond >= goal.requestsPerSecond, plans };
      figures.push(entry);
      const slowest = [...plans].sort((a, b) => (b.executionMs ?? 0) - (a.executionMs ?? 0))[0];
      console.log(
        `${kind} | ${scenario.name}: ${load.requestsPerSecond} req/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms, ${captured.length} statements, load ${loadAverage}, slowest ${slowest?.executionMs ?? '-'} ms (+${slowest?.planningMs ?? '-'} ms planning)${load.non2xx ? `, ${load.non2xx} non-2xx` : ''}`,
      );
    }
    await appendResult('lists', { database: kind, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS, goal: GOALS[kind], data: people, scenarios: figures });
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
