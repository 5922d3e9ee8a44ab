/**
 * Issue 22: two provider events that each record a new charge of one subscription deadlocked. Each transaction
 * inserted its charge (the foreign key takes a KEY SHARE lock on the subscription's row) and then asked for the
 * subscription's row FOR UPDATE, which the other's share lock held: PostgreSQL aborted one of them. After a crash, a
 * backlog of 147 events met 144 deadlocks. The ledger now locks the subscription first, then the charge.
 *
 * PostgreSQL only (PGlite has one connection, so nothing interleaves): two pools, and the interleaving is forced by a
 * trigger on `payments` that holds each charge's insert until the other transaction has inserted too (a barrier on a
 * sequence, which every session sees at once), or for two seconds when the other cannot get there.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type DatabaseHandle } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import { createTestApp, databaseUrlOf, TEST_AUTH_SECRET, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, createPatient, createProgramme, newKey, subscriptionRowOf } from '../../../test/checkout-kit.ts';
import { createClinicAsaasKeyBox } from './providers/index.ts';
import { asaasPaymentObjectOf } from './webhook-envelope.ts';
import { processWebhookEvent, storeWebhookEvent, type ProcessDeps } from './webhook-events.ts';

const clock = new Date('2026-11-24T13:00:00Z');
let t: TestApp;
let second: DatabaseHandle;

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock });
  second = openPostgres(await databaseUrlOf(t), 2);
  // The barrier: each charge's insert waits (up to 2 s) until two inserts have happened, in any session.
  await t.db.execute(sql.raw(`
    create sequence lock_order_barrier;
    create function lock_order_barrier() returns trigger language plpgsql as $$
    declare
      waited int := 0;
    begin
      perform nextval('lock_order_barrier');
      while (select last_value from lock_order_barrier) < 2 and waited < 200 loop
        perform pg_sleep(0.01);
        waited := waited + 1;
      end loop;
      return new;
    end $$;
    create trigger lock_order_barrier after insert on payments for each row execute function lock_order_barrier();`));
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

describe('two events that each record a charge of one subscription', () => {
  it('queue on the subscription instead of deadlocking: both are applied on the first attempt', async () => {
    const programme = await createProgramme(t, 'Clínica da Ordem dos Bloqueios');
    const patient = await createPatient(t, programme);
    const created = (await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey())).json();
    const subscription = await subscriptionRowOf(t, created.subscription.id);
    // Checkout's own charge is in: the barrier counts from here.
    await t.db.execute(sql`select setval('lock_order_barrier', 1, false)`);

    // Two charges the provider made and reports overdue, neither seen before (their PAYMENT_CREATED lost).
    const stored: string[] = [];
    for (const dueDate of ['2026-11-10', '2026-11-12']) {
      const charge = { id: `loc_pay_${randomUUID()}`, subscriptionId: subscription.providerSubscriptionId, status: 'OVERDUE', method: 'pix' as const, amountCents: 9990, dueDate, paidAt: null };
      const envelope = { id: `evt_${randomUUID()}`, event: 'PAYMENT_OVERDUE', payment: asaasPaymentObjectOf({ ...charge, boletoUrl: null, invoiceUrl: null, externalReference: null }) };
      const id = await storeWebhookEvent(t.db, 'local', envelope, envelope, clock);
      if (!id) throw new Error('not stored');
      stored.push(id);
    }
    const log = { info: () => undefined, warn: () => undefined };
    const deps: ProcessDeps = { jobs: t.app.jobs, log, providers: t.app.paymentProviders, keyBox: createClinicAsaasKeyBox(TEST_AUTH_SECRET) };

    const [first, other] = stored;
    const results = await Promise.allSettled([processWebhookEvent(t.db, deps, first ?? '', clock), processWebhookEvent(second.db, deps, other ?? '', clock)]);
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    expect(failures).toEqual([]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value.outcome : null))).toEqual(['moved', 'moved']);
    const charges = await t.db.select({ status: payments.status }).from(payments).where(eq(payments.subscriptionId, subscription.id));
    expect(charges.map((charge) => charge.status).sort()).toEqual(['overdue', 'overdue', 'pending']);
    expect((await subscriptionRowOf(t, subscription.id)).status).toBe('overdue');
  });
});
