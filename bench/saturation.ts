/**
 * Where one PostgreSQL primary saturates first at 5 000 clinics, 5 M patients and 100 M visits (issue 28, ADR 034): a
 * projection from measurements on the generator's data (bench_scale_1: 500 clinics, 50 000 patients, 1 M visits),
 * not a guess. It measures, on that database,
 *   - the bytes per row (heap + indexes + TOAST) of the tables that grow with visits, patients and charges;
 *   - the time of the statements whose cost grows with the whole platform (the admin dashboard's and the reports'
 *     aggregates over every clinic) and with one clinic (the largest clinic's 12-week chart and its visits' search);
 * then scales each by how its rows grow (platform-wide ×100; per clinic ×10, since the average clinic grows from 100
 * to 1 000 patients) and sets the demand of the product's busiest hour against one machine's capacity.
 *
 *   npm run saturation -w bench -- --database-url postgres://postgres@127.0.0.1:54329/bench_scale_1
 *
 * Prints Markdown tables for bench/RESULTS.md and appends the run to results/saturation.json.
 */
import os from 'node:os';
import pg from 'pg';
import { appendResult } from './harness.ts';

const TARGET = { clinics: 5_000, patients: 5_000_000, visits: 100_000_000 };
/** Measured in bench/RESULTS.md on this machine (2 cores, PostgreSQL 15): validations per second, caller in one statement. */
const MEASURED_VALIDATIONS_PER_SECOND_2_CORES = 883;
/** Business hours a day, and how much busier the peak hour is than the average hour (a Monday morning). */
const BUSINESS_HOURS = 10;
const PEAK_HOUR_FACTOR = 3;
/** The generator's history spans two years (bench/scale/world.ts). */
const HISTORY_DAYS = 730;

type Measure = { name: string; ms: number };

function argument(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at === -1 ? undefined : process.argv[at + 1];
}

async function count(client: pg.Client, table: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
  return Number(rows[0]?.n ?? 0);
}

async function bytes(client: pg.Client, table: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>('select pg_total_relation_size($1::regclass) as n', [table]);
  return Number(rows[0]?.n ?? 0);
}

/** The statement's own execution time (EXPLAIN ANALYZE), best of three: the plan, not the machine's noise. */
async function timed(client: pg.Client, name: string, text: string, values: unknown[] = []): Promise<Measure> {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run += 1) {
    const { rows } = await client.query<{ 'QUERY PLAN': Array<{ 'Execution Time': number }> }>(`explain (analyze, format json) ${text}`, values);
    best = Math.min(best, rows[0]?.['QUERY PLAN'][0]?.['Execution Time'] ?? Number.NaN);
  }
  return { name, ms: best };
}

const gib = (value: number) => `${(value / 1024 ** 3).toFixed(1)} GiB`;

async function main(): Promise<void> {
  const url = argument('--database-url') ?? process.env.DATABASE_URL;
  if (!url) throw new Error('--database-url postgres://…/bench_scale_1 (the generator’s data: npm run seed -w bench)');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const now = { clinics: await count(client, 'clinics'), patients: await count(client, 'subscriptions'), visits: await count(client, 'visits') };
    const platformGrowth = TARGET.visits / now.visits;
    const clinicGrowth = TARGET.patients / TARGET.clinics / (now.patients / now.clinics);

    const tables = ['visits', 'card_validations', 'payments', 'cards', 'users', 'sessions', 'subscriptions', 'dependents', 'accounts', 'profiles', 'cpf_claims', 'user_roles', 'audit_logs', 'jobs'];
    let storageNow = 0;
    const perTable: Array<{ table: string; rows: number; bytes: number }> = [];
    for (const table of tables) {
      const exists = await client.query('select to_regclass($1) as r', [table]);
      if (!exists.rows[0]?.r) continue;
      const size = await bytes(client, table);
      storageNow += size;
      perTable.push({ table, rows: await count(client, table), bytes: size });
    }
    const storageTarget = storageNow * platformGrowth;

    const [largest] = (await client.query<{ id: string; n: string }>('select clinic_id as id, count(*) as n from visits group by clinic_id order by 2 desc limit 1')).rows;
    const platformWide = [
      await timed(client, 'reports, all time: visits and savings of every clinic', `select count(*), sum(discount_cents) from visits where status <> 'cancelado'`),
      await timed(client, 'platform-wide aggregate: payments received per month (like the MRR history)', `select date_trunc('month', paid_at), sum(amount_cents) from payments where status in ('received','confirmed') group by 1`),
    ];
    const perClinic = [
      await timed(client, 'clinic chart: the largest clinic’s visits per day, 12 weeks', `select date_trunc('day', performed_at), count(*) from visits where clinic_id = $1 and performed_at > now() - interval '84 days' group by 1`, [largest?.id]),
      await timed(client, 'clinic visits: the largest clinic’s search by a service name', `select id from visits where clinic_id = $1 and service_name ilike '%hemograma%' order by performed_at desc limit 25`, [largest?.id]),
    ];

    // The busiest hour's card validations at the target (1.09 validation attempts per visit, as generated).
    const validationsNow = await count(client, 'card_validations');
    const visitsPerDay = TARGET.visits / HISTORY_DAYS;
    const peakValidationsPerSecond = ((visitsPerDay * (validationsNow / now.visits)) / BUSINESS_HOURS / 3600) * PEAK_HOUR_FACTOR;
    const ramBytes = os.totalmem();

    const lines = [
      `Projection from ${now.clinics} clinics / ${now.patients} patients / ${now.visits} visits to ${TARGET.clinics} / ${TARGET.patients} / ${TARGET.visits} (platform-wide ×${platformGrowth.toFixed(0)}, per clinic ×${clinicGrowth.toFixed(0)}).`,
      '',
      '| resource | measured now | at the target | one primary (this machine: 2 cores, ' + gib(ramBytes) + ') | verdict |',
      '|---|---:|---:|---:|---|',
      `| card validations, busiest hour | ${MEASURED_VALIDATIONS_PER_SECOND_2_CORES} req/s capacity | ${peakValidationsPerSecond.toFixed(1)} req/s | ${((peakValidationsPerSecond / MEASURED_VALIDATIONS_PER_SECOND_2_CORES) * 100).toFixed(1)} % of 2 cores | far from saturation |`,
      `| storage (tables + indexes) | ${gib(storageNow)} | ${gib(storageTarget)} | disk: fine; RAM: ${((storageTarget / ramBytes) * 100).toFixed(0)} % of memory | **the working set outgrows RAM first**: the cold months of visits and payments are read from disk |`,
      ...platformWide.map((m) => `| ${m.name} | ${m.ms.toFixed(1)} ms | ${((m.ms * platformGrowth) / 1000).toFixed(2)} s | one core for that long per request | **linear in the platform**: needs roll-ups, not a bigger primary |`),
      ...perClinic.map((m) => `| ${m.name} | ${m.ms.toFixed(1)} ms | ${(m.ms * clinicGrowth).toFixed(1)} ms | per request | grows with one clinic only |`),
      '',
      '| table | rows now | size now | bytes per row | at the target |',
      '|---|---:|---:|---:|---:|',
      ...perTable.map((t) => `| ${t.table} | ${t.rows} | ${gib(t.bytes)} | ${t.rows ? Math.round(t.bytes / t.rows) : 0} | ${gib(t.bytes * platformGrowth)} |`),
    ];
    console.log(lines.join('\n'));
    await appendResult('saturation', { now, target: TARGET, storageNow, storageTarget, peakValidationsPerSecond, platformWide, perClinic, perTable, ramBytes });
  } finally {
    await client.end();
  }
}

await main();
