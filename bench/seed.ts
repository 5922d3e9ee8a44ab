/**
 * The data generator (issue 24): clinics, their teams, plans and price lists, patients with subscriptions in every
 * state, dependents, cards that validate, two years of charges, visits and card validations — on the embedded PGlite
 * (a data folder the server then starts on) or on a PostgreSQL database. Prints how long each part took.
 *
 *   npm run seed -w bench -- --scale 1                     # 500 clinics, 50 000 patients, 1 000 000 visits
 *   npm run seed -w bench -- --clinics 500 --patients 50000 --visits 1000000 --data-dir ./data-escala
 *   npm run seed -w bench -- --scale 10 --database-url postgres://…/carteirinha
 *
 * --scale N is N times the landing page's promise ("500+ clínicas, 50 mil+ pacientes"), with the 20 visits per
 * patient over two years that make the million: N × (500 clinics, 50 000 patients, 1 000 000 visits). --clinics,
 * --patients and --visits override one part each. Without --data-dir or --database-url it reads DATA_DIR and
 * DATABASE_URL as the server does. The database must be empty of clinics: the generator migrates it, writes the demo
 * (Clínica Demo and its four accounts, as `npm start` does) and then the generated data.
 *
 * Card secrets are sealed with the deployment's auth secret (AUTH_SECRET, else DATA_DIR/auth-secret, made if
 * missing), so the server started with the same DATA_DIR (or AUTH_SECRET) validates the generated cards.
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig, type Config } from '../apps/server/src/config.ts';
import { openDatabase, PGLITE_EXTENSIONS } from '../apps/server/src/db/client.ts';
import { lockDataDir, securePrivateTree } from '../apps/server/src/db/data-dir.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';
import { resolveAuthSecret } from '../apps/server/src/lib/secret.ts';
import { createCardSecretBox } from '../apps/server/src/modules/cards/card-secrets.ts';
import { appendResult } from './harness.ts';
import {
  type BulkClient,
  generateCharges,
  generateValidations,
  generateVisits,
  insertCards,
  insertClinics,
  insertDependents,
  insertPeople,
  insertSubscriptions,
} from './scale/load.ts';
import { type CardSeed, type DependentSeed, makeCards, makeClinics, makePatient, makeTeam, patientsPerClinic, type PersonSeed, seededRandom, type Size, type SubscriptionSeed } from './scale/world.ts';

/** --scale 1: the landing page's promise, and 20 visits per patient over two years. */
const SCALE_ONE: Size = { clinics: 500, patients: 50_000, visits: 1_000_000 };
/** Patients are generated and written this many at a time, so memory stays flat at --scale 10. */
const PATIENT_FLUSH = 20_000;

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

function wholeFlag(name: string, fallback: number): number {
  const value = flag(name);
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} takes a whole number (got ${value})`);
  return parsed;
}

function sizeOf(): Size {
  const scale = Number(flag('--scale') ?? '1');
  if (!(scale > 0)) throw new Error('--scale takes a number above 0 (1 = 500 clinics, 50 000 patients, 1 000 000 visits)');
  const scaled = (value: number) => Math.max(1, Math.round(value * scale));
  const size = {
    clinics: wholeFlag('--clinics', scaled(SCALE_ONE.clinics)),
    patients: wholeFlag('--patients', scaled(SCALE_ONE.patients)),
    visits: wholeFlag('--visits', scaled(SCALE_ONE.visits)),
  };
  if (size.clinics < 1) throw new Error('--clinics must be at least 1');
  return size;
}

type Part = { part: string; rows: number; seconds: number; rowsPerSecond: number };

const parts: Part[] = [];
const number = new Intl.NumberFormat('pt-BR');

async function timed(part: string, work: () => Promise<number>): Promise<number> {
  const started = performance.now();
  const rows = await work();
  const seconds = (performance.now() - started) / 1000;
  const entry = { part, rows, seconds: Math.round(seconds * 10) / 10, rowsPerSecond: Math.round(rows / Math.max(seconds, 0.001)) };
  parts.push(entry);
  console.log(`${part}: ${number.format(rows)} linhas em ${entry.seconds.toFixed(1)} s (${number.format(entry.rowsPerSecond)} linhas/s)`);
  return rows;
}

type Prepared = { passwordHash: string; authSecret: string; platformPlanIds: Map<string, string> };

/**
 * Migrates, refuses a database that already has clinics, and writes what `npm start` writes on an empty database
 * (platform plans, settings, Clínica Demo with its accounts) through the application itself.
 */
async function prepareThroughTheApp(config: Config): Promise<Prepared> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const existing = await database.db.query.clinics.findFirst({ columns: { id: true } });
    if (existing) throw new Error('the database already has clinics: the generator writes into an empty database (a new --data-dir, or a new PostgreSQL database)');
    const authSecret = await resolveAuthSecret({ authSecret: config.authSecret, dataDir: config.dataDir });
    const app = await buildApp({ config, database, authSecret, logger: false });
    try {
      await seedDatabase({ db: database.db, auth: app.auth, cardBox: app.cardBox, withDemo: true });
      const context = await app.auth.$context;
      const passwordHash = await context.password.hash(DEMO_PASSWORD);
      const plans = await database.db.query.plans.findMany({ columns: { id: true, name: true } });
      return { passwordHash, authSecret, platformPlanIds: new Map(plans.map((plan) => [plan.name, plan.id])) };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

type Connection = { client: BulkClient; close: () => Promise<void> };

/**
 * A connection of the generator's own, without the server's statement time limit: one statement writes a tenth of
 * the visits.
 */
async function openBulkConnection(config: Config): Promise<Connection> {
  const setUp = ['set timezone = utc'];
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl, application_name: 'carteirinha-seed' });
    await client.connect();
    for (const statement of [...setUp, 'set synchronous_commit = off', 'set maintenance_work_mem = \'256MB\'']) await client.query(statement);
    return {
      client: { query: async (text, params) => toBulkResult(await client.query(text, params)) },
      close: () => client.end(),
    };
  }
  const folder = path.join(config.dataDir, 'pglite');
  // A statement can keep the thread for longer than the lock's usual refresh: the lock here tolerates it.
  const unlock = await lockDataDir(folder, (error) => console.warn(`aviso: trava da pasta de dados perdida (${error.message})`), { waitMs: 0, staleMs: 30 * 60_000, updateMs: 60_000 });
  const client = await PGlite.create(folder, { extensions: PGLITE_EXTENSIONS });
  for (const statement of setUp) await client.query(statement);
  return {
    client: { query: async (text, params) => { const result = await client.query<Record<string, unknown>>(text, params); return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length }; } },
    close: async () => {
      await client.close();
      await unlock();
      await securePrivateTree(config.dataDir);
    },
  };
}

function toBulkResult(result: pg.QueryResult): { rows: Record<string, unknown>[]; rowCount: number } {
  return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
}

/**
 * After the clinics (whose triggers write the history of what they pay the platform, migration 0006), foreign keys
 * are no longer checked (session_replication_role = replica, as pg_restore does): every row refers to rows written
 * before it by the same run, and checking seven keys per visit is most of the cost of writing it.
 * `--check-foreign-keys` keeps them checked.
 */
async function skipForeignKeyChecks(client: BulkClient): Promise<void> {
  if (process.argv.includes('--check-foreign-keys')) return;
  await client.query('set session_replication_role = replica');
}

type PeopleBuffer = { people: PersonSeed[]; subscriptions: SubscriptionSeed[]; dependents: DependentSeed[]; cards: CardSeed[] };

const emptyBuffer = (): PeopleBuffer => ({ people: [], subscriptions: [], dependents: [], cards: [] });

async function flushPeople(client: BulkClient, buffer: PeopleBuffer, passwordHash: string): Promise<void> {
  await insertPeople(client, buffer.people, passwordHash);
  await insertSubscriptions(client, buffer.subscriptions);
  await insertDependents(client, buffer.dependents);
  await insertCards(client, buffer.cards);
}

async function main(): Promise<void> {
  const size = sizeOf();
  const env: NodeJS.ProcessEnv = { ...process.env, JOBS_ENABLED: 'false', LOG_LEVEL: 'silent', NODE_ENV: 'production' };
  const dataDir = flag('--data-dir');
  const databaseUrl = flag('--database-url');
  if (dataDir) env.DATA_DIR = dataDir;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const config = loadConfig(env);
  const now = flag('--now') ? new Date(flag('--now') ?? '') : new Date();
  const random = seededRandom(wholeFlag('--seed', 24));
  const target = config.databaseUrl ? `PostgreSQL (${new URL(config.databaseUrl).pathname.slice(1)})` : `PGlite em ${path.join(config.dataDir, 'pglite')}`;
  console.log(`Gerando ${number.format(size.clinics)} clínicas, ${number.format(size.patients)} pacientes e ${number.format(size.visits)} atendimentos em ${target}`);

  const started = performance.now();
  let prepared: Prepared | undefined;
  await timed('migrações e demonstração', async () => {
    prepared = await prepareThroughTheApp(config);
    return 0;
  });
  if (!prepared) throw new Error('not prepared');
  const { passwordHash, authSecret, platformPlanIds } = prepared;
  const box = createCardSecretBox(authSecret);

  const connection = await openBulkConnection(config);
  const { client } = connection;
  const counts: Record<string, number> = {};
  try {
    const clinics = makeClinics(random, size.clinics, now);
    const perClinic = patientsPerClinic(clinics, size.patients);
    let serial = 0;
    const nextSerial = () => (serial += 1);
    await timed('clínicas, planos, serviços e equipes', async () => {
      await insertClinics(client, clinics, platformPlanIds);
      await skipForeignKeyChecks(client);
      const teams = clinics.flatMap((clinic, index) => makeTeam(random, clinic, perClinic[index] ?? 0, nextSerial));
      await insertPeople(client, teams, passwordHash);
      counts.staff = teams.length;
      return clinics.length + teams.length + clinics.reduce((sum, clinic) => sum + clinic.services.length + 2, 0);
    });

    await timed('pacientes, assinaturas, dependentes e cartões', async () => {
      const cpfs = new Set<string>();
      const numbers = new Set<string>();
      let buffer = emptyBuffer();
      let rows = 0;
      const flush = async () => {
        await flushPeople(client, buffer, passwordHash);
        rows += buffer.people.length * 4 + buffer.subscriptions.length + buffer.dependents.length + buffer.cards.length;
        counts.patients = (counts.patients ?? 0) + buffer.people.length;
        counts.dependents = (counts.dependents ?? 0) + buffer.dependents.length;
        counts.cards = (counts.cards ?? 0) + buffer.cards.length;
        buffer = emptyBuffer();
      };
      for (const [index, clinic] of clinics.entries()) {
        for (let n = 0; n < (perClinic[index] ?? 0); n += 1) {
          const patient = makePatient(random, clinic, now, nextSerial(), cpfs);
          buffer.people.push(patient.person);
          buffer.subscriptions.push(patient.subscription);
          buffer.dependents.push(...patient.dependents);
          buffer.cards.push(...makeCards(patient, box, numbers));
          if (buffer.people.length >= PATIENT_FLUSH) await flush();
        }
      }
      await flush();
      return rows;
    });

    counts.charges = await timed('cobranças', () => generateCharges(client, now));
    counts.visits = await timed('atendimentos', () =>
      generateVisits(client, now, size.visits, (done, total) => {
        if (process.stdout.isTTY) process.stdout.write(`  atendimentos: parte ${done} de ${total}\r`);
      }),
    );
    counts.validations = await timed('validações de cartão', () => generateValidations(client, now));
    // PGlite has no autovacuum (the server runs this a minute after it starts); PostgreSQL's would get to it later.
    await timed('VACUUM ANALYZE', async () => {
      await client.query('vacuum analyze');
      return 0;
    });
    const biggest = await client.query(
      `select c.slug, c.name,
              (select u.email from user_roles r join users u on u.id = r.user_id where r.clinic_id = c.id and r.role = 'clinic_admin' limit 1) as admin,
              (select u.email from user_roles r join users u on u.id = r.user_id where r.clinic_id = c.id and r.role = 'clinic_staff' limit 1) as staff,
              (select u.email from subscriptions s join users u on u.id = s.user_id where s.clinic_id = c.id and s.status = 'active' limit 1) as patient
       from clinics c where c.id = $1`,
      [clinics[0]?.id],
    );
    const sample = biggest.rows[0] ?? {};
    console.log(`\nTotal: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`A maior clínica: ${String(sample.name)} (${String(sample.slug)}.${config.mainDomain}); senha de todas as contas geradas: ${DEMO_PASSWORD}`);
    console.log(`  admin de clínica ${String(sample.admin)}, atendente ${String(sample.staff)}, paciente ativo ${String(sample.patient)}`);
    console.log(config.databaseUrl ? `Inicie o servidor com DATABASE_URL e o mesmo AUTH_SECRET (ou DATA_DIR=${config.dataDir}).` : `Inicie o servidor com DATA_DIR=${config.dataDir}.`);
    await appendResult('seed', {
      database: config.databaseUrl ? 'postgres' : 'pglite',
      size,
      counts,
      foreignKeysChecked: process.argv.includes('--check-foreign-keys'),
      totalSeconds: Math.round((performance.now() - started) / 100) / 10,
      parts,
    });
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
