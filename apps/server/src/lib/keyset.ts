import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { messages } from '@carteirinha/shared/messages';
import { AppError } from './app-error.ts';

/**
 * Keyset pagination of the lists that grow (visits, users, clinics; DESIGN.md §4): a page is asked after the last
 * row of the page before, by its sort key and id, so the database reads one index range of `pageSize` rows at any
 * depth, where OFFSET reads and throws away every row before the page.
 */

/** The last row of a page: its sort timestamp as PostgreSQL prints it (microseconds, which a Date would lose) and id. */
export type Cursor = { at: string; id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What PostgreSQL prints for a timestamptz: "2026-11-24 10:30:00.123456+00". */
const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

/** The cursor a client sent back; a cursor that is not one of ours answers 400, never a database error. */
export function decodeCursor(text: string): Cursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    value = null;
  }
  if (!Array.isArray(value) || value.length !== 2) throw new AppError('VALIDATION', messages.validation.invalidRequest);
  const [at, id] = value;
  if (typeof at !== 'string' || typeof id !== 'string' || !TIMESTAMP_TEXT.test(at) || !UUID.test(id)) {
    throw new AppError('VALIDATION', messages.validation.invalidRequest);
  }
  return { at, id };
}

/** The sort column as text, for the cursor (see Cursor). */
export function cursorText(column: AnyColumn): SQL<string> {
  return sql<string>`${column}::text`;
}

/** Rows after the cursor in a newest-first list ordered by (`at` desc, `id` desc): one row comparison, one index range. */
export function olderThan(at: AnyColumn, id: AnyColumn, cursor: Cursor | null): SQL | undefined {
  return cursor ? sql`(${at}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined;
}

/**
 * Reads a page of `pageSize` rows, asking one more to learn whether another page follows: the next cursor is the
 * last row shown, or null when the extra row did not come.
 */
export function pageWithCursor<Row extends { cursorAt: string; id: string }>(rows: Row[], pageSize: number): { rows: Row[]; nextCursor: string | null } {
  const shown = rows.slice(0, pageSize);
  const last = shown.at(-1);
  return { rows: shown, nextCursor: rows.length > pageSize && last ? encodeCursor({ at: last.cursorAt, id: last.id }) : null };
}

/** The offset of a page asked by number (no cursor): the first page, or a jump to the last page. */
export function offsetOf(query: { page: number; pageSize: number; after?: string | undefined }): number {
  return query.after ? 0 : (query.page - 1) * query.pageSize;
}
