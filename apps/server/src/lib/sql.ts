import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client.ts';

/** A LIKE pattern matching `term` anywhere, with its wildcards escaped so "50%" means the text "50%". */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Lower-cases and strips Portuguese accents in SQL, through the immutable fold_text() of migration 0008: the same on
 * PGlite and PostgreSQL, and the expression the trigram search indexes are built on.
 */
export function foldedColumn(column: AnyColumn | SQL): SQL {
  return sql`fold_text(${column})`;
}

/** The same folding for a search term, in JavaScript. */
export function foldText(term: string): string {
  return term
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** `column` contains `term`, ignoring case and accents. */
export function foldedContains(column: AnyColumn | SQL, term: string): SQL {
  return storedFoldContains(foldedColumn(column), term);
}

/** A column PostgreSQL keeps folded (a generated `fold_text(…)`, as users.email_folded) contains `term`. */
export function storedFoldContains(folded: AnyColumn | SQL, term: string): SQL {
  return sql`${folded} like ${containsPattern(foldText(term))}`;
}

/** The single figure of a `select({ total: count() })`; 0 when the query returned no row. */
export async function totalOf(query: Promise<{ total: number }[]>): Promise<number> {
  return (await query)[0]?.total ?? 0;
}

/** Rows of a raw statement, parsed: figures and ids are what the schema says whatever the driver returns them as. */
export async function rowsOf<T extends z.ZodType>(db: Database, query: SQL, row: T): Promise<z.output<T>[]> {
  const result = await db.execute(query);
  return z.object({ rows: z.array(row) }).parse(result).rows;
}
