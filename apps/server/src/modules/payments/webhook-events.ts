import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { webhookEvents } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { applyLedgerEvent, type LedgerEffects, type LedgerOutcome } from './ledger.ts';
import type { Notify } from './notices.ts';
import { actionOfEvent } from './state-machine.ts';
import { snapshotOfPayment, webhookEnvelopeSchema, type WebhookEnvelope } from './webhook-envelope.ts';

/** The queue that processes stored provider events (one job per event: singleton key `<provider>:<event id>`). */
export const WEBHOOK_EVENT_QUEUE = 'webhook-event';

export type WebhookLog = {
  info: (details: Record<string, unknown>, message: string) => void;
  warn: (details: Record<string, unknown>, message: string) => void;
};

/** `cardBox`: the deployment's card box (createCardSecretBox); a first settlement issues the subscription's cards. */
export type ProcessDeps = { notify: Notify; log: WebhookLog; cardBox: SecretBox };

const MAX_ERROR_LENGTH = 2_000;

/**
 * Stores a provider event before anything else, unique by (provider, event id). Answers the stored row's id, or
 * null when the event was delivered before (at-least-once delivery: a duplicate changes nothing).
 */
export async function storeWebhookEvent(db: Database, provider: string, envelope: Pick<WebhookEnvelope, 'id' | 'event'>, payload: Record<string, unknown>, now: Date): Promise<string | null> {
  const [row] = await db
    .insert(webhookEvents)
    .values({ provider, eventId: envelope.id, eventType: envelope.event, payload, receivedAt: now })
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

export type ProcessResult = { outcome: LedgerOutcome | 'alreadyProcessed' | 'missing' | 'unreadable' | 'deferred' };

/**
 * Processes one stored event in one transaction: the event row is locked first (so the background run after the
 * answer and the job never both apply it), then the charge's; `processed_at` is set in the same transaction, so a
 * crash leaves it unprocessed for the job's retry and a success can never be applied twice. E-mails go after commit.
 */
export async function processWebhookEvent(db: Database, deps: ProcessDeps, storedId: string, now: Date): Promise<ProcessResult> {
  const effects: LedgerEffects = { notices: [] };
  let result: ProcessResult;
  try {
    result = await db.transaction(async (tx) => {
      const [event] = await tx.select().from(webhookEvents).where(eq(webhookEvents.id, storedId)).for('update').limit(1);
      if (!event) return { outcome: 'missing' as const };
      if (event.processedAt) return { outcome: 'alreadyProcessed' as const };
      const parsed = webhookEnvelopeSchema.safeParse(event.payload);
      let outcome: ProcessResult['outcome'] = 'unreadable';
      if (parsed.success) {
        const envelope = parsed.data;
        outcome = await applyLedgerEvent(
          tx,
          {
            provider: event.provider,
            action: actionOfEvent(envelope.event),
            charge: envelope.payment ? snapshotOfPayment(envelope.payment) : null,
            providerSubscriptionId: envelope.subscription?.id ?? envelope.payment?.subscription ?? null,
            source: `${event.provider}:${event.eventId}`,
          },
          effects,
          now,
          deps.cardBox,
        );
      }
      if (outcome === 'unmatched' && now.getTime() - event.receivedAt.getTime() < UNMATCHED_RETRY_MS) {
        await tx.update(webhookEvents).set({ attempts: sql`${webhookEvents.attempts} + 1`, lastError: 'unmatched: retried later' }).where(eq(webhookEvents.id, storedId));
        return { outcome: 'deferred' as const };
      }
      await tx
        .update(webhookEvents)
        .set({ processedAt: now, attempts: sql`${webhookEvents.attempts} + 1`, lastError: null })
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
  deps.notify(effects.notices);
  return result;
}
