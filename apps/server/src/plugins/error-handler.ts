import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { defaultErrorMessage, type ErrorCode, type ErrorResponse } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import { AppError } from '../lib/app-error.ts';
import { databaseErrorCode, isDatabaseUnavailable } from '../lib/db-errors.ts';

/** Seconds a client should wait before retrying a 503: the pool reconnects as soon as the database is back. */
export const RETRY_AFTER_SECONDS = '5';

function body(code: ErrorCode | string, message: string, errorId?: string): ErrorResponse {
  return { error: { code, message, ...(errorId ? { errorId } : {}) } };
}

/** Maps Fastify's own 4xx errors (bad JSON, body too large, …) to our codes and pt-BR messages. */
function codeOfClientError(error: FastifyError): ErrorCode {
  if (error.statusCode === 413) return 'PAYLOAD_TOO_LARGE';
  if (error.statusCode === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (error.statusCode === 429) return 'RATE_LIMITED';
  if (error.statusCode === 404) return 'ROUTE_NOT_FOUND';
  if (error.statusCode === 401) return 'UNAUTHENTICATED';
  if (error.statusCode === 403) return 'FORBIDDEN';
  return 'VALIDATION';
}

/**
 * What Fastify's router answers before any hook or handler runs (a path with a broken escape, a path parameter past
 * `maxParamLength`): the same `{ error: { code, message } }` in pt-BR instead of Fastify's own English body. Passed
 * to Fastify as `frameworkErrors`.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const code = codeOfClientError(error);
  reply.status(status).send(body(code, code === 'VALIDATION' ? messages.validation.invalidRequest : defaultErrorMessage(code)));
}

/**
 * Every error leaves the API as `{ error: { code, message } }` with a pt-BR message. A 5xx carries only an error id:
 * the stack, SQL and constraint names go to the log under that id, never to the client.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode === 503) reply.header('retry-after', RETRY_AFTER_SECONDS);
      return reply.status(error.statusCode).send(body(error.code, error.message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // The catalogue's message when the schema names one, otherwise zod's own in pt-BR (see shared/zod-locale).
      const message = error.validation[0]?.message ?? messages.validation.invalidRequest;
      return reply.status(400).send(body('VALIDATION', message));
    }
    if (isResponseSerializationError(error)) {
      const errorId = randomUUID();
      request.log.error({ err: error, errorId }, 'response did not match its schema');
      return reply.status(500).send(body('INTERNAL', defaultErrorMessage('INTERNAL'), errorId));
    }
    if (isDatabaseUnavailable(error)) {
      // The database is away, restarting or overloaded: a fast 503 the client may retry, not a 500 (issue 12 item 3).
      request.log.warn({ code: databaseErrorCode(error) }, 'database unavailable');
      return reply.status(503).header('retry-after', RETRY_AFTER_SECONDS).send(body('SERVICE_UNAVAILABLE', defaultErrorMessage('SERVICE_UNAVAILABLE')));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = codeOfClientError(error);
      return reply.status(status).send(body(code, code === 'VALIDATION' ? messages.validation.invalidRequest : defaultErrorMessage(code)));
    }
    const errorId = randomUUID();
    request.log.error({ err: error, errorId }, 'unexpected failure');
    return reply.status(500).send(body('INTERNAL', defaultErrorMessage('INTERNAL'), errorId));
  });
}
