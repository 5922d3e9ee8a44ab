import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import pLimit from 'p-limit';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import { paymentSchema } from '@carteirinha/shared/contracts/payments';
import { errorResponses } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { clinicSettings, payments, subscriptions, webhookEvents } from '../../db/schema.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { toPayment } from '../checkout/payment-view.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { BackgroundTasks } from '../../lib/background.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { merchantAccountFor, type PaymentProviders } from './providers/index.ts';
import { processWebhookEvent, storeWebhookEvent, WEBHOOK_EVENT_QUEUE, type ProcessDeps } from './webhook-events.ts';
import { asaasPaymentObjectOf, webhookEnvelopeSchema, type WebhookEnvelope } from './webhook-envelope.ts';

export const WEBHOOK_PATH = '/api/webhooks/asaas';
/** A clinic's own webhook (registered at its Asaas account when it connected): events of its charges only. */
export const CLINIC_WEBHOOK_PATH = '/api/webhooks/asaas/clinics/:clinicId';
export function clinicWebhookPath(clinicId: string): string {
  return `/api/webhooks/asaas/clinics/${clinicId}`;
}
/** The header Asaas sends the webhook's authToken in (reference §3 "Webhook config and auth"). */
export const WEBHOOK_TOKEN_HEADER = 'asaas-access-token';
/** An Asaas event is a few kilobytes; anything much larger is not one. */
const WEBHOOK_BODY_LIMIT = 128 * 1024;
/** Generous: Asaas replays a paused queue in bursts, from a handful of addresses. */
const WEBHOOK_RATE_LIMIT = { max: 1_200, timeWindow: 60_000 };

export type PaymentRoutesOptions = {
  db: Database;
  /** Events and their follow-ups are jobs; `kick` runs what the answer just committed without waiting for a poll. */
  jobs: Pick<JobRunner, 'enqueue' | 'kick'>;
  background: BackgroundTasks;
  /** The shared token (ASAAS_WEBHOOK_TOKEN, or the local provider's per-start one). */
  webhookToken: string;
  now: () => Date;
  /** A settlement is read back from the provider with its clinic's key (opened with `keyBox`). */
  providers: Pick<PaymentProviders, 'byName' | 'local'>;
  keyBox: SecretBox;
  /** Opens the clinics' own webhook tokens (clinic_settings.asaas_webhook_token_encrypted). */
  webhookTokenBox: SecretBox;
  /**
   * How many stored events this process processes at once right after answering. The answers' inserts share the
   * database with that processing: on PGlite's single connection one at a time keeps each answer behind at most one
   * processing transaction instead of all those of a burst (bench/RESULTS.md, webhooks).
   */
  inlineConcurrency: number;
};

/**
 * Events waiting for inline processing beyond which the job runner takes them instead: a bound on memory only. The
 * runner claims a few jobs every few seconds, far slower than this process drains its backlog, so a burst (a paused
 * queue replayed) is best processed here.
 */
const MAX_INLINE_BACKLOG = 10_000;

/** Constant-time comparison over equal-length digests, so neither the content nor the length of the token leaks. */
export function webhookTokenMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Which of our providers an event is about. Both post to this endpoint with the same token; the embedded provider's
 * ids carry its prefix (providers/local.ts: `loc_pay_…`, `loc_sub_…`), so its events never touch an Asaas row.
 */
export function providerOfEnvelope(envelope: WebhookEnvelope): 'local' | 'asaas' {
  const id = envelope.payment?.id ?? envelope.subscription?.id ?? '';
  return id.startsWith('loc_') ? 'local' : 'asaas';
}

const webhookAnswerSchema = z.object({ received: z.literal(true) });
const clinicWebhookParamsSchema = z.object({ clinicId: z.uuid() });

/** The clinic's own webhook token, opened; null when it has none (never connected, or disconnected). */
async function clinicWebhookToken(db: Database, box: SecretBox, clinicId: string): Promise<string | null> {
  const [row] = await db.select({ sealed: clinicSettings.asaasWebhookTokenEncrypted }).from(clinicSettings).where(eq(clinicSettings.clinicId, clinicId)).limit(1);
  if (!row?.sealed) return null;
  try {
    return box.open(row.sealed);
  } catch {
    // Sealed under another AUTH_SECRET: the clinic admin connects again, which registers a new token.
    return null;
  }
}

type OwnCharge = { payment: typeof payments.$inferSelect; providerSubscriptionId: string | null };

async function findOwnCharge(db: Database, clinicId: string, userId: string, paymentId: string): Promise<OwnCharge | null> {
  return withTenantScope(db, clinicId, async (tx) => {
    const [row] = await tx
      .select({ payment: payments, providerSubscriptionId: subscriptions.providerSubscriptionId })
      .from(payments)
      .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
      .where(and(eq(payments.id, paymentId), eq(payments.clinicId, clinicId), eq(subscriptions.userId, userId)))
      .limit(1);
    return row ?? null;
  });
}

/** The envelope Asaas would post for this charge being paid: RECEIVED for Pix and boleto, CONFIRMED for a card. */
export function simulatedPaymentEvent(charge: OwnCharge, now: Date): Record<string, unknown> {
  const { payment } = charge;
  const confirmed = payment.method === 'credit_card';
  return {
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    event: confirmed ? 'PAYMENT_CONFIRMED' : 'PAYMENT_RECEIVED',
    dateCreated: now.toISOString().slice(0, 19).replace('T', ' '),
    payment: asaasPaymentObjectOf({
      id: payment.providerPaymentId,
      subscriptionId: charge.providerSubscriptionId,
      status: confirmed ? 'CONFIRMED' : 'RECEIVED',
      method: payment.method,
      amountCents: payment.amountCents,
      dueDate: payment.dueDate,
      paidAt: now,
      boletoUrl: payment.boletoUrl,
      invoiceUrl: payment.invoiceUrl,
      externalReference: null,
    }),
  };
}

/** The provider webhook (ADR 013) and the embedded provider's 'Simular pagamento' (issue 14). */
export const paymentRoutes: FastifyPluginAsyncZod<PaymentRoutesOptions> = async (app, options) => {
  const { db } = options;
  const processDeps = (log: FastifyRequest['log']): ProcessDeps => ({ jobs: options.jobs, log, providers: options.providers, keyBox: options.keyBox });
  const inline = pLimit(options.inlineConcurrency);
  // At shutdown what is still waiting is not started: each event's job, written with it, processes it later.
  let closing = false;
  app.addHook('preClose', () => {
    closing = true;
  });
  const processInline = (log: FastifyRequest['log'], storedId: string, now: Date) =>
    inline(async () => {
      if (closing) return;
      await processWebhookEvent(db, processDeps(log), storedId, now);
      // Its follow-ups (cards above all) run now rather than at the next poll.
      options.jobs.kick();
    });

  /** Stores the event with its job, answers, and processes it here after the answer (or leaves it to its job). */
  async function receive(request: FastifyRequest, envelope: WebhookEnvelope, clinicId: string | null): Promise<{ received: true }> {
    const provider = providerOfEnvelope(envelope);
    const now = options.now();
    // Stored first, with its job, in one transaction: an event is never stored without the work that processes it.
    const storedId = await db.transaction(async (tx) => {
      const id = await storeWebhookEvent(tx, provider, envelope, envelope, now, clinicId);
      if (id) await options.jobs.enqueue(WEBHOOK_EVENT_QUEUE, { webhookEventId: id }, { singletonKey: `${provider}:${envelope.id}`, tx });
      return id;
    });
    if (!storedId) {
      request.log.info({ provider, eventId: envelope.id }, 'payments.webhook_duplicate');
    } else if (inline.pendingCount >= MAX_INLINE_BACKLOG) {
      request.log.info({ provider, eventId: envelope.id }, 'payments.webhook_left_to_job');
    } else {
      // Answer at once (only a 200 counts for Asaas), then process here, a few at a time, so that the event settles
      // right away even on a lone server; its job (the runner) covers a crash, or a burst beyond the backlog.
      const afterAnswer = new Promise<void>((resolve) => setImmediate(resolve));
      options.background.run(afterAnswer.then(() => processInline(request.log, storedId, now)), 'webhook event');
    }
    return { received: true as const };
  }

  app.post(
    WEBHOOK_PATH,
    {
      // A provider's server posts here: no session, no Origin rules; the token below is the authentication.
      config: { access: 'public', crossOrigin: 'webhook', rateLimit: WEBHOOK_RATE_LIMIT },
      bodyLimit: WEBHOOK_BODY_LIMIT,
      // Before the body is even parsed: a wrong or missing token stores nothing and learns nothing about the body.
      onRequest: async (request) => {
        if (!webhookTokenMatches(request.headers[WEBHOOK_TOKEN_HEADER], options.webhookToken)) {
          request.log.warn({ path: WEBHOOK_PATH }, 'payments.webhook_unauthenticated');
          throw new AppError('UNAUTHENTICATED');
        }
      },
      schema: {
        tags: ['webhooks'],
        summary: 'Eventos do provedor de pagamento (Asaas; o provedor local usa o mesmo endereço)',
        body: webhookEnvelopeSchema,
        response: { 200: webhookAnswerSchema, ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => receive(request, request.body, null),
  );

  app.post(
    CLINIC_WEBHOOK_PATH,
    {
      config: { access: 'public', crossOrigin: 'webhook', rateLimit: WEBHOOK_RATE_LIMIT },
      bodyLimit: WEBHOOK_BODY_LIMIT,
      // The clinic's own token, before the body is read: another clinic's token, or none, stores nothing.
      onRequest: async (request) => {
        const params = clinicWebhookParamsSchema.safeParse(request.params);
        const expected = params.success ? await clinicWebhookToken(db, options.webhookTokenBox, params.data.clinicId) : null;
        if (!expected || !webhookTokenMatches(request.headers[WEBHOOK_TOKEN_HEADER], expected)) {
          request.log.warn({ path: CLINIC_WEBHOOK_PATH }, 'payments.webhook_unauthenticated');
          throw new AppError('UNAUTHENTICATED');
        }
      },
      schema: {
        tags: ['webhooks'],
        summary: 'Eventos da conta Asaas de uma clínica (o endereço e o token próprios dela, registrados ao conectar a conta)',
        params: clinicWebhookParamsSchema,
        body: webhookEnvelopeSchema,
        response: { 200: webhookAnswerSchema, ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => receive(request, request.body, request.params.clinicId),
  );

  app.post(
    '/api/patient/payments/:id/simulate',
    {
      config: { access: 'patient:programme' },
      schema: {
        tags: ['paciente'],
        summary: 'Simula o pagamento de uma cobrança do provedor local (entregue pelo mesmo webhook de um provedor real)',
        params: idParamsSchema,
        response: { 200: paymentSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const charge = await findOwnCharge(db, tenant.clinicId, tenant.userId, request.params.id);
      if (!charge || charge.payment.provider !== 'local' || (charge.payment.status !== 'pending' && charge.payment.status !== 'overdue')) {
        throw new AppError('NOT_FOUND', messages.paymentNotices.simulateUnavailable);
      }
      // The payer pays at the provider first (its own record says so), then the provider tells us, as Asaas would.
      const account = await merchantAccountFor(db, options.keyBox, tenant.clinicId);
      if (!(await options.providers.local.payerPaid(account, charge.payment.providerPaymentId))) throw new AppError('NOT_FOUND', messages.paymentNotices.simulateUnavailable);
      const event = simulatedPaymentEvent(charge, options.now());
      const delivered = await app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { [WEBHOOK_TOKEN_HEADER]: options.webhookToken }, payload: event });
      if (delivered.statusCode !== 200) {
        request.log.error({ status: delivered.statusCode }, 'payments.simulate_delivery_failed');
        throw new AppError('SERVICE_UNAVAILABLE');
      }
      // The delivery answered before processing (as for Asaas); the patient waits for the outcome here.
      await processStored(db, processDeps(request.log), 'local', String(event.id), options.now());
      options.jobs.kick();
      const [updated] = await withTenantScope(db, tenant.clinicId, (tx) =>
        tx.select().from(payments).where(and(eq(payments.id, charge.payment.id), eq(payments.clinicId, tenant.clinicId))).limit(1),
      );
      if (!updated) throw new AppError('NOT_FOUND');
      return toPayment(updated);
    },
  );
};

/** Processes a stored event now if nothing has yet (idempotent: a processed event is left alone). */
async function processStored(db: Database, deps: ProcessDeps, provider: string, eventId: string, now: Date): Promise<void> {
  const [stored] = await db.select({ id: webhookEvents.id }).from(webhookEvents).where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, eventId))).limit(1);
  if (stored) await processWebhookEvent(db, deps, stored.id, now);
}
