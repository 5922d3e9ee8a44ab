/** The PostgreSQL error behind a Drizzle query error (node-postgres and PGlite both expose `code`/`constraint`). */
function databaseCause(error: unknown): { code?: unknown; constraint?: unknown } | null {
  const cause = error instanceof Error && 'cause' in error && error.cause ? error.cause : error;
  return typeof cause === 'object' && cause !== null ? cause : null;
}

/** The name of the unique constraint a write broke, or null when the error is something else. */
export function uniqueViolationConstraint(error: unknown): string | null {
  const cause = databaseCause(error);
  if (cause?.code !== '23505') return null;
  return typeof cause.constraint === 'string' ? cause.constraint : '';
}

/**
 * Whether a write was refused by a foreign key: a row pointing at nothing, or a delete of a row others still point at.
 * A key declared ON DELETE RESTRICT reports the latter as 23001 (restrict_violation), NO ACTION as 23503.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = databaseCause(error)?.code;
  return code === '23503' || code === '23001';
}

/**
 * SQLSTATEs that mean "the database is away or overloaded, try again", not "this request is wrong": class 08
 * (connection exception), the server shutting down or starting (57P01–57P03), too many connections (53300), a
 * statement cancelled by statement_timeout (57014), a lock not granted within lock_timeout (55P03), and a
 * transaction ended by idle_in_transaction_session_timeout (25P03).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '55P03', '25P03']);
/** Socket errors of a database connection that cannot be made or was lost. */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** node-postgres reports a lost or timed-out connection by message only. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/** The error and its causes, outermost first (Drizzle wraps the driver's error; better-auth may wrap Drizzle's). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return chain;
}

function isUnavailableCause(cause: unknown): boolean {
  if (typeof cause !== 'object' || cause === null) return false;
  const code = 'code' in cause && typeof cause.code === 'string' ? cause.code : '';
  if (code.startsWith('08') && code.length === 5) return true;
  if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true;
  const message = cause instanceof Error ? cause.message : '';
  return UNAVAILABLE_MESSAGES.some((text) => message.includes(text));
}

/**
 * Whether a failure is the database being unreachable, restarting, overloaded or timed out: the request answers 503
 * with Retry-After, and the next one may well succeed (the pool reconnects by itself).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causeChain(error).some(isUnavailableCause);
}

/** The SQLSTATE or socket code behind a database failure, for the log (never the statement's parameters). */
export function databaseErrorCode(error: unknown): string | undefined {
  for (const cause of causeChain(error)) {
    if (typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string') return cause.code;
  }
  return undefined;
}
