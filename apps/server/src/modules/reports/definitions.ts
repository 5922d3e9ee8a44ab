import { setImmediate } from 'node:timers/promises';
import { and, asc, count, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { CLINIC_STATUS_LABELS } from '@carteirinha/shared/contracts/clinics';
import { formatPlanPrice } from '@carteirinha/shared/contracts/plans';
import type { Period, ReportKind, ReportSummary } from '@carteirinha/shared/contracts/reports';
import { formatDate, formatCnpj } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS } from '@carteirinha/shared/roles';
import type { Database } from '../../db/client.ts';
import { clinics, plans, userRoles, users } from '../../db/schema.ts';
import { createdWithin } from './period.ts';

type Cursor = { createdAt: string; id: string };
type Batch = { rows: string[][]; next: Cursor | null };

/** A report: its file name, columns (specification §7) and how to read it in keyset-ordered batches. */
type ReportDefinition = {
  fileName: string;
  title: string;
  header: readonly string[];
  count: (db: Database, period: Period) => Promise<number>;
  batch: (db: Database, period: Period, after: Cursor | null, limit: number) => Promise<Batch>;
};

/** Rows after the cursor, in (created_at, id) order: each batch is one index range scan, however deep the file. */
function after(createdAt: AnyColumn, id: AnyColumn, cursor: Cursor | null): SQL | undefined {
  return cursor ? sql`(${createdAt}, ${id}) > (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : undefined;
}

/**
 * The cursor keeps the timestamp as PostgreSQL prints it: a JavaScript Date has only milliseconds, and a cursor
 * rounded down to them would send again the rows of the same millisecond.
 */
function cursorText(column: AnyColumn): SQL<string> {
  return sql<string>`${column}::text`;
}

function nextCursor<T extends { cursorAt: string; id: string }>(rows: T[], limit: number): Cursor | null {
  const last = rows.at(-1);
  return rows.length === limit && last ? { createdAt: last.cursorAt, id: last.id } : null;
}

const clinicsReport: ReportDefinition = {
  fileName: 'relatorio-clinicas.csv',
  title: 'Relatório de Clínicas',
  header: ['Nome', 'CNPJ', 'Status', 'Cidade', 'Estado', 'Criado'],
  count: async (db, period) => (await db.select({ total: count() }).from(clinics).where(createdWithin(clinics.createdAt, period)))[0]?.total ?? 0,
  batch: async (db, period, cursor, limit) => {
    const rows = await db
      .select({ id: clinics.id, cursorAt: cursorText(clinics.createdAt), name: clinics.name, cnpj: clinics.cnpj, status: clinics.status, city: clinics.city, state: clinics.state, createdAt: clinics.createdAt })
      .from(clinics)
      .where(and(createdWithin(clinics.createdAt, period), after(clinics.createdAt, clinics.id, cursor)))
      .orderBy(asc(clinics.createdAt), asc(clinics.id))
      .limit(limit);
    return {
      rows: rows.map((c) => [c.name, formatCnpj(c.cnpj), CLINIC_STATUS_LABELS[c.status], c.city ?? '', c.state ?? '', formatDate(c.createdAt)]),
      next: nextCursor(rows, limit),
    };
  },
};

const usersReport: ReportDefinition = {
  fileName: 'relatorio-usuarios.csv',
  title: 'Relatório de Usuários',
  header: ['Email', 'Função', 'Criado em'],
  count: async (db, period) => (await db.select({ total: count() }).from(users).where(createdWithin(users.createdAt, period)))[0]?.total ?? 0,
  batch: async (db, period, cursor, limit) => {
    const rows = await db
      .select({ id: users.id, cursorAt: cursorText(users.createdAt), email: users.email, role: userRoles.role, createdAt: users.createdAt })
      .from(users)
      .leftJoin(userRoles, eq(userRoles.userId, users.id))
      .where(and(createdWithin(users.createdAt, period), after(users.createdAt, users.id, cursor)))
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(limit);
    return { rows: rows.map((u) => [u.email, u.role ? ROLE_LABELS[u.role] : messages.reports.noRole, formatDate(u.createdAt)]), next: nextCursor(rows, limit) };
  },
};

const plansReport: ReportDefinition = {
  fileName: 'relatorio-planos.csv',
  title: 'Relatório de Planos',
  header: ['Nome', 'Preço', 'Descrição', 'Ativo'],
  count: async (db, period) => (await db.select({ total: count() }).from(plans).where(createdWithin(plans.createdAt, period)))[0]?.total ?? 0,
  batch: async (db, period, cursor, limit) => {
    const rows = await db
      .select({ id: plans.id, cursorAt: cursorText(plans.createdAt), name: plans.name, priceCents: plans.priceCents, description: plans.description, isActive: plans.isActive, createdAt: plans.createdAt })
      .from(plans)
      .where(and(createdWithin(plans.createdAt, period), after(plans.createdAt, plans.id, cursor)))
      .orderBy(asc(plans.createdAt), asc(plans.id))
      .limit(limit);
    return {
      rows: rows.map((p) => [p.name, formatPlanPrice(p.priceCents), p.description ?? '', p.isActive ? 'Sim' : 'Não']),
      next: nextCursor(rows, limit),
    };
  },
};

export const REPORTS: Record<ReportKind, ReportDefinition> = { clinicas: clinicsReport, usuarios: usersReport, planos: plansReport };

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

/** 'Estatísticas Gerais' and the three cards, for the period. */
export async function reportSummary(db: Database, period: Period): Promise<ReportSummary> {
  const [clinicTotal, userTotal, planTotal, activePlans] = await Promise.all([
    clinicsReport.count(db, period),
    usersReport.count(db, period),
    plansReport.count(db, period),
    db.select({ total: count() }).from(plans).where(and(eq(plans.isActive, true), createdWithin(plans.createdAt, period))),
  ]);
  return { clinics: clinicTotal, users: userTotal, plans: planTotal, activePlans: activePlans[0]?.total ?? 0 };
}
