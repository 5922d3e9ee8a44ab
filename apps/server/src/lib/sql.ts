import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** A LIKE pattern matching `term` anywhere, with its wildcards escaped so "50%" means the text "50%". */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

const ACCENTED = 'áàâãäåéèêëíìîïóòôõöúùûüçñ';
const PLAIN = 'aaaaaaeeeeiiiiooooouuuucn';

/** Lower-cases and strips Portuguese accents in SQL, the same on PGlite and PostgreSQL (no extension needed). */
export function foldedColumn(column: AnyColumn | SQL): SQL {
  return sql`translate(lower(${column}), ${ACCENTED}, ${PLAIN})`;
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
  return sql`${foldedColumn(column)} like ${containsPattern(foldText(term))}`;
}
