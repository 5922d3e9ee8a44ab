import { setImmediate } from 'node:timers/promises';
import { CLINIC_STATUS_LABELS } from '@carteirinha/shared/contracts/clinics';
import { formatPlanPrice } from '@carteirinha/shared/contracts/plans';
import type { Period, ReportKind } from '@carteirinha/shared/contracts/reports';
import { formatDate, formatCnpj } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS } from '@carteirinha/shared/roles';
import type { Database } from '../../db/client.ts';
import { clinicsAfter, countClinics, countPlans, countUsers, plansAfter, usersAfter, type Cursor } from './repository.ts';

const m = messages.reports;

type Batch = { rows: string[][]; next: Cursor | null };

/**
 * A report: its file name and columns (specification §7), the shorter set of columns its print view shows ('It shows
 * fewer columns'), and how to read it in keyset-ordered batches of formatted rows.
 */
export type ReportDefinition = {
  fileName: string;
  title: string;
  header: readonly string[];
  /** The columns of the print view, a subset of `header` in the same order. */
  printColumns: readonly string[];
  count: (db: Database, period: Period) => Promise<number>;
  batch: (db: Database, period: Period, after: Cursor | null, limit: number) => Promise<Batch>;
};

/** The cursor after a full batch; a shorter batch was the last one. */
function nextCursor(rows: { cursorAt: string; id: string }[], limit: number): Cursor | null {
  const last = rows.at(-1);
  return rows.length === limit && last ? { createdAt: last.cursorAt, id: last.id } : null;
}

const clinicsReport: ReportDefinition = {
  fileName: 'relatorio-clinicas.csv',
  title: m.printTitles.clinicas,
  header: ['Nome', 'CNPJ', 'Status', 'Cidade', 'Estado', 'Criado'],
  // On paper the clinic is told by its name and CNPJ; city and state stay in the CSV.
  printColumns: ['Nome', 'CNPJ', 'Status', 'Criado'],
  count: countClinics,
  batch: async (db, period, cursor, limit) => {
    const rows = await clinicsAfter(db, period, cursor, limit);
    return {
      rows: rows.map((c) => [c.name, formatCnpj(c.cnpj), CLINIC_STATUS_LABELS[c.status], c.city ?? '', c.state ?? '', formatDate(c.createdAt)]),
      next: nextCursor(rows, limit),
    };
  },
};

const usersReport: ReportDefinition = {
  fileName: 'relatorio-usuarios.csv',
  title: m.printTitles.usuarios,
  header: ['Email', 'Função', 'Criado em'],
  // Who has access, and as what: the list an admin prints to review permissions.
  printColumns: ['Email', 'Função'],
  count: countUsers,
  batch: async (db, period, cursor, limit) => {
    const rows = await usersAfter(db, period, cursor, limit);
    return { rows: rows.map((u) => [u.email, u.role ? ROLE_LABELS[u.role] : m.noRole, formatDate(u.createdAt)]), next: nextCursor(rows, limit) };
  },
};

const plansReport: ReportDefinition = {
  fileName: 'relatorio-planos.csv',
  title: m.printTitles.planos,
  header: ['Nome', 'Preço', 'Descrição', 'Ativo'],
  // Descriptions are long free text: the price list prints without them.
  printColumns: ['Nome', 'Preço', 'Ativo'],
  count: countPlans,
  batch: async (db, period, cursor, limit) => {
    const rows = await plansAfter(db, period, cursor, limit);
    return {
      rows: rows.map((p) => [p.name, formatPlanPrice(p.priceCents), p.description ?? '', p.isActive ? messages.common.yes : messages.common.no]),
      next: nextCursor(rows, limit),
    };
  },
};

export const REPORTS: Record<ReportKind, ReportDefinition> = { clinicas: clinicsReport, usuarios: usersReport, planos: plansReport };

/** Keeps the print view's columns of CSV rows: the positions of `printColumns` in `header`. */
export function printProjection(definition: ReportDefinition): (row: readonly string[]) => string[] {
  const positions = definition.printColumns.map((column) => definition.header.indexOf(column));
  if (positions.some((position) => position < 0)) throw new Error(`${definition.fileName}: a print column is not in the header`);
  return (row) => positions.map((position) => row[position] ?? '');
}

/**
 * Every batch of a report, one query at a time. Between batches the event loop gets a turn: the embedded PGlite runs
 * each query on this thread and resolves it without I/O, so without the pause a 100 000-row export kept every other
 * request (and the socket it writes to) waiting until the whole file was read (bench/csv-export.ts: 9 s).
 */
export async function* reportBatches(db: Database, definition: ReportDefinition, period: Period, batchSize = 1000): AsyncGenerator<string[][]> {
  let cursor: Cursor | null = null;
  do {
    const batch = await definition.batch(db, period, cursor, batchSize);
    if (batch.rows.length > 0) yield batch.rows;
    cursor = batch.next;
    await setImmediate();
  } while (cursor);
}
