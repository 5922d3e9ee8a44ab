import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Visit, VisitExportQuery, VisitListQuery, VisitStatus } from '@carteirinha/shared/contracts/visits';
import type { Database } from '../../db/client.ts';
import { cards, dependents, profiles, subscriptions, userRoles, users, visits } from '../../db/schema.ts';
import { cursorText, decodeCursor, offsetOf, olderThan, pageWithCursor } from '../../lib/keyset.ts';
import { withinSaoPauloDays } from '../../lib/sao-paulo-period.ts';
import { foldedContains, totalOf } from '../../lib/sql.ts';
import { alias } from 'drizzle-orm/pg-core';

type Scope = { clinicId: string };

/** The person the visit was for: the dependent's name on a dependent's card, else the holder's. */
const patientName = sql<string>`coalesce(${dependents.fullName}, ${profiles.fullName}, ${users.name})`;
/** Whoever registered the visit, by the name they go by. */
const registrar = alias(users, 'registrar');

/** Visits with the names and card number the list shows: the one read behind the list, the card's history and one visit. */
function visitRows(db: Database) {
  return db
    .select({
      id: visits.id,
      cursorAt: cursorText(visits.performedAt),
      performedAt: visits.performedAt,
      patientName,
      cardNumber: cards.number,
      serviceName: visits.serviceName,
      category: visits.category,
      originalCents: visits.originalCents,
      discountPercent: visits.discountPercent,
      discountCents: visits.discountCents,
      finalCents: visits.finalCents,
      status: visits.status,
      canceledAt: visits.canceledAt,
      // A subscription the patient withdrew from within the 7 days (lifecycle: cancel_reason 'withdrawal').
      subscriptionWithdrawnAt: sql<Date | null>`case when ${subscriptions.cancelReason} = 'withdrawal' then ${subscriptions.canceledAt} end`.mapWith(subscriptions.canceledAt),
      bookedAt: visits.bookedAt,
      professional: visits.professional,
      cancelReason: visits.cancelReason,
      registeredBy: registrar.name,
    })
    .from(visits)
    .innerJoin(cards, eq(cards.id, visits.cardId))
    .innerJoin(subscriptions, eq(subscriptions.id, visits.subscriptionId))
    .innerJoin(users, eq(users.id, visits.patientUserId))
    .leftJoin(profiles, eq(profiles.id, visits.patientUserId))
    .leftJoin(dependents, eq(dependents.id, visits.dependentId))
    .leftJoin(registrar, eq(registrar.id, visits.createdBy))
    .$dynamic();
}

type VisitRow = Omit<Visit, 'performedAt' | 'bookedAt' | 'canceledAt' | 'subscriptionWithdrawnAt'> & {
  performedAt: Date;
  bookedAt: Date | null;
  canceledAt: Date | null;
  subscriptionWithdrawnAt: Date | null;
  cursorAt: string;
};

function toVisit({ cursorAt: _cursor, ...row }: VisitRow): Visit {
  return {
    ...row,
    performedAt: row.performedAt.toISOString(),
    bookedAt: row.bookedAt?.toISOString() ?? null,
    canceledAt: row.canceledAt?.toISOString() ?? null,
    subscriptionWithdrawnAt: row.subscriptionWithdrawnAt?.toISOString() ?? null,
  };
}

/**
 * The visits of the clinic's people whose name contains the term (a holder's visits on their own card, a dependent's
 * on theirs) or whose service's name does. The people and the service names are found first — among the clinic's
 * subscriptions and dependents (a few thousand rows at most, even for the largest clinic) and among the distinct
 * names its visits were recorded with (visits_clinic_service_idx, a few dozen) — so each visit is tested by hashed
 * ids and names, never by joining three tables and folding text per visit (bench/RESULTS.md: 1.5–3.6 s against the
 * largest clinic's 45 000 visits before).
 */
function searchCondition(scope: Scope, term: string): SQL | undefined {
  // The holder's name by key lookups per subscription of the clinic: joined, the planner scans all 50 000 users.
  const holderName = sql`coalesce((select p.full_name from ${profiles} p where p.id = s.user_id), (select u.name from ${users} u where u.id = s.user_id))`;
  const holders = sql`select s.id from ${subscriptions} s where s.clinic_id = ${scope.clinicId} and ${foldedContains(holderName, term)}`;
  const people = sql`select d.id from ${dependents} d where d.clinic_id = ${scope.clinicId} and ${foldedContains(sql`d.full_name`, term)}`;
  // OFFSET 0 keeps the names distinct before they are folded: without it the planner pushes the fold down to every
  // one of the clinic's visits (400 ms for the largest clinic, bench/RESULTS.md).
  const serviceNames = sql`select n.service_name from (select distinct v.service_name from ${visits} v where v.clinic_id = ${scope.clinicId} offset 0) n
    where ${foldedContains(sql`n.service_name`, term)}`;
  return or(
    sql`(${visits.dependentId} is null and ${visits.subscriptionId} in (${holders}))`,
    sql`${visits.dependentId} in (${people})`,
    sql`${visits.serviceName} in (${serviceNames})`,
  );
}

type Filters = Omit<VisitExportQuery, 'q'> & { q?: string | undefined; cardId?: string | undefined; patientUserId?: string | undefined };

/** 'Filtros': a São Paulo day range (both days included), a status, a service and who registered the visit. */
function conditionsOf(scope: Scope, query: Filters): SQL | undefined {
  const term = query.q?.trim();
  return and(
    eq(visits.clinicId, scope.clinicId),
    query.cardId ? eq(visits.cardId, query.cardId) : undefined,
    query.patientUserId ? eq(visits.patientUserId, query.patientUserId) : undefined,
    query.status ? eq(visits.status, query.status) : undefined,
    query.serviceId ? eq(visits.serviceId, query.serviceId) : undefined,
    query.registeredBy ? eq(visits.createdBy, query.registeredBy) : undefined,
    withinSaoPauloDays(visits.performedAt, query),
    term ? searchCondition(scope, term) : undefined,
  );
}

/**
 * The visits matching `where`, newest first, `limit` of them from `offset`, with their names: the page's ids first
 * (an index walk over visits alone), then the names of those rows alone. Joined in one statement for 20 rows, the
 * planner sized its look-up caches (Memoize) for every visit of the clinic and weighed seven tables' join orders:
 * ~25 ms a page on the largest clinic's 45 000 visits against ~2.5 ms this way (bench/RESULTS.md).
 */
async function visitsPage(db: Database, scope: Scope, where: SQL | undefined, limit: number, offset = 0): Promise<VisitRow[]> {
  const page = await db.select({ id: visits.id }).from(visits).where(where).orderBy(desc(visits.performedAt), desc(visits.id)).limit(limit).offset(offset);
  // Asked even for an empty page: a request costs the same statements whatever it shows (list-statements.int.test.ts).
  return visitRows(db)
    .where(and(eq(visits.clinicId, scope.clinicId), inArray(visits.id, page.map((row) => row.id))))
    .orderBy(desc(visits.performedAt), desc(visits.id));
}

/** How many visits match: the search is on ids, so the count reads visits alone. */
function countVisits(db: Database, scope: Scope, query: Filters): Promise<number> {
  return totalOf(db.select({ total: count() }).from(visits).where(conditionsOf(scope, query)));
}

/**
 * The clinic's visits (Atendimentos, and 'Ver Histórico' with `cardId`), newest first, a page after `query.after`
 * (keyset on performed_at and id: visits_clinic_performed_idx, visits_card_performed_idx). Names are not a tenant
 * table, so this runs on the platform connection with the clinic's condition first in the query.
 */
export async function listClinicVisits(db: Database, scope: Scope, query: VisitListQuery): Promise<{ items: Visit[]; total: number; nextCursor: string | null }> {
  const cursor = query.after ? decodeCursor(query.after) : null;
  const [rows, total] = await Promise.all([
    visitsPage(db, scope, and(conditionsOf(scope, query), olderThan(visits.performedAt, visits.id, cursor)), query.pageSize + 1, offsetOf(query)),
    countVisits(db, scope, query),
  ]);
  const page = pageWithCursor(rows, query.pageSize);
  return { items: page.rows.map(toVisit), total, nextCursor: page.nextCursor };
}

/**
 * The newest visits matching `filters`, without the count a list's pages need: the Dashboard's recent visits and a
 * member's latest (counting the largest clinic's 45 000 visits cost more than reading its five newest, bench/RESULTS.md).
 */
export async function latestClinicVisits(db: Database, scope: Scope, filters: Pick<Filters, 'to' | 'patientUserId'>, limit: number): Promise<Visit[]> {
  const rows = await visitsPage(db, scope, conditionsOf(scope, filters), limit);
  return rows.map(toVisit);
}

/** 'Exportar': whether anything matches (an empty export is refused with the catalogue's words). */
export async function anyVisitMatches(db: Database, scope: Scope, query: VisitExportQuery): Promise<boolean> {
  const [row] = await db.select({ id: visits.id }).from(visits).where(conditionsOf(scope, query)).limit(1);
  return row !== undefined;
}

/** Where an export batch ended: the last row's time as PostgreSQL prints it (microseconds kept) and its id. */
export type VisitCursor = { at: string; id: string };

/** One batch of the export, newest first, after `cursor` (keyset on performed_at and id). */
export async function visitBatch(db: Database, scope: Scope, query: VisitExportQuery, cursor: VisitCursor | null, limit: number): Promise<{ rows: Visit[]; next: VisitCursor | null }> {
  const after = cursor ? sql`(${visits.performedAt}, ${visits.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined;
  const rows = await visitRows(db)
    .where(and(conditionsOf(scope, query), after))
    .orderBy(desc(visits.performedAt), desc(visits.id))
    .limit(limit);
  const last = rows.at(-1);
  const next = rows.length === limit && last ? { at: last.cursorAt, id: last.id } : null;
  return { rows: rows.map(toVisit), next };
}

/** One visit of this clinic, as the list shows it (the answer of 'Registrar Atendimento'). */
export async function findClinicVisit(db: Database, scope: Scope, id: string): Promise<Visit | null> {
  const [row] = await visitRows(db)
    .where(and(eq(visits.clinicId, scope.clinicId), eq(visits.id, id)))
    .limit(1);
  return row ? toVisit(row) : null;
}

/** What a status change needs of a visit, locked until the transaction ends (two desks cannot both move it). */
export type LockedVisit = {
  id: string;
  status: VisitStatus;
  cardId: string;
  performedAt: Date;
  serviceName: string;
  originalCents: number;
  discountPercent: number;
  finalCents: number;
};

export async function lockClinicVisit(tx: Database, scope: Scope, id: string): Promise<LockedVisit | null> {
  const [row] = await tx
    .select({
      id: visits.id,
      status: visits.status,
      cardId: visits.cardId,
      performedAt: visits.performedAt,
      serviceName: visits.serviceName,
      originalCents: visits.originalCents,
      discountPercent: visits.discountPercent,
      finalCents: visits.finalCents,
    })
    .from(visits)
    .where(and(eq(visits.clinicId, scope.clinicId), eq(visits.id, id)))
    .for('update');
  return row ?? null;
}

export async function setVisitStatus(
  tx: Database,
  scope: Scope,
  id: string,
  change: { status: VisitStatus; cancelReason: string | null; performedAt: Date; changedBy: string; at: Date },
): Promise<void> {
  await tx
    .update(visits)
    .set({
      status: change.status,
      cancelReason: change.cancelReason,
      canceledAt: change.status === 'cancelado' ? change.at : null,
      performedAt: change.performedAt,
      statusChangedAt: change.at,
      statusChangedBy: change.changedBy,
      updatedAt: change.at,
    })
    .where(and(eq(visits.clinicId, scope.clinicId), eq(visits.id, id)));
}

/** The clinic's team, by name: who may have registered a visit ('Registrado por'). */
export async function clinicRegistrars(db: Database, scope: Scope): Promise<{ userId: string; name: string }[]> {
  return db
    .select({ userId: users.id, name: sql<string>`coalesce(${profiles.fullName}, ${users.name})` })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(and(eq(userRoles.clinicId, scope.clinicId), inArray(userRoles.role, ['clinic_admin', 'clinic_staff'])))
    .orderBy(asc(sql`coalesce(${profiles.fullName}, ${users.name})`))
    .limit(500);
}
