import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { defaultErrorMessage, type ErrorCode, type ErrorResponse } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import { AppError } from '../lib/app-error.ts';

function body(code: ErrorCode | string, message: string, errorId?: string): ErrorResponse {
  return { error: { code, message, ...(errorId ? { errorId } : {}) } };
}

/** Maps Fastify's own 4xx errors (bad JSON, body too large, …) to our codes and pt-BR messages. */
function codeOfClientError(error: FastifyError): ErrorCode {
  if (error.statusCode === 413) return 'PAYLOAD_TOO_LARGE';
  if (error.statusCode === 429) return 'RATE_LIMITED';
  if (error.statusCode === 404) return 'ROUTE_NOT_FOUND';
  if (error.statusCode === 401) return 'UNAUTHENTICATED';
  if (error.statusCode === 403) return 'FORBIDDEN';
  return 'VALIDATION';
}

/**
 * Every error leaves the API as `{ error: { code, message } }` with a pt-BR message. A 5xx carries only an error id:
 * the stack, SQL and constraint names go to the log under that id, never to the client.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
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
