/**
 * Load test of the payment webhook (security checklist 31–33, ADR 013): POST /api/webhooks/asaas with N distinct,
 * authenticated PAYMENT_RECEIVED events about N pending charges, plus redeliveries of some of them (some while the
 * first delivery is still in flight) and a few unauthenticated posts, at a given concurrency from a handful of
 * loopback addresses (Asaas posts from a few). Records p50/p99 of the 200 answers, then waits for the processing
 * that follows each answer and checks that every event was applied exactly once. On the embedded PGlite and, when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL names a PostgreSQL server, on a fresh database created there (dropped
 * after). Appends the figures to bench/results/webhooks.json.
 *
 *   npm run webhooks -w bench [-- --events N --concurrency C --duplicates FRACTION]
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { DEMO_CLINIC_SLUG } from '@carteirinha/shared/constants';
import type { Database } from '../apps/server/src/db/client.ts';
import { clinics, subscriptionPlans } from '../apps/server/src/db/schema.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';
import { asaasPaymentObjectOf } from '../apps/server/src/modules/payments/webhook-envelope.ts';
import { WEBHOOK_PATH, WEBHOOK_TOKEN_HEADER } from '../apps/server/src/modules/payments/webhook-routes.ts';
import { seedManyUsers } from '../apps/server/test/generators.ts';
import { benchOnEachDatabase, type BenchServer, recordRun, startBenchServer } from './harness.ts';

function numberFlag(name: string, fallback: number): number {
  const flag = process.argv.indexOf(`--${name}`);
  return flag === -1 ? fallback : Number(process.argv[flag + 1]);
}

const EVENTS = numberFlag('events', 1_000);
const CONCURRENCY = numberFlag('concurrency', 20);
/** The share of events delivered a second time. */
const DUPLICATES = numberFlag('duplicates', 0.2);
const UNAUTHENTICATED = 20;
/** Source addresses: the route allows 1 200 requests a minute per address, as for Asaas's few servers. */
const SOURCE_ADDRESSES = Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 2}`);
const TOKEN = `bench-webhook-token-${randomBytes(12).toString('hex')}`;
const PREFIX = 'webhook';

type Delivery = { body: string; authenticated: boolean };
type Outcome = { status: number; ms: number };

/** N pending Pix charges of N new patients of Clínica Demo, as checkout leaves them (local provider). */
const chargeRows = z.object({ rows: z.array(z.object({ paymentId: z.string(), subscriptionId: z.string(), amountCents: z.number(), dueDate: z.string() })) });
type Charge = z.infer<typeof chargeRows>['rows'][number];

async function seedPendingCharges(db: Database, total: number): Promise<Charge[]> {
  const [clinic] = await db.select({ id: clinics.id }).from(clinics).where(eq(clinics.slug, DEMO_CLINIC_SLUG)).limit(1);
  const [plan] = await db.select({ id: subscriptionPlans.id, priceCents: subscriptionPlans.priceCents }).from(subscriptionPlans).where(eq(subscriptionPlans.clinicId, clinic?.id ?? '')).limit(1);
  if (!clinic || !plan) throw new Error('the demo clinic and its plans are seeded first');
  await seedManyUsers(db, total, { prefix: PREFIX, clinicId: clinic.id });
  await db.execute(sql`
    insert into subscriptions (clinic_id, user_id, plan_id, status, amount_cents, payment_method, provider, provider_customer_id, provider_subscription_id)
    select ${clinic.id}::uuid, id, ${plan.id}::uuid, 'pending', ${plan.priceCents}, 'pix', 'local', 'loc_cus_' || id, 'loc_sub_' || id
    from users where email like ${`${PREFIX}.%`}`);
  const inserted = chargeRows.parse(
    await db.execute(sql`
    insert into payments (clinic_id, subscription_id, provider, provider_payment_id, method, amount_cents, due_date, status, provider_status, period_start, period_end)
    select clinic_id, id, 'local', 'loc_pay_' || id, 'pix', amount_cents, current_date + 3, 'pending', 'PENDING', current_date, (current_date + interval '1 month')::date
    from subscriptions where provider_subscription_id like 'loc_sub_%' and status = 'pending' and clinic_id = ${clinic.id}::uuid
    returning id as "paymentId", subscription_id as "subscriptionId", amount_cents as "amountCents", to_char(due_date, 'YYYY-MM-DD') as "dueDate"`),
  ).rows;
  if (inserted.length !== total) throw new Error(`expected ${total} charges, got ${inserted.length}`);
  // The payers paid at the embedded provider: its own record says so, which each settlement's read-back finds.
  await db.execute(sql`
    insert into local_provider_charges (id, clinic_id, subscription_id, status, method, amount_cents, due_date, paid_at)
    select provider_payment_id, clinic_id, 'loc_sub_' || subscription_id, 'RECEIVED', method, amount_cents, due_date, now()
    from payments where provider_payment_id like 'loc_pay_%' and clinic_id = ${clinic.id}::uuid`);
  return inserted;
}

/** PAYMENT_RECEIVED as Asaas posts it (its ids as the local provider writes them: `loc_pay_<id>`, `loc_sub_<id>`). */
function receivedEvent(charge: Charge, eventId: string): string {
  return JSON.stringify({
    id: eventId,
    event: 'PAYMENT_RECEIVED',
    dateCreated: new Date().toISOString().slice(0, 19).replace('T', ' '),
    payment: asaasPaymentObjectOf({
      id: `loc_pay_${charge.subscriptionId}`,
      subscriptionId: `loc_sub_${charge.subscriptionId}`,
      status: 'RECEIVED',
      method: 'pix',
      amountCents: charge.amountCents,
      dueDate: charge.dueDate,
      paidAt: new Date(),
      boletoUrl: null,
      invoiceUrl: null,
      externalReference: null,
    }),
  });
}

/** The deliveries in a shuffled order; each duplicate follows its first delivery closely (often concurrently). */
function deliveriesOf(bodies: string[]): Delivery[] {
  const order: Delivery[] = bodies.map((body) => ({ body, authenticated: true }));
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j] as Delivery, order[i] as Delivery];
  }
  const duplicates = Math.round(bodies.length * DUPLICATES);
  for (let d = 0; d < duplicates; d += 1) {
    const at = Math.floor(Math.random() * order.length);
    const original = order[at] as Delivery;
    order.splice(Math.min(order.length, at + 1 + Math.floor(Math.random() * CONCURRENCY)), 0, { body: original.body, authenticated: true });
  }
  for (let u = 0; u < UNAUTHENTICATED; u += 1) {
    order.splice(Math.floor(Math.random() * order.length), 0, { body: (order[u] as Delivery).body, authenticated: false });
  }
  return order;
}

function post(server: BenchServer, agent: http.Agent, delivery: Delivery): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      `${server.address}${WEBHOOK_PATH}`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', ...(delivery.authenticated ? { [WEBHOOK_TOKEN_HEADER]: TOKEN } : {}) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    request.end(delivery.body);
  });
}

/** `CONCURRENCY` workers, each with a keep-alive connection from one of the source addresses. */
async function deliverAll(server: BenchServer, deliveries: Delivery[]): Promise<{ outcomes: Array<Outcome & Delivery>; seconds: number }> {
  const agents = SOURCE_ADDRESSES.map((localAddress) => new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY, localAddress }));
  const outcomes: Array<Outcome & Delivery> = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      const agent = agents[worker % agents.length] as http.Agent;
      for (let i = next++; i < deliveries.length; i = next++) {
        const delivery = deliveries[i] as Delivery;
        outcomes.push({ ...delivery, ...(await post(server, agent, delivery)) });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const agent of agents) agent.destroy();
  return { outcomes, seconds };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round((sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0) * 10) / 10;
}

/** What the database says once processing is over: every charge applied exactly once, nothing more stored. */
const stateRows = z.object({ rows: z.array(z.record(z.string(), z.number())) });

async function appliedState(db: Database): Promise<Record<string, number>> {
  const [row] = stateRows.parse(
    await db.execute(sql`
      select
        (select count(*)::int from webhook_events where provider = 'local') as "storedEvents",
        (select count(*)::int from webhook_events where provider = 'local' and processed_at is null) as "unprocessedEvents",
        (select count(*)::int from jobs where queue = 'webhook-event') as "jobs",
        (select count(*)::int from jobs where queue = 'webhook-event' and completed_at is null) as "jobsLeft",
        (select count(*)::int from payments where provider_payment_id like 'loc_pay_%' and status = 'received') as "paidCharges",
        (select count(*)::int from audit_log where action = 'payment.settled') as "settlements",
        (select count(distinct entity_id)::int from audit_log where action = 'payment.settled') as "settledCharges",
        (select count(*)::int from subscriptions s join payments p on p.subscription_id = s.id
          where p.provider_payment_id like 'loc_pay_%' and s.status = 'active'
            and s.expires_at = (p.period_end::timestamp at time zone 'America/Sao_Paulo')) as "activeOneCycle",
        (select count(*)::int from cards c join subscriptions s on s.id = c.subscription_id where s.provider_subscription_id like 'loc_sub_%') as "cards"`),
  ).rows;
  return row ?? {};
}

async function benchOn(postgresUrl: string | null): Promise<void> {
  const server = await startBenchServer({ postgresUrl, env: { PAYMENT_PROVIDER: 'local', ASAAS_WEBHOOK_TOKEN: TOKEN } });
  const { db } = server.database;
  try {
    await seedDatabase({ db, auth: server.app.auth, cardBox: server.app.cardBox, withDemo: true });
    const charges = await seedPendingCharges(db, EVENTS);
    await db.execute(sql`analyze`);
    const bodies = charges.map((charge, i) => receivedEvent(charge, `evt_bench_${i}_${randomBytes(4).toString('hex')}`));
    const deliveries = deliveriesOf(bodies);

    const { outcomes, seconds } = await deliverAll(server, deliveries);
    const answeredMs = performance.now();
    await server.app.background.settled();
    const drainSeconds = Math.round((performance.now() - answeredMs) / 100) / 10;
    // The follow-ups the settlements wrote (cards, e-mails), which a running server's job runner would take.
    await server.app.jobs.drain();

    const authenticated = outcomes.filter((o) => o.authenticated);
    const ok = authenticated.filter((o) => o.status === 200).map((o) => o.ms).sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    for (const o of outcomes) statuses[`${o.authenticated ? 'token' : 'noToken'}:${o.status}`] = (statuses[`${o.authenticated ? 'token' : 'noToken'}:${o.status}`] ?? 0) + 1;
    const state = await appliedState(db);
    const expected = { storedEvents: EVENTS, unprocessedEvents: 0, jobs: EVENTS, jobsLeft: 0, paidCharges: EVENTS, settlements: EVENTS, settledCharges: EVENTS, activeOneCycle: EVENTS, cards: EVENTS };
    const exactlyOnce = Object.entries(expected).every(([key, value]) => state[key] === value) && ok.length === authenticated.length && statuses[`noToken:401`] === UNAUTHENTICATED;
    const figures = {
      events: EVENTS,
      duplicates: authenticated.length - EVENTS,
      unauthenticated: UNAUTHENTICATED,
      concurrency: CONCURRENCY,
      sourceAddresses: SOURCE_ADDRESSES.length,
      requestsPerSecond: Math.round(outcomes.length / seconds),
      answered200: ok.length,
      latencyP50Ms: percentile(ok, 50),
      latencyP99Ms: percentile(ok, 99),
      latencyMaxMs: percentile(ok, 100),
      statuses,
      drainSecondsAfterLastAnswer: drainSeconds,
      state,
      exactlyOnce,
    };
    console.log(`${server.database.kind}: ${figures.requestsPerSecond} req/s, 200 p50 ${figures.latencyP50Ms} ms, p99 ${figures.latencyP99Ms} ms, exactly once: ${exactlyOnce}`);
    await recordRun('webhooks', server, figures);
    if (!exactlyOnce) throw new Error(`not applied exactly once: ${JSON.stringify({ expected, state, statuses })}`);
  } finally {
    await server.close();
  }
}


async function main(): Promise<void> {
  if (!Number.isInteger(EVENTS) || EVENTS < UNAUTHENTICATED) throw new Error(`--events takes a whole number of at least ${UNAUTHENTICATED}`);
  if (!Number.isInteger(CONCURRENCY) || CONCURRENCY < 1) throw new Error('--concurrency takes a whole number of at least 1');
  if (!(DUPLICATES >= 0 && DUPLICATES <= 1)) throw new Error('--duplicates takes a fraction between 0 and 1');
  await benchOnEachDatabase('bench_webhooks', benchOn);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
