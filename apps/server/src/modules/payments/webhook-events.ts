import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog, clinicSettings, payments, subscriptions, webhookEvents } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { FollowUpQueue } from '../subscriptions/follow-ups.ts';
import { applyLedgerEvent, type LedgerOutcome, type ReadBack } from './ledger.ts';
import { merchantAccountFor, type PaymentProviders } from './providers/index.ts';
import type { ProviderCharge, ProviderName } from './providers/provider.ts';
import { actionOfEvent, type LedgerAction } from './state-machine.ts';
import { snapshotOfPayment, webhookEnvelopeSchema, type ChargeSnapshot, type WebhookEnvelope } from './webhook-envelope.ts';

/** The queue that processes stored provider events (one job per event: singleton key `<provider>:<event id>`). */
export const WEBHOOK_EVENT_QUEUE = 'webhook-event';

export type WebhookLog = {
  info: (details: Record<string, unknown>, message: string) => void;
  warn: (details: Record<string, unknown>, message: string) => void;
};

/**
 * What processing needs: the runner (the transitions' follow-ups are jobs), the log, and the providers with the
 * clinics' keys (a settlement is read back from the provider before it is applied).
 */
export type ProcessDeps = { jobs: FollowUpQueue; log: WebhookLog; providers: Pick<PaymentProviders, 'byName'>; keyBox: SecretBox };

const MAX_ERROR_LENGTH = 2_000;
/**
 * A clinic with its own webhook (registered when it connected its Asaas account) gets its events there; the shared
 * URL and token keep working for its events this long after, so nothing is lost while Asaas's old queue drains.
 */
export const SHARED_WEBHOOK_TRANSITION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Provider statuses that say a charge was paid: what a settlement's read-back must find. */
const PAID_AT_PROVIDER = new Set(['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']);

/**
 * Stores a provider event before anything else, unique by (provider, event id), with the clinic whose own URL it came
 * to (null: the shared URL). Answers the stored row's id, or null when the event was delivered before (at-least-once
 * delivery: a duplicate changes nothing).
 */
export async function storeWebhookEvent(db: Database, provider: string, envelope: Pick<WebhookEnvelope, 'id' | 'event'>, payload: Record<string, unknown>, now: Date, clinicId: string | null = null): Promise<string | null> {
  const [row] = await db
    .insert(webhookEvents)
    .values({ provider, eventId: envelope.id, eventType: envelope.event, payload, receivedAt: now, clinicId })
    .onConflictDoNothing({ target: [webhookEvents.provider, webhookEvents.eventId] })
    .returning({ id: webhookEvents.id });
  return row?.id ?? null;
}

/**
 * 'deferred': the event names a charge or subscription the ledger does not have yet — most often because it arrived
 * while checkout was still recording it. It stays unprocessed and the job retries it; after this long it is marked
 * processed as unmatched (a charge made outside the platform; reconciliation repairs anything of ours later).
 */
export const UNMATCHED_RETRY_MS = 10 * 60 * 1000;

export type ProcessResult = {
  outcome: LedgerOutcome | 'alreadyProcessed' | 'missing' | 'unreadable' | 'deferred' | 'foreignClinic' | 'sharedTokenRetired';
};

type StoredEvent = typeof webhookEvents.$inferSelect;

function isSettlement(action: LedgerAction): boolean {
  return action === 'settleReceived' || action === 'settleConfirmed';
}

/** The clinic a charge (or, for a charge not yet recorded, its subscription) belongs to, with its webhook's age. */
type ChargeOwner = { clinicId: string; providerSubscriptionId: string | null; planChangeId: string | null };

async function ownerOf(db: Database, provider: string, charge: ChargeSnapshot): Promise<ChargeOwner | null> {
  const [payment] = await db
    .select({ clinicId: payments.clinicId, providerSubscriptionId: subscriptions.providerSubscriptionId, planChangeId: payments.planChangeId })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, charge.id)))
    .limit(1);
  if (payment) return payment;
  if (!charge.providerSubscriptionId) return null;
  const [subscription] = await db
    .select({ clinicId: subscriptions.clinicId, providerSubscriptionId: subscriptions.providerSubscriptionId })
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, charge.providerSubscriptionId)))
    .limit(1);
  return subscription ? { ...subscription, planChangeId: null } : null;
}

/**
 * Whether the provider's charge is the one we made: a cycle's belongs to the subscription there; an upgrade's
 * (ADR 028) is a one-off charge of no subscription, made with the change's id as its reference.
 */
function isTheChargeWeMade(atProvider: ProviderCharge, owner: ChargeOwner): boolean {
  if (owner.planChangeId !== null) return atProvider.subscriptionId === null && (atProvider.externalReference === null || atProvider.externalReference === owner.planChangeId);
  return owner.providerSubscriptionId === null || atProvider.subscriptionId === owner.providerSubscriptionId;
}

async function subscriptionOwnerOf(db: Database, provider: string, providerSubscriptionId: string): Promise<string | null> {
  const [row] = await db
    .select({ clinicId: subscriptions.clinicId })
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, providerSubscriptionId)))
    .limit(1);
  return row?.clinicId ?? null;
}

/**
 * Whether the event may speak for the clinic it concerns: one that came to a clinic's own URL (with that clinic's
 * token) only for that clinic's charges; one on the shared URL while the clinic's own webhook is younger than the
 * transition. null: it may (or it names nothing of ours yet).
 */
async function refusalOf(db: Database, stored: StoredEvent, clinicId: string | null, now: Date): Promise<'foreignClinic' | 'sharedTokenRetired' | null> {
  if (clinicId === null) return null;
  if (stored.clinicId !== null) return stored.clinicId === clinicId ? null : 'foreignClinic';
  const [own] = await db.select({ registeredAt: clinicSettings.asaasWebhookRegisteredAt }).from(clinicSettings).where(eq(clinicSettings.clinicId, clinicId)).limit(1);
  const registeredAt = own?.registeredAt ?? null;
  return registeredAt !== null && now.getTime() - registeredAt.getTime() > SHARED_WEBHOOK_TRANSITION_DAYS * DAY_MS ? 'sharedTokenRetired' : null;
}

/**
 * Reads the charge back from the provider with its clinic's own key (as reconciliation does): it must be paid there,
 * be the subscription's, and its value is the one settled. The embedded provider answers the same read-back from its
 * own record. A provider that cannot be reached throws: the event's job tries again later.
 */
async function readBackOf(db: Database, deps: ProcessDeps, provider: ProviderName, charge: ChargeSnapshot, owner: ChargeOwner): Promise<ReadBack> {
  const account = await merchantAccountFor(db, deps.keyBox, owner.clinicId);
  const atProvider: ProviderCharge | null = await deps.providers.byName(provider).getCharge(account, charge.id);
  if (!atProvider) return { kind: 'unconfirmed', reason: 'unknown at the provider' };
  if (!PAID_AT_PROVIDER.has(atProvider.status)) return { kind: 'unconfirmed', reason: `status at the provider: ${atProvider.status}` };
  if (!isTheChargeWeMade(atProvider, owner)) return { kind: 'unconfirmed', reason: 'another subscription at the provider' };
  return { kind: 'confirmed', charge: atProvider };
}

function isProviderName(name: string): name is ProviderName {
  return name === 'local' || name === 'asaas';
}

type Prepared =
  | { kind: 'apply'; action: LedgerAction; charge: ChargeSnapshot | null; providerSubscriptionId: string | null; readBack: ReadBack | null }
  | { kind: 'refused'; outcome: 'foreignClinic' | 'sharedTokenRetired'; clinicId: string }
  | { kind: 'unreadable' };

/** Everything that needs the provider or no lock, before the processing transaction: who owns it, the read-back. */
async function prepare(db: Database, deps: ProcessDeps, stored: StoredEvent, now: Date, given: ProviderCharge | null): Promise<Prepared> {
  const parsed = webhookEnvelopeSchema.safeParse(stored.payload);
  if (!parsed.success) return { kind: 'unreadable' };
  const envelope = parsed.data;
  const action = actionOfEvent(envelope.event);
  const charge = envelope.payment ? snapshotOfPayment(envelope.payment) : null;
  const providerSubscriptionId = envelope.subscription?.id ?? envelope.payment?.subscription ?? null;
  const owner = charge ? await ownerOf(db, stored.provider, charge) : null;
  const clinicId = owner?.clinicId ?? (providerSubscriptionId ? await subscriptionOwnerOf(db, stored.provider, providerSubscriptionId) : null);
  const refusal = await refusalOf(db, stored, clinicId, now);
  if (refusal && clinicId) return { kind: 'refused', outcome: refusal, clinicId };
  let readBack: ReadBack | null = null;
  if (isSettlement(action) && charge) {
    // Not ours yet (checkout may be recording it right now): nothing is settled on the event's word alone.
    if (!owner || !isProviderName(stored.provider)) readBack = { kind: 'notYet' };
    else readBack = given ? { kind: 'confirmed', charge: given } : await readBackOf(db, deps, stored.provider, charge, owner);
  }
  return { kind: 'apply', action, charge, providerSubscriptionId, readBack };
}

/**
 * Processes one stored event. First, outside any transaction, what needs the provider: the charge's clinic, whether
 * the event may speak for it, and for a settlement the provider's own record of the charge (`verified` when the
 * caller already holds it: reconciliation). Then one transaction: the event row is locked (so the background run
 * after the answer and the job never both apply it), then the subscription's and the charge's; `processed_at` is set
 * in the same transaction, so a crash leaves it unprocessed for the job's retry and a success can never be applied
 * twice. Follow-ups (cards, e-mails, provider calls) are jobs written in that transaction.
 */
export async function processWebhookEvent(db: Database, deps: ProcessDeps, storedId: string, now: Date, verified: ProviderCharge | null = null): Promise<ProcessResult> {
  let result: ProcessResult;
  try {
    const [stored] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, storedId)).limit(1);
    if (!stored) return { outcome: 'missing' };
    if (stored.processedAt) return { outcome: 'alreadyProcessed' };
    const prepared = await prepare(db, deps, stored, now, verified);
    result = await db.transaction(async (tx) => {
      const [event] = await tx.select().from(webhookEvents).where(eq(webhookEvents.id, storedId)).for('update').limit(1);
      if (!event) return { outcome: 'missing' as const };
      if (event.processedAt) return { outcome: 'alreadyProcessed' as const };
      let outcome: ProcessResult['outcome'] = 'unreadable';
      if (prepared.kind === 'refused') {
        outcome = prepared.outcome;
        await tx.insert(auditLog).values({
          actorUserId: null,
          action: prepared.outcome === 'foreignClinic' ? 'payment.webhook_foreign_clinic' : 'payment.webhook_shared_token_retired',
          entity: 'payment',
          entityId: null,
          clinicId: prepared.clinicId,
          details: { source: `${event.provider}:${event.eventId}`, event: event.eventType, cameToClinic: event.clinicId },
        });
      } else if (prepared.kind === 'apply') {
        outcome = await applyLedgerEvent(
          tx,
          { provider: event.provider, action: prepared.action, charge: prepared.charge, providerSubscriptionId: prepared.providerSubscriptionId, source: `${event.provider}:${event.eventId}`, readBack: prepared.readBack },
          { jobs: deps.jobs, now },
        );
      }
      if (outcome === 'unmatched' && now.getTime() - event.receivedAt.getTime() < UNMATCHED_RETRY_MS) {
        await tx.update(webhookEvents).set({ attempts: sql`${webhookEvents.attempts} + 1`, lastError: 'unmatched: retried later' }).where(eq(webhookEvents.id, storedId));
        return { outcome: 'deferred' as const };
      }
      await tx
        .update(webhookEvents)
        .set({ processedAt: now, attempts: sql`${webhookEvents.attempts} + 1`, lastError: null, failedAt: null })
        .where(eq(webhookEvents.id, storedId));
      return { outcome };
    });
  } catch (error) {
    const message = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, MAX_ERROR_LENGTH);
    await db
      .update(webhookEvents)
      .set({ attempts: sql`${webhookEvents.attempts} + 1`, lastError: message })
      .where(eq(webhookEvents.id, storedId));
    throw error;
  }
  if (result.outcome !== 'alreadyProcessed' && result.outcome !== 'missing') {
    deps.log.info({ webhookEventId: storedId, outcome: result.outcome }, 'payments.webhook_processed');
  }
  return result;
}

/**
 * The event's job failed on its last attempt: it stays unprocessed, and the platform admin is alerted (the dashboard
 * lists events failed and not processed since) through `failed_at` and the audit trail.
 */
export async function markWebhookEventFailed(db: Database, storedId: string, reason: string, now: Date): Promise<void> {
  const [event] = await db
    .update(webhookEvents)
    .set({ failedAt: now })
    .where(and(eq(webhookEvents.id, storedId), sql`${webhookEvents.processedAt} is null`))
    .returning({ provider: webhookEvents.provider, eventId: webhookEvents.eventId, eventType: webhookEvents.eventType, clinicId: webhookEvents.clinicId });
  if (!event) return;
  await db.insert(auditLog).values({
    actorUserId: null,
    action: 'payment.webhook_failed',
    entity: 'payment',
    entityId: null,
    clinicId: event.clinicId,
    details: { webhookEventId: storedId, provider: event.provider, eventId: event.eventId, event: event.eventType, reason: reason.slice(0, MAX_ERROR_LENGTH) },
  });
}
