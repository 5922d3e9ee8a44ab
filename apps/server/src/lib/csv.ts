import { Readable } from 'node:stream';

const UTF8_BOM = '\uFEFF';

/**
 * A cell a spreadsheet would read as a formula (OWASP "CSV injection"): = + - @ followed by something, or a leading
 * tab or carriage return. A lone sign is not one: '-' is the placeholder of an empty value and stays as it is.
 */
const FORMULA_START = /^(?:[=+\-@].|[\t\r])/s;

/**
 * One CSV cell for Excel pt-BR: `;`-separated, quoted when needed, and a cell that would start a formula is
 * prefixed with an apostrophe so a spreadsheet never runs what a user typed.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(';')}\r\n`;
}

/** A CSV as a stream: the BOM and header, then each batch of rows as it is read, never the whole file in memory. */
export function csvStream(header: readonly string[], batches: AsyncIterable<string[][]>): Readable {
  async function* lines() {
    yield UTF8_BOM + csvLine(header);
    for await (const rows of batches) yield rows.map(csvLine).join('');
  }
  return Readable.from(lines());
}
