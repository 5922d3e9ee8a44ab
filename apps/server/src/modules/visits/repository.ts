import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Visit, VisitListQuery } from '@carteirinha/shared/contracts/visits';
import type { Database } from '../../db/client.ts';
import { cards, dependents, profiles, subscriptions, users, visits } from '../../db/schema.ts';
import { foldedContains, totalOf } from '../../lib/sql.ts';

type Scope = { clinicId: string };

/** The person the visit was for: the dependent's name on a dependent's card, else the holder's. */
const patientName = sql<string>`coalesce(${dependents.fullName}, ${profiles.fullName}, ${users.name})`;

/** Visits with the names and card number the list shows: the one read behind the list, the card's history and one visit. */
function visitRows(db: Database) {
  return db
    .select({
      id: visits.id,
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
    })
    .from(visits)
    .innerJoin(cards, eq(cards.id, visits.cardId))
    .innerJoin(subscriptions, eq(subscriptions.id, visits.subscriptionId))
    .innerJoin(users, eq(users.id, visits.patientUserId))
    .leftJoin(profiles, eq(profiles.id, visits.patientUserId))
    .leftJoin(dependents, eq(dependents.id, visits.dependentId))
    .$dynamic();
}

function toVisit(row: { performedAt: Date; canceledAt: Date | null; subscriptionWithdrawnAt: Date | null } & Omit<Visit, 'performedAt' | 'canceledAt' | 'subscriptionWithdrawnAt'>): Visit {
  return { ...row, performedAt: row.performedAt.toISOString(), canceledAt: row.canceledAt?.toISOString() ?? null, subscriptionWithdrawnAt: row.subscriptionWithdrawnAt?.toISOString() ?? null };
}

function conditionsOf(scope: Scope, query: VisitListQuery): SQL | undefined {
  const conditions: SQL[] = [eq(visits.clinicId, scope.clinicId)];
  if (query.cardId) conditions.push(eq(visits.cardId, query.cardId));
  const term = query.q?.trim();
  if (term) {
    const matches = or(foldedContains(patientName, term), foldedContains(visits.serviceName, term));
    if (matches) conditions.push(matches);
  }
  return and(...conditions);
}

/**
 * The clinic's visits (Atendimentos, and 'Ver Histórico' with `cardId`), newest first. Names are not a tenant table,
 * so this runs on the platform connection with the clinic's condition first in the query.
 */
export async function listClinicVisits(db: Database, scope: Scope, query: VisitListQuery): Promise<{ items: Visit[]; total: number }> {
  const where = conditionsOf(scope, query);
  const rows = await visitRows(db)
    .where(where)
    .orderBy(desc(visits.performedAt), desc(visits.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const total = await totalOf(
    db
      .select({ total: count() })
      .from(visits)
      .innerJoin(users, eq(users.id, visits.patientUserId))
      .leftJoin(profiles, eq(profiles.id, visits.patientUserId))
      .leftJoin(dependents, eq(dependents.id, visits.dependentId))
      .where(where),
  );
  return { items: rows.map(toVisit), total };
}

/** One visit of this clinic, as the list shows it (the answer of 'Registrar Atendimento'). */
export async function findClinicVisit(db: Database, scope: Scope, id: string): Promise<Visit | null> {
  const [row] = await visitRows(db)
    .where(and(eq(visits.clinicId, scope.clinicId), eq(visits.id, id)))
    .limit(1);
  return row ? toVisit(row) : null;
}
