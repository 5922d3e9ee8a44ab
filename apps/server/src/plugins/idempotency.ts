import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route honours an `Idempotency-Key` header (issue 14): a retry of the same request (same user, key, route
     * and body) gets the first answer back instead of doing the work again: a lost answer never charges twice.
     */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key this request claimed, so its answer is kept under it. */
    idempotencyClaim: { userId: string; key: string } | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** A key and its answer are kept this long: far longer than any retry, short enough not to become an archive. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim still without an answer after this long belongs to a request that died with its process (the server's
 * request timeout is 30 s): a retry may take it over instead of being told "em processamento" for a day.
 */
const ABANDONED_CLAIM_MS = 5 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 1000;
/** Printable ASCII; the web sends a UUID. */
const KEY_PATTERN = /^[\x21-\x7e]{1,128}$/;

/** JSON with sorted keys: the same body hashes alike whatever order its fields were written in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The body as it is hashed: a card's number is cut to its last four digits and its security code left out, so the
 * stored hash of a checkout cannot be brute-forced back to a card (a card number has few unknown digits).
 */
function withoutCardSecrets(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const card: unknown = Reflect.get(body, 'creditCard');
  if (card === null || typeof card !== 'object') return body;
  const number: unknown = Reflect.get(card, 'number');
  const { ccv: _ccv, ...rest } = { ...card, ccv: undefined };
  return { ...body, creditCard: { ...rest, number: typeof number === 'string' ? number.slice(-4) : null } };
}

export function requestHashOf(body: unknown): string {
  return createHash('sha256').update(canonicalJson(withoutCardSecrets(body ?? null))).digest('hex');
}

function scopeOf(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? request.url}`;
}

function keyOf(request: FastifyRequest): string | null {
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return null;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) throw new AppError('VALIDATION', messages.idempotency.invalidKey);
  return header;
}

/** Deletes the keys past their day; the jobs runner may call it too. */
export async function pruneIdempotencyKeys(db: Database, now: Date = new Date()): Promise<number> {
  const removed = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return removed.length;
}

type Claim = { userId: string; key: string; scope: string; requestHash: string };

/**
 * Takes the key for this request, or says why not. The primary key (user, key) decides between two requests that
 * arrive together: exactly one insert wins. A stored row that expired, or a claim abandoned by a dead process, is
 * taken over in one conditional update, which again only one request can win.
 */
async function claim(db: Database, entry: Claim, now: Date): Promise<{ kind: 'claimed' } | { kind: 'replay'; statusCode: number; response: unknown }> {
  const inserted = await db.insert(idempotencyKeys).values({ ...entry, createdAt: now }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return { kind: 'claimed' };

  const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  const abandoned = new Date(now.getTime() - ABANDONED_CLAIM_MS);
  const takenOver = await db
    .update(idempotencyKeys)
    .set({ scope: entry.scope, requestHash: entry.requestHash, statusCode: null, response: null, createdAt: now })
    .where(
      and(
        eq(idempotencyKeys.userId, entry.userId),
        eq(idempotencyKeys.key, entry.key),
        or(
          lt(idempotencyKeys.createdAt, expired),
          and(isNull(idempotencyKeys.statusCode), lt(idempotencyKeys.createdAt, abandoned), eq(idempotencyKeys.requestHash, entry.requestHash)),
        ),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  if (takenOver.length > 0) return { kind: 'claimed' };

  const [existing] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, entry.userId), eq(idempotencyKeys.key, entry.key)))
    .limit(1);
  // Gone between the two statements (pruned, or its request failed and let it go): this request may try again.
  if (!existing) return claim(db, entry, now);
  if (existing.scope !== entry.scope || existing.requestHash !== entry.requestHash) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', messages.idempotency.keyReused);
  }
  if (existing.statusCode === null) throw new AppError('CONFLICT', messages.idempotency.inFlight);
  return { kind: 'replay', statusCode: existing.statusCode, response: existing.response };
}

function parsedPayload(payload: unknown): unknown {
  if (typeof payload !== 'string') return null;
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

/**
 * `config: { idempotent: true }` on a route makes it honour `Idempotency-Key`. The key is claimed after the body is
 * validated (a refused body claims nothing) and before the handler runs; a success is stored when it is sent. Any
 * other answer (a refusal, the provider or the database away) releases the key: nothing was done, so the retry is
 * checked and done afresh. Without the header the route works as any other.
 */
export function registerIdempotency(app: FastifyInstance, { db, now = () => new Date() }: { db: Database; now?: () => Date }): void {
  app.decorateRequest('idempotencyClaim', null);
  let lastPrune = 0;

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.idempotent !== true) return;
    const key = keyOf(request);
    if (key === null || !request.ctx) return;
    const at = now();
    if (at.getTime() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = at.getTime();
      await pruneIdempotencyKeys(db, at);
    }
    const userId = request.ctx.userId;
    const outcome = await claim(db, { userId, key, scope: scopeOf(request), requestHash: requestHashOf(request.body) }, at);
    if (outcome.kind === 'replay') {
      request.log.info({ scope: scopeOf(request) }, 'idempotency.replayed');
      reply.header('idempotent-replayed', 'true');
      return reply.status(outcome.statusCode).send(outcome.response);
    }
    request.idempotencyClaim = { userId, key };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotencyClaim;
    if (!held) return payload;
    request.idempotencyClaim = null;
    const where = and(eq(idempotencyKeys.userId, held.userId), eq(idempotencyKeys.key, held.key), isNull(idempotencyKeys.statusCode));
    // Only a success is kept: a refusal did nothing, and its retry (corrected or not) is checked afresh.
    if (reply.statusCode >= 300) {
      await db.delete(idempotencyKeys).where(where);
      return payload;
    }
    await db
      .update(idempotencyKeys)
      .set({ statusCode: reply.statusCode, response: parsedPayload(payload) })
      .where(where);
    return payload;
  });
}
