import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, payments, subscriptions, webhookEvents } from '../../db/schema.ts';
import { saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { startAsaasDouble, type AsaasDouble } from '../../../test/asaas-double.ts';
import { createClinic, createSignedInUser, createTestApp, TEST_AUTH_SECRET, type TestApp } from '../../../test/helpers.ts';
import { RECONCILIATION_QUEUE } from './jobs.ts';
import { createClinicAsaasKeyBox, createPaymentProviders } from './providers/index.ts';
import { reconcileRecentCharges, type ReconcileDeps } from './reconciliation.ts';

const clock = new Date('2026-11-24T13:00:00Z');
let asaas: AsaasDouble;
let t: TestApp;
let deps: ReconcileDeps;
const warnings: Record<string, unknown>[] = [];

beforeAll(async () => {
  asaas = await startAsaasDouble({ now: () => clock });
  t = await createTestApp({ ASAAS_BASE_URL: asaas.baseUrl, ASAAS_API_KEY: asaas.apiKey }, { now: () => clock });
  deps = {
    providers: createPaymentProviders(t.config.payments, { db: t.db }),
    keyBox: createClinicAsaasKeyBox(TEST_AUTH_SECRET),
    jobs: t.app.jobs,
    log: { info: () => undefined, warn: (details) => void warnings.push(details) },
  };
});
afterAll(async () => {
  await t.close();
  await asaas.close();
});

/** A patient subscribed through Asaas whose first charge is in the ledger as pending (as checkout leaves it). */
async function asaasSubscription(suffix: string) {
  const clinic = await createClinic(t.db, `Clínica Asaas ${suffix}`);
  const { userId } = await createSignedInUser(t, 'patient', clinic.clinicId);
  const [subscription] = await t.db
    .insert(subscriptions)
    .values({ clinicId: clinic.clinicId, userId, planId: clinic.planId, status: 'pending', provider: 'asaas', providerSubscriptionId: `sub_${suffix}`, amountCents: 9990, createdAt: clock })
    .returning();
  if (!subscription) throw new Error('no subscription');
  const [payment] = await t.db
    .insert(payments)
    .values({ clinicId: clinic.clinicId, subscriptionId: subscription.id, provider: 'asaas', providerPaymentId: `pay_${suffix}`, method: 'pix', amountCents: 9990, dueDate: '2026-11-24', periodStart: '2026-11-24', periodEnd: '2026-12-24', createdAt: clock })
    .returning();
  if (!payment) throw new Error('no payment');
  asaas.addPayment({ id: `pay_${suffix}`, subscription: `sub_${suffix}`, value: 99.9, dueDate: '2026-11-24', billingType: 'PIX', status: 'PENDING' });
  return { subscription, payment };
}

async function statusOf(paymentId: string) {
  const [row] = await t.db.select({ status: payments.status }).from(payments).where(eq(payments.id, paymentId));
  return row?.status;
}

describe('reconciliation', () => {
  it('repairs a charge settled at Asaas whose webhook was dropped, and a charge whose PAYMENT_CREATED was lost', async () => {
    const { subscription, payment } = await asaasSubscription('dropped');
    asaas.settle('pay_dropped', 'RECEIVED');
    asaas.addPayment({ id: 'pay_lost_created', subscription: 'sub_dropped', value: 99.9, dueDate: '2026-12-24', billingType: 'PIX', status: 'PENDING' });

    const result = await reconcileRecentCharges(t.db, deps, clock);
    expect(result).toMatchObject({ repaired: 2, failedClinics: 0 });
    expect(await statusOf(payment.id)).toBe('received');
    const [activated] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    expect(activated?.status).toBe('active');
    expect(activated?.expiresAt?.toISOString()).toBe(saoPauloMidnight('2026-12-24').toISOString());
    const [created] = await t.db.select().from(payments).where(eq(payments.providerPaymentId, 'pay_lost_created'));
    expect(created).toMatchObject({ status: 'pending', dueDate: '2026-12-24', periodStart: '2026-12-24' });

    // Logged and audited, under a reconciliation event id.
    const audits = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'payment.reconciled'), eq(auditLog.entityId, payment.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.details).toMatchObject({ event: 'PAYMENT_RECEIVED', providerStatus: 'RECEIVED', status: 'received' });
    expect(warnings.some((entry) => entry.providerPaymentId === 'pay_dropped')).toBe(true);
    const [stored] = await t.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, 'reconciliation:pay_dropped:RECEIVED'));
    expect(stored?.processedAt).not.toBeNull();

    // A second run finds nothing left to repair.
    expect((await reconcileRecentCharges(t.db, deps, clock)).repaired).toBe(0);
  });

  it('the daily job does the same through the runner, and the late webhook then changes nothing', async () => {
    const { subscription, payment } = await asaasSubscription('by_job');
    asaas.settle('pay_by_job', 'RECEIVED');
    await t.app.jobs.enqueue(RECONCILIATION_QUEUE, {});
    await t.app.jobs.drain();
    expect(await statusOf(payment.id)).toBe('received');
    const [before] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));

    const late = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/asaas',
      headers: { 'asaas-access-token': t.config.payments.webhookToken },
      payload: { id: 'evt_late_one', event: 'PAYMENT_RECEIVED', payment: asaas.payments.get('pay_by_job') },
    });
    expect(late.statusCode).toBe(200);
    await t.app.background.settled();
    const [after] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    expect(after?.expiresAt?.toISOString()).toBe(before?.expiresAt?.toISOString());
  });

  it('a provider that cannot be reached is logged and skipped', async () => {
    await asaasSubscription('unreachable');
    asaas.failNext({ status: 500 });
    asaas.failNext({ status: 500 });
    asaas.failNext({ status: 500 });
    const result = await reconcileRecentCharges(t.db, deps, clock);
    expect(result.failedClinics).toBeGreaterThanOrEqual(1);
    expect(warnings.some((entry) => entry.reason !== undefined)).toBe(true);
  });
});
