/**
 * Load test of card validation, the clinic's hot path (issue 15): POST /api/clinic/card-validations with valid QR
 * tokens of N cards, as the demo receptionist, on the embedded PGlite and, when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names a PostgreSQL server, on a fresh database created there (dropped after). Appends the figures
 * to bench/results/card-validation.json.
 *
 *   npm run card-validation -w bench [-- --cards N]
 */
import autocannon from 'autocannon';
import { eq, sql } from 'drizzle-orm';
import { DEMO_ACCOUNTS, DEMO_CLINIC_SLUG, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import type { Database } from '../apps/server/src/db/client.ts';
import { cards, cardValidations, clinics, subscriptionPlans, subscriptions } from '../apps/server/src/db/schema.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';
import { createCardSecretBox } from '../apps/server/src/modules/cards/card-secrets.ts';
import { cardTokenAt } from '../apps/server/src/modules/cards/card-token.ts';
import { issueCardsForSubscription } from '../apps/server/src/modules/cards/issue.ts';
import { seedManyUsers } from '../apps/server/test/generators.ts';
import { BENCH_AUTH_SECRET, benchOnEachDatabase, type BenchServer, recordRun, signInCookie, startBenchServer } from './harness.ts';

function numberFlag(name: string, fallback: number): number {
  const flag = process.argv.indexOf(`--${name}`);
  return flag === -1 ? fallback : Number(process.argv[flag + 1]);
}

const CARDS = numberFlag('cards', 2_000);
const DURATION_SECONDS = 10;
const CONNECTIONS = 20;
const ORIGIN = 'http://127.0.0.1';

/** N patients of Clínica Demo, each with an active subscription and the card issued as payment confirmation does. */
async function seedCards(db: Database, total: number): Promise<Array<{ number: string; secretEncrypted: string }>> {
  const [clinic] = await db.select({ id: clinics.id }).from(clinics).where(eq(clinics.slug, DEMO_CLINIC_SLUG)).limit(1);
  const [plan] = await db.select({ id: subscriptionPlans.id }).from(subscriptionPlans).where(eq(subscriptionPlans.clinicId, clinic?.id ?? '')).limit(1);
  if (!clinic || !plan) throw new Error('the demo clinic and its plans are seeded first');
  await seedManyUsers(db, total, { prefix: 'cartao', clinicId: clinic.id });
  await db.execute(sql`
    insert into subscriptions (clinic_id, user_id, plan_id, status, started_at, expires_at)
    select ${clinic.id}::uuid, id, ${plan.id}::uuid, 'active', now(), now() + interval '1 year' from users where email like 'cartao.%'`);
  const ids = await db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.clinicId, clinic.id));
  if (ids.length < total) throw new Error(`expected ${total} subscriptions, got ${ids.length}`);
  const box = createCardSecretBox(BENCH_AUTH_SECRET);
  for (const { id } of ids) await issueCardsForSubscription(db, id, box);
  return db.select({ number: cards.number, secretEncrypted: cards.secretEncrypted }).from(cards).where(eq(cards.clinicId, clinic.id));
}

/** One load run: every request carries the next card's token of this moment (valid for 60–90 s, the run takes 10). */
async function load(server: BenchServer, cookie: string, tokens: string[]) {
  let next = 0;
  let valid = 0;
  const result = await autocannon({
    url: server.address,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/api/clinic/card-validations',
        headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ cardToken: tokens[next++ % tokens.length], source: 'qrcode' }) }),
        onResponse: (status, body) => {
          if (status === 200 && body.includes('"valid":true')) valid += 1;
        },
      },
    ],
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    validAnswers: valid,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function benchOn(postgresUrl: string | null): Promise<void> {
  // The per-user limit (60/min) would turn the run into 429s: the bench measures the path, not the limiter.
  const server = await startBenchServer({ postgresUrl, env: { CARD_VALIDATIONS_PER_MINUTE: '100000000' } });
  const { db } = server.database;
  try {
    await seedDatabase({ db, auth: server.app.auth, cardBox: server.app.cardBox, withDemo: true });
    const seedStarted = performance.now();
    const seeded = await seedCards(db, CARDS);
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
    await db.execute(sql`analyze`);
    const box = createCardSecretBox(BENCH_AUTH_SECRET);
    const secrets = seeded.map((card) => ({ number: card.number, secretHex: box.open(card.secretEncrypted) }));
    const cookie = await signInCookie(server, DEMO_ACCOUNTS.clinicStaff, DEMO_PASSWORD);
    const tokensNow = () => secrets.map((card) => cardTokenAt(card, new Date()).token);

    await load(server, cookie, tokensNow()); // warm-up: JIT, prepared statements, connection pool
    const figures = await load(server, cookie, tokensNow());
    const [audit] = await db.select({ total: sql<number>`count(*)::int` }).from(cardValidations);
    console.log(`${server.database.kind}: ${figures.requestsPerSecond} req/s, p50 ${figures.latencyP50Ms} ms, p99 ${figures.latencyP99Ms} ms, ${figures.validAnswers}/${figures.requests} valid`);
    await recordRun('card-validation', server, { cards: seeded.length, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS, seedSeconds, auditRows: audit?.total ?? 0, validation: figures });
  } finally {
    await server.close();
  }
}


async function main(): Promise<void> {
  if (!Number.isInteger(CARDS) || CARDS < 1) throw new Error('--cards takes a whole number of at least 1');
  await benchOnEachDatabase('bench_cards', benchOn);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
