import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateCpf } from '@brazilian-utils/brazilian-utils';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLINIC_SLUG } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';
import { solvedCaptchaHeaders } from '../../../test/captcha-kit.ts';
import { APP_DATABASE, asSuperuser, createAppDatabase, eventually, startCluster, tearDownProcessTest, type Cluster } from '../../../test/postgres-cluster.ts';
import { call, cookieOf, freePort, startServer, type Answer, type ServerProcess } from '../../../test/server-process.ts';
import { asaasPaymentObjectOf } from './webhook-envelope.ts';
import { WEBHOOK_PATH, WEBHOOK_TOKEN_HEADER } from './webhook-routes.ts';
import { WEBHOOK_EVENT_QUEUE } from './webhook-events.ts';

/**
 * Security checklist 33 (ADR 013 "The endpoint"): the real server process, killed with SIGKILL between the commit of
 * a webhook event (answered 200) and its processing, and inside the processing transaction, applies every event
 * exactly once after a restart; with the database down it never answers 200 (Asaas retries anything else). The
 * cluster is the test's own: it is locked, stopped and restarted, and the server is killed while connected to it.
 *
 * How the windows are held open without sleeping: the test locks the charge's row (SELECT … FOR UPDATE), which the
 * processing transaction locks right after the event's row. The first server runs without the job runner
 * (JOBS_ENABLED=false), so only the processing that follows the answer touches the event, and nothing claims its job.
 * For the window after the commit, that processing gives up on the lock (lock_timeout, 5 s) before the kill, leaving
 * the event stored and unprocessed; for the window inside the transaction, the kill comes while it waits.
 */

const WEBHOOK_TOKEN = 'token-dos-webhooks-de-teste-0123456789';
const PASSWORD = 'Senha-de-teste-2026!';
/** Statements of the killed server's processing, seen from pg_stat_activity. */
const SERVER_APPLICATION = 'carteirinha';


/** A pending Pix charge of a new patient of Clínica Demo, as the checkout made it (local provider). */
type Charge = {
  email: string;
  paymentId: string;
  subscriptionId: string;
  providerPaymentId: string;
  providerSubscriptionId: string;
  amountCents: number;
  dueDate: string;
};

describe('webhook events across kill -9 and a database outage (PostgreSQL)', () => {
  let cluster: Cluster;
  let dataDir: string;
  let port: number;
  let server: ServerProcess;

  const baseUrl = () => `http://127.0.0.1:${port}`;
  const clinicHost = () => `${DEMO_CLINIC_SLUG}.localhost:${port}`;
  const query = <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    asSuperuser(cluster, APP_DATABASE, async (client) => (await client.query<T>(text, values)).rows);

  function start(jobsEnabled: boolean): Promise<ServerProcess> {
    return startServer(dataDir, port, {
      DATABASE_URL: cluster.appDatabaseUrl,
      SEED_DEMO: 'true',
      PAYMENT_PROVIDER: 'local',
      ASAAS_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
      JOBS_ENABLED: String(jobsEnabled),
      // Only the job runner's warnings and errors: the log is searched for crashes below.
      LOG_LEVEL: 'warn',
    });
  }

  beforeAll(async () => {
    cluster = await startCluster('carteirinha-webhooks-pg-');
    await createAppDatabase(cluster);
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'carteirinha-webhooks-data-'));
    port = await freePort();
    server = await start(false);
  }, 120_000);

  afterAll(async () => {
    await tearDownProcessTest({ server, cluster, dataDir });
  }, 60_000);

  /** Signs a patient up on the clinic's site and checks out with Pix: one pending charge, through the API. */
  async function pendingCharge(): Promise<Charge> {
    const email = `paciente.${randomUUID()}@teste.dev`;
    const origin = `http://${clinicHost()}`;
    const challenge = await call(baseUrl(), 'GET', '/api/captcha/challenge', { host: clinicHost() });
    expect(challenge.status, challenge.body).toBe(200);
    const captcha = await solvedCaptchaHeaders(JSON.parse(challenge.body));
    const signUp = await call(baseUrl(), 'POST', '/api/auth/sign-up/email', { host: clinicHost(), headers: { origin, ...captcha }, body: { email, password: PASSWORD, name: 'Maria da Silva' } });
    expect(signUp.status, signUp.body).toBe(200);
    const cookie = cookieOf(signUp);
    const asPatient = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
      call(baseUrl(), method, url, { host: clinicHost(), headers: { cookie, origin, ...headers }, body });
    const plans = JSON.parse((await asPatient('GET', '/api/patient/subscription-plans')).body) as { items: Array<{ id: string }> };
    const terms = JSON.parse((await asPatient('GET', '/api/patient/terms')).body) as { id: string };
    const checkout = await asPatient(
      'POST',
      '/api/patient/subscriptions',
      {
        planId: plans.items[0]?.id,
        paymentMethod: 'pix',
        customerData: { name: 'Maria da Silva', email, cpfCnpj: generateCpf(), phone: '(11) 98765-4321' },
        termsId: terms.id,
        acceptTerms: true,
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(checkout.status, checkout.body).toBe(201);
    const created = JSON.parse(checkout.body) as { payment: { id: string; status: string }; subscription: { id: string } };
    expect(created.payment.status).toBe('pending');
    const [row] = await query<Omit<Charge, 'email'>>(
      `select p.id as "paymentId", p.subscription_id as "subscriptionId", p.provider_payment_id as "providerPaymentId",
              s.provider_subscription_id as "providerSubscriptionId", p.amount_cents as "amountCents",
              to_char(p.due_date, 'YYYY-MM-DD') as "dueDate"
         from payments p join subscriptions s on s.id = p.subscription_id where p.id = $1`,
      [created.payment.id],
    );
    if (!row) throw new Error('the checkout made no charge');
    expect(row.providerPaymentId).toMatch(/^loc_/);
    // The payer pays at the provider: its own record says so, and a settlement is read back from it (issue 22), so the
    // PAYMENT_RECEIVED below is believed.
    await query(`update local_provider_charges set status = 'RECEIVED', paid_at = now(), updated_at = now() where id = $1`, [row.providerPaymentId]);
    return { email, ...row };
  }

  /** PAYMENT_RECEIVED for the charge, shaped as Asaas posts it. */
  function receivedEvent(charge: Charge, eventId = `evt_${randomUUID().replaceAll('-', '')}`): Record<string, unknown> {
    return {
      id: eventId,
      event: 'PAYMENT_RECEIVED',
      dateCreated: new Date().toISOString().slice(0, 19).replace('T', ' '),
      payment: asaasPaymentObjectOf({
        id: charge.providerPaymentId,
        subscriptionId: charge.providerSubscriptionId,
        status: 'RECEIVED',
        method: 'pix',
        amountCents: charge.amountCents,
        dueDate: charge.dueDate,
        paidAt: new Date(),
        boletoUrl: null,
        invoiceUrl: null,
        externalReference: null,
      }),
    };
  }

  function deliver(event: Record<string, unknown>): Promise<Answer> {
    return call(baseUrl(), 'POST', WEBHOOK_PATH, { headers: { [WEBHOOK_TOKEN_HEADER]: WEBHOOK_TOKEN }, body: event });
  }

  /** Holds the charge's row locked in a transaction of the test's own until `release`. */
  async function lockCharge(paymentId: string): Promise<{ release: () => Promise<void> }> {
    const locker = new pg.Client({ connectionString: cluster.superuserUrl(APP_DATABASE) });
    locker.on('error', () => undefined);
    await locker.connect();
    await locker.query('begin');
    await locker.query('select id from payments where id = $1 for update', [paymentId]);
    return {
      release: async () => {
        await locker.query('rollback').catch(() => undefined);
        await locker.end().catch(() => undefined);
      },
    };
  }

  type EventState = { processed: boolean; attempts: number; lastError: string | null; rows: number };

  async function eventState(eventId: string): Promise<EventState> {
    const rows = await query<{ processed: boolean; attempts: number; last_error: string | null }>(
      `select processed_at is not null as processed, attempts, last_error from webhook_events where provider = 'local' and event_id = $1`,
      [eventId],
    );
    return { processed: rows[0]?.processed ?? false, attempts: rows[0]?.attempts ?? 0, lastError: rows[0]?.last_error ?? null, rows: rows.length };
  }

  /** The charge, unpaid and untouched: no settlement, no card, the subscription still pending. */
  async function expectUntouched(charge: Charge): Promise<void> {
    const [state] = await query<{ payment: string; subscription: string; expires: Date | null; cards: number; settled: number }>(
      `select p.status as payment, s.status as subscription, s.expires_at as expires,
              (select count(*)::int from cards c where c.subscription_id = s.id) as cards,
              (select count(*)::int from audit_log a where a.action = 'payment.settled' and a.entity_id = p.id) as settled
         from payments p join subscriptions s on s.id = p.subscription_id where p.id = $1`,
      [charge.paymentId],
    );
    expect(state).toEqual({ payment: 'pending', subscription: 'pending', expires: null, cards: 0, settled: 0 });
  }

  /**
   * Applied exactly once: paid; active and paid through exactly one cycle (the charge's period end, São Paulo
   * midnight; twice would be two); one card; one settlement in the audit trail; one stored event, processed; one job
   * for it; one 'Pagamento confirmado' e-mail.
   */
  async function expectAppliedOnce(charge: Charge, eventId: string): Promise<void> {
    // The card is the cards module's follow-up job (ADR 013, amended by issue 22), run by a later poll of the runner.
    const cardsOf = () => query<{ total: number }>(`select count(*)::int as total from cards where subscription_id = $1`, [charge.subscriptionId]);
    expect(await eventually(async () => (await cardsOf())[0]?.total === 1, 40)).toBe(true);
    const [state] = await query<{ payment: string; paid: boolean; subscription: string; oneCycle: boolean; cards: number; settled: number }>(
      `select p.status as payment, p.paid_at is not null as paid, s.status as subscription,
              s.expires_at = (p.period_end::timestamp at time zone 'America/Sao_Paulo') as "oneCycle",
              (select count(*)::int from cards c where c.subscription_id = s.id) as cards,
              (select count(*)::int from audit_log a where a.action = 'payment.settled' and a.entity_id = p.id) as settled
         from payments p join subscriptions s on s.id = p.subscription_id where p.id = $1`,
      [charge.paymentId],
    );
    expect(state).toEqual({ payment: 'received', paid: true, subscription: 'active', oneCycle: true, cards: 1, settled: 1 });
    expect(await eventState(eventId)).toMatchObject({ processed: true, rows: 1 });
    const jobs = await query<{ total: number }>(`select count(*)::int as total from jobs where queue = $1 and singleton_key = $2`, [WEBHOOK_EVENT_QUEUE, `local:${eventId}`]);
    expect(jobs[0]?.total).toBe(1);
    const mails = () => query<{ total: number }>(`select count(*)::int as total from email_outbox where "to" = $1 and subject = $2`, [charge.email, messages.paymentNotices.confirmedSubject]);
    expect(await eventually(async () => (await mails())[0]?.total === 1, 40)).toBe(true);
  }

  /** The job's row is finished (run by the restarted server's runner), and the event it carried with it. */
  async function jobCompleted(eventId: string): Promise<boolean> {
    const rows = await query<{ done: boolean }>(`select completed_at is not null as done from jobs where queue = $1 and singleton_key = $2`, [WEBHOOK_EVENT_QUEUE, `local:${eventId}`]);
    return rows[0]?.done === true && (await eventState(eventId)).processed;
  }

  /**
   * Waits (polling on one connection: the window is the server's 5 s lock timeout) until a processing statement of
   * the server waits for the charge's lock inside its transaction.
   */
  async function processingWaitsOnCharge(): Promise<boolean> {
    const observer = new pg.Client({ connectionString: cluster.superuserUrl(APP_DATABASE) });
    observer.on('error', () => undefined);
    await observer.connect();
    try {
      return await eventually(async () => {
        const { rows } = await observer.query<{ total: number }>(
          `select count(*)::int as total from pg_stat_activity
            where datname = $1 and application_name = $2 and wait_event_type = 'Lock' and xact_start is not null and query ilike '%from "payments"%for update%'`,
          [APP_DATABASE, SERVER_APPLICATION],
        );
        return rows[0]?.total === 1;
      }, 200, 10);
    } finally {
      await observer.end().catch(() => undefined);
    }
  }
  const serverBackends = () => query<{ total: number }>(`select count(*)::int as total from pg_stat_activity where datname = $1 and application_name = $2`, [APP_DATABASE, SERVER_APPLICATION]);

  const stored: Array<{ charge: Charge; event: Record<string, unknown>; eventId: string }> = [];

  it('kill -9 with one event committed and answered but not processed, and another inside its processing transaction: after restart the job applies each exactly once', async () => {
    // (a) Committed and answered 200; the processing that follows the answer cannot take the charge and gives up
    // (lock timeout): the event is stored, unprocessed, its job unclaimed, as in the instant after the commit.
    const first = await pendingCharge();
    const firstEvent = receivedEvent(first);
    const firstId = String(firstEvent.id);
    const firstLock = await lockCharge(first.paymentId);
    try {
      const answer = await deliver(firstEvent);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ received: true });
      expect(await eventually(async () => (await eventState(firstId)).lastError !== null)).toBe(true);
    } finally {
      await firstLock.release();
    }
    expect(await eventState(firstId)).toMatchObject({ processed: false, rows: 1 });
    const [job] = await query<{ attempts: number; completed: boolean }>(`select attempts, completed_at is not null as completed from jobs where singleton_key = $1`, [`local:${firstId}`]);
    expect(job).toEqual({ attempts: 0, completed: false });
    await expectUntouched(first);

    // (b) The processing transaction holds the event's row and waits for the charge's: inside it, uncommitted.
    const second = await pendingCharge();
    const secondEvent = receivedEvent(second);
    const secondId = String(secondEvent.id);
    const secondLock = await lockCharge(second.paymentId);
    try {
      expect((await deliver(secondEvent)).status).toBe(200);
      expect(await processingWaitsOnCharge()).toBe(true);
      await expect(query(`select id from webhook_events where event_id = $1 for update nowait`, [secondId])).rejects.toMatchObject({ code: '55P03' });
      server.child.kill('SIGKILL');
      await server.exited;
    } finally {
      await secondLock.release();
    }
    // The killed server's backend ends once it finds its client gone; its transaction never committed.
    expect(await eventually(async () => (await serverBackends())[0]?.total === 0)).toBe(true);
    for (const [charge, eventId] of [[first, firstId], [second, secondId]] as const) {
      expect(await eventState(eventId)).toMatchObject({ processed: false, rows: 1 });
      await expectUntouched(charge);
    }

    server = await start(true);
    expect(await eventually(async () => (await jobCompleted(firstId)) && (await jobCompleted(secondId)))).toBe(true);
    await expectAppliedOnce(first, firstId);
    await expectAppliedOnce(second, secondId);
    stored.push({ charge: first, event: firstEvent, eventId: firstId }, { charge: second, event: secondEvent, eventId: secondId });
  }, 90_000);

  it('a redelivery of those events after the restart, even concurrent, stores nothing and changes nothing', async () => {
    expect(stored).toHaveLength(2);
    const answers = await Promise.all(stored.flatMap(({ event }) => [deliver(event), deliver(event), deliver(event)]));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ received: true });
    }
    for (const { charge, eventId } of stored) await expectAppliedOnce(charge, eventId);
  });

  it('answers 503, never 200, while the database is down or the inbox is locked; the redelivery is stored and applied once', async () => {
    const charge = await pendingCharge();
    const event = receivedEvent(charge);
    const eventId = String(event.id);

    await cluster.pgCtl('-m', 'fast', 'stop');
    try {
      const answer = await deliver(event);
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toEqual(expect.any(String));
    } finally {
      await cluster.pgCtl('start');
    }
    expect(await eventState(eventId)).toMatchObject({ rows: 0 });
    // Serving again (its pool has replaced the connections the stop closed) before the next fault.
    expect(await eventually(async () => (await call(baseUrl(), 'GET', '/api/ready')).status === 200)).toBe(true);

    // The inbox table locked by someone else (a migration, say): the insert gives up after the lock timeout.
    const whileLocked = await asSuperuser(cluster, APP_DATABASE, async (client) => {
      await client.query('begin');
      await client.query('lock table webhook_events in access exclusive mode');
      try {
        return await deliver(event);
      } finally {
        await client.query('rollback');
      }
    });
    expect(whileLocked.status).toBe(503);
    expect(await eventState(eventId)).toMatchObject({ rows: 0 });
    await expectUntouched(charge);

    // Asaas retries: now stored, answered 200, and applied once (by the processing that follows the answer).
    expect(await eventually(async () => (await deliver(event)).status === 200, 40)).toBe(true);
    expect(await eventually(async () => (await eventState(eventId)).processed)).toBe(true);
    await expectAppliedOnce(charge, eventId);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/uncaught|unhandled/i);
  }, 90_000);
});
