/**
 * The embedded provider's renewals. Asaas's recurring subscription makes each cycle's charge ahead of its due date
 * (PAYMENT_CREATED); the local provider keeps no state and makes none, so without this every local subscription
 * would simply expire after its first cycle. Here the next charge is made the way the local provider makes a first
 * one (a real Pix BR Code and QR, a boleto line for our printable page), due on the paid-through date, where its
 * period starts, and recorded in the provider's own record as the provider would.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gte, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog, payments, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import { localBoletoUrl } from '../checkout/payment-view.ts';
import { boletoDigitableLine } from './providers/boleto-line.ts';
import { merchantAccountFor } from './providers/index.ts';
import { demoPixKeyOf, localPixCharge, recordLocalCharge } from './providers/local.ts';
import { lockSubscription, nextCycleAmountOf } from '../subscriptions/lifecycle.ts';
import { addCycleToDay } from '../subscriptions/periods.ts';
import type { WebhookLog } from './webhook-events.ts';

/** How long before the paid-through date the next charge exists (so the 3-day reminder has something to remind of). */
export const LOCAL_RENEWAL_DAYS_AHEAD = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Charges that count for a cycle: paid, or still to be paid. One refunded or deleted before it was paid bought nothing. */
const COUNTING_STATUSES = ['pending', 'overdue', 'confirmed', 'received'] as const;

export type LocalRenewalDeps = { keyBox: SecretBox; pixKey: string | undefined; log: WebhookLog };

type Candidate = { id: string };

/** Live local subscriptions paid through a date within the window that have no charge for the next cycle yet. */
async function candidatesOf(db: Database, now: Date): Promise<Candidate[]> {
  const nextCycleCharged = sql`exists (select 1 from ${payments} p where p.subscription_id = ${subscriptions.id} and p.status in ('pending', 'overdue', 'confirmed', 'received')
    and p.period_start >= (${subscriptions.expiresAt} at time zone 'America/Sao_Paulo')::date)`;
  return db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, 'local'),
        eq(subscriptions.status, 'active'),
        isNull(subscriptions.canceledAt),
        isNotNull(subscriptions.expiresAt),
        lte(subscriptions.expiresAt, new Date(now.getTime() + LOCAL_RENEWAL_DAYS_AHEAD * DAY_MS)),
        gte(subscriptions.expiresAt, new Date(now.getTime() - LOCAL_RENEWAL_DAYS_AHEAD * DAY_MS)),
        sql`not ${nextCycleCharged}`,
      ),
    )
    .limit(500);
}

type Renewal = typeof payments.$inferInsert;

async function renewalOf(db: Database, deps: LocalRenewalDeps, subscriptionId: string): Promise<Renewal | null> {
  const [row] = await db
    .select({ subscription: subscriptions, plan: { name: subscriptionPlans.name, priceCents: subscriptionPlans.priceCents, billingCycle: subscriptionPlans.billingCycle } })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(eq(subscriptions.id, subscriptionId))
    .limit(1);
  const expiresAt = row?.subscription.expiresAt;
  if (!row || !expiresAt) return null;
  const { subscription, plan } = row;
  const method = subscription.paymentMethod ?? 'pix';
  // A downgrade asked for takes effect with this cycle: it is charged at the new plan's price (ADR 028).
  const amountCents = (await nextCycleAmountOf(db, subscription)) ?? plan.priceCents;
  if (amountCents <= 0) return null;
  const dueDate = saoPauloDay(expiresAt);
  const id = randomUUID();
  const providerPaymentId = `loc_pay_${randomUUID()}`;
  const base: Renewal = {
    id,
    clinicId: subscription.clinicId,
    subscriptionId,
    provider: 'local',
    providerPaymentId,
    method,
    amountCents,
    dueDate,
    status: 'pending',
    providerStatus: 'PENDING',
    periodStart: dueDate,
    periodEnd: addCycleToDay(dueDate, plan.billingCycle),
  };
  switch (method) {
    case 'pix': {
      const account = await merchantAccountFor(db, deps.keyBox, subscription.clinicId);
      const pix = await localPixCharge({ pixKey: deps.pixKey ?? demoPixKeyOf(subscription.clinicId), account, amountCents, txid: id.replaceAll('-', '').slice(0, 25), description: plan.name });
      return { ...base, pixPayload: pix.pixPayload, pixQrCodePng: pix.pixQrCodePng };
    }
    case 'boleto':
      return { ...base, boletoUrl: localBoletoUrl(id), boletoDigitableLine: boletoDigitableLine({ amountCents, dueDate, reference: providerPaymentId }) };
    case 'credit_card': {
      // The embedded provider keeps no card: the charge waits for the patient (or 'Simular pagamento').
      const [previous] = await db
        .select({ cardSummary: payments.cardSummary })
        .from(payments)
        .where(and(eq(payments.subscriptionId, subscriptionId), isNotNull(payments.cardSummary)))
        .orderBy(desc(payments.createdAt))
        .limit(1);
      return { ...base, cardSummary: previous?.cardSummary ?? null };
    }
  }
}

/**
 * Makes the next cycle's charge of each local subscription whose paid-through date is near (part of the daily
 * 'payment-reminders' job). Inserted under the subscription's lock after checking again, so two servers never make
 * two charges for one cycle.
 */
export async function createLocalRenewals(db: Database, deps: LocalRenewalDeps, now: Date): Promise<number> {
  let created = 0;
  for (const candidate of await candidatesOf(db, now)) {
    const renewal = await renewalOf(db, deps, candidate.id);
    if (!renewal) continue;
    const inserted = await db.transaction(async (tx) => {
      const locked = await lockSubscription(tx, candidate.id);
      if (!locked || locked.status !== 'active' || locked.canceledAt !== null) return false;
      const [existing] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.subscriptionId, candidate.id), inArray(payments.status, [...COUNTING_STATUSES]), gte(payments.periodStart, renewal.periodStart ?? renewal.dueDate)))
        .limit(1);
      if (existing) return false;
      await tx.insert(payments).values({ ...renewal, createdAt: now });
      // The embedded provider's own record of the charge it is making: what a settlement of it is read back from.
      await recordLocalCharge(tx, renewal.clinicId, { id: renewal.providerPaymentId, subscriptionId: locked.providerSubscriptionId, status: 'PENDING', method: renewal.method, amountCents: renewal.amountCents, dueDate: renewal.dueDate, paidAt: null }, now);
      await tx.insert(auditLog).values({ actorUserId: null, action: 'payment.renewal_created', entity: 'payment', entityId: renewal.id ?? null, clinicId: renewal.clinicId, details: { subscriptionId: candidate.id, dueDate: renewal.dueDate, provider: 'local' } });
      return true;
    });
    if (inserted) created += 1;
  }
  if (created > 0) deps.log.info({ created }, 'payments.local_renewals_created');
  return created;
}
