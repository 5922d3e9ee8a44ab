import type { FastifyRequest } from 'fastify';
import { stdSerializers } from 'pino';

/**
 * Query parameters whose values are safe to keep in the access log: paging, filters and dates. Every other value
 * (reset and verification tokens, OAuth codes, search text that may be a name or a CPF) is written as [redacted], so
 * a new parameter is private until someone lists it here.
 */
const LOGGED_QUERY_KEYS = new Set(['page', 'pageSize', 'status', 'role', 'sort', 'order', 'from', 'to', 'period', 'month', 'year', 'kind']);

export const REDACTED = '[redacted]';

/** A request URL for the log: the path as it is, every query value not listed above replaced. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const key = pair.slice(0, equals);
      return LOGGED_QUERY_KEYS.has(key) ? pair : `${key}=${REDACTED}`;
    })
    .join('&');
  return `${url.slice(0, start)}?${query}`;
}

/** Fastify's own request serializer, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}

/** An error as the log keeps it (the shape Fastify's logger expects of an `err` serializer). */
type ErrorLog = { type: string; message: string; stack: string; [key: string]: unknown };

function stringField(value: object, key: string): string | undefined {
  const field: unknown = Reflect.get(value, key);
  return typeof field === 'string' ? field : undefined;
}

/** The errors of an error's `cause` chain, outermost first (bounded: a cycle cannot hang the logger). */
function causeChain(error: unknown): object[] {
  const chain: object[] = [];
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && chain.length < 10 && !chain.includes(current)) {
    chain.push(current);
    current = Reflect.get(current, 'cause');
  }
  return chain;
}

/** A PostgreSQL error (pg and PGlite both carry the server's SQLSTATE and severity). */
function isServerError(error: object): boolean {
  const code = stringField(error, 'code');
  return code !== undefined && /^[0-9A-Z]{5}$/.test(code) && stringField(error, 'severity') !== undefined;
}

/**
 * A database error as the log keeps it: SQLSTATE, the parameterised statement, and the constraint and table names.
 * Never the message, detail or parameters: PostgreSQL quotes the offending value there ("Key (cpf)=(…) already
 * exists", 'invalid input syntax … "…"'), and Drizzle and PGlite attach the parameters to their errors.
 */
function serializeDatabaseError(error: Error, chain: object[]): ErrorLog | null {
  const server = chain.find(isServerError);
  // A Drizzle error always wraps a failed statement; its message is "Failed query: … params: …".
  const statement = chain.map((link) => stringField(link, 'query')).find((query) => query !== undefined);
  if (!server && statement === undefined) return null;
  // The first line of a stack repeats the message: only the frames are kept.
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).join('\n');
  const code = server ? stringField(server, 'code') : undefined;
  return {
    type: error.constructor.name,
    message: `database error ${code ?? '(no SQLSTATE)'}`,
    stack: frames,
    code,
    statement,
    constraint: server ? stringField(server, 'constraint') : undefined,
    table: server ? stringField(server, 'table') : undefined,
  };
}

/** pino's error serializer, except that a database error anywhere in the cause chain is logged by code and statement. */
export function serializeError(error: Error): ErrorLog {
  return serializeDatabaseError(error, causeChain(error)) ?? stdSerializers.err(error);
}
