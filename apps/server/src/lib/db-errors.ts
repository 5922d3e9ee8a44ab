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
