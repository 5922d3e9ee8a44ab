import { and, asc, count, eq, gte, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Period, ReportSummary } from '@carteirinha/shared/contracts/reports';
import type { Database } from '../../db/client.ts';
import { clinics, plans, userRoles, users } from '../../db/schema.ts';
import { saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { totalOf } from '../../lib/sql.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where a keyset read stopped: the last row's creation time (as PostgreSQL prints it) and id. */
export type Cursor = { createdAt: string; id: string };

/** "Created within the period", both São Paulo days included; no period means all time. */
function createdWithin(column: AnyColumn, period: Period): SQL | undefined {
  if (!period.from || !period.to) return undefined;
  const start = saoPauloMidnight(period.from);
  const end = new Date(saoPauloMidnight(period.to).getTime() + DAY_MS);
  return and(gte(column, start), lt(column, end));
}

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

export function countClinics(db: Database, period: Period): Promise<number> {
  return totalOf(db.select({ total: count() }).from(clinics).where(createdWithin(clinics.createdAt, period)));
}

/** One batch of the clinics report, oldest first. */
export function clinicsAfter(db: Database, period: Period, cursor: Cursor | null, limit: number) {
  return db
    .select({
      id: clinics.id,
      cursorAt: cursorText(clinics.createdAt),
      name: clinics.name,
      cnpj: clinics.cnpj,
      status: clinics.status,
      city: clinics.city,
      state: clinics.state,
      createdAt: clinics.createdAt,
    })
    .from(clinics)
    .where(and(createdWithin(clinics.createdAt, period), after(clinics.createdAt, clinics.id, cursor)))
    .orderBy(asc(clinics.createdAt), asc(clinics.id))
    .limit(limit);
}

export function countUsers(db: Database, period: Period): Promise<number> {
  return totalOf(db.select({ total: count() }).from(users).where(createdWithin(users.createdAt, period)));
}

/** One batch of the users report with each account's role (none for an account that has no role yet). */
export function usersAfter(db: Database, period: Period, cursor: Cursor | null, limit: number) {
  return db
    .select({ id: users.id, cursorAt: cursorText(users.createdAt), email: users.email, role: userRoles.role, createdAt: users.createdAt })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .where(and(createdWithin(users.createdAt, period), after(users.createdAt, users.id, cursor)))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(limit);
}

export function countPlans(db: Database, period: Period): Promise<number> {
  return totalOf(db.select({ total: count() }).from(plans).where(createdWithin(plans.createdAt, period)));
}

/** One batch of the platform plans report. */
export function plansAfter(db: Database, period: Period, cursor: Cursor | null, limit: number) {
  return db
    .select({
      id: plans.id,
      cursorAt: cursorText(plans.createdAt),
      name: plans.name,
      priceCents: plans.priceCents,
      description: plans.description,
      isActive: plans.isActive,
      createdAt: plans.createdAt,
    })
    .from(plans)
    .where(and(createdWithin(plans.createdAt, period), after(plans.createdAt, plans.id, cursor)))
    .orderBy(asc(plans.createdAt), asc(plans.id))
    .limit(limit);
}

/** 'Estatísticas Gerais' and the three cards, for the period. */
export async function reportSummary(db: Database, period: Period): Promise<ReportSummary> {
  const [clinicTotal, userTotal, planTotal, activePlans] = await Promise.all([
    countClinics(db, period),
    countUsers(db, period),
    countPlans(db, period),
    totalOf(db.select({ total: count() }).from(plans).where(and(eq(plans.isActive, true), createdWithin(plans.createdAt, period)))),
  ]);
  return { clinics: clinicTotal, users: userTotal, plans: planTotal, activePlans };
}
