/**
 * Reading the spreadsheet of 'Importar CSV' (issue 26) as a clinic receives it from a company's HR: saved by Excel
 * pt-BR (Windows-1252, `;`-separated) or by anything else (UTF-8, often `,`-separated), with or without a BOM, the
 * columns named in the clinic's words. csv-parse does the quoting rules; this file decides the encoding, the separator
 * and which column is which.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { MEMBER_IMPORT_MAX_BYTES, MEMBER_IMPORT_MAX_ROWS } from '@carteirinha/shared/contracts/member-imports';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';

const t = messages.memberImport;

export type ImportField = 'fullName' | 'cpf' | 'email' | 'birthDate' | 'phone';
/** One line of the file, its cells by field (trimmed; '' when absent). */
export type ImportLine = { line: number } & Record<ImportField, string>;
export type ImportFile = { lines: ImportLine[]; encoding: 'utf-8' | 'windows-1252'; delimiter: ';' | ',' };

/** Header names as people write them, folded (no accents, case or punctuation), per field. */
const HEADER_NAMES: Record<ImportField, readonly string[]> = {
  fullName: ['nome', 'nomecompleto', 'nomedofuncionario', 'funcionario', 'colaborador'],
  cpf: ['cpf'],
  email: ['email', 'emailcorporativo', 'correioeletronico'],
  birthDate: ['datadenascimento', 'datanascimento', 'nascimento', 'dtnascimento'],
  phone: ['telefone', 'celular', 'fone', 'telefonecelular', 'whatsapp'],
};
const REQUIRED: readonly ImportField[] = ['fullName', 'cpf', 'email'];
const REQUIRED_LABELS: Record<string, string> = { fullName: 'nome', cpf: 'CPF', email: 'e-mail' };

function foldHeader(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/**
 * UTF-8 when the bytes are valid UTF-8 (a Windows-1252 file with any accent is not), else Windows-1252 — what Excel
 * pt-BR writes for "CSV (separado por vírgulas)". A file of plain ASCII reads the same either way.
 */
function decode(bytes: Uint8Array): { text: string; encoding: ImportFile['encoding'] } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/** The separator of the header line: Excel pt-BR writes `;` (the comma is the decimal mark), others `,`. */
function delimiterOf(text: string): ImportFile['delimiter'] {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const count = (character: string) => header.split(character).length - 1;
  return count(';') >= count(',') && count(';') > 0 ? ';' : ',';
}

function columnsOf(header: string[]): Partial<Record<ImportField, number>> {
  const columns: Partial<Record<ImportField, number>> = {};
  header.forEach((name, index) => {
    const folded = foldHeader(name);
    for (const [field, names] of Object.entries(HEADER_NAMES)) {
      if (names.includes(folded) && isField(field) && columns[field] === undefined) columns[field] = index;
    }
  });
  return columns;
}

function isField(value: string): value is ImportField {
  return value in HEADER_NAMES;
}

const parsedRecords = z.array(z.object({ record: z.array(z.string()), info: z.object({ lines: z.number().int() }) }));

function parseRecords(text: string, delimiter: string): { record: string[]; line: number }[] {
  try {
    // With `info`, csv-parse answers { record, info } per record, which its types do not say: read through a schema.
    const parsed: unknown = parse(text, {
      delimiter,
      bom: true,
      info: true,
      trim: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    });
    return parsedRecords.parse(parsed).map(({ record, info }) => ({ record, line: info.lines }));
  } catch (error) {
    if (error instanceof CsvError) throw new AppError('VALIDATION', t.fileUnreadable);
    throw error;
  }
}

/**
 * The file's lines by field, or a pt-BR refusal of the whole file: too large, unreadable, the required columns
 * missing, no line of data, more lines than one import takes.
 */
export function readImportFile(bytes: Uint8Array): ImportFile {
  if (bytes.byteLength > MEMBER_IMPORT_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', formatMessage(t.fileTooLarge, { rows: MEMBER_IMPORT_MAX_ROWS }));
  const { text, encoding } = decode(bytes);
  const delimiter = delimiterOf(text.replace(/^\uFEFF/, ''));
  const [header, ...data] = parseRecords(text, delimiter);
  if (!header) throw new AppError('VALIDATION', t.noRows);
  const columns = columnsOf(header.record);
  const missing = REQUIRED.filter((field) => columns[field] === undefined);
  if (missing.length > 0) throw new AppError('VALIDATION', formatMessage(t.missingColumns, { columns: missing.map((field) => REQUIRED_LABELS[field]).join(', ') }));
  if (data.length === 0) throw new AppError('VALIDATION', t.noRows);
  if (data.length > MEMBER_IMPORT_MAX_ROWS) throw new AppError('VALIDATION', formatMessage(t.tooManyRows, { count: data.length, rows: MEMBER_IMPORT_MAX_ROWS }));
  const cell = (record: string[], field: ImportField) => {
    const index = columns[field];
    return index === undefined ? '' : (record[index] ?? '').trim();
  };
  return {
    encoding,
    delimiter,
    lines: data.map(({ record, line }) => ({
      line,
      fullName: cell(record, 'fullName').replace(/\s+/g, ' '),
      cpf: cell(record, 'cpf'),
      email: cell(record, 'email').toLowerCase(),
      birthDate: cell(record, 'birthDate'),
      phone: cell(record, 'phone'),
    })),
  };
}
