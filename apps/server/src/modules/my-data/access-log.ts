/**
 * 'Quem consultou meu cartão' (issue 27; ADR 027): the validations of the patient's cards (their own and their
 * dependents'), newest first, a page at a time. Who looked is shown by name and role, never by e-mail. The page is
 * read inside the tenant's scope; the names, a platform table, by the page's user ids and only for people holding a
 * role in the patient's clinic. Two statements per page (plus the count) whatever the page size (ADR 018).
 */
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { CardAccessEntry, CardAccessQuery } from '@carteirinha/shared/contracts/my-data';
import type { Database } from '../../db/client.ts';
import { cardValidations, cards, dependents, userRoles, users } from '../../db/schema.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { totalOf } from '../../lib/sql.ts';
import type { Patient } from './export.ts';

function ownValidations(patient: Patient) {
  return and(eq(cardValidations.clinicId, patient.clinicId), eq(cards.clinicId, patient.clinicId), eq(cards.holderUserId, patient.userId));
}

async function pageOfValidations(tx: Database, patient: Patient, query: CardAccessQuery) {
  const rows = await tx
    .select({
      id: cardValidations.id,
      at: cardValidations.createdAt,
      userId: cardValidations.userId,
      method: cardValidations.method,
      result: cardValidations.result,
      cardNumber: cards.number,
      dependentName: dependents.fullName,
    })
    .from(cardValidations)
    .innerJoin(cards, eq(cards.id, cardValidations.cardId))
    .leftJoin(dependents, eq(dependents.id, cards.dependentId))
    .where(ownValidations(patient))
    .orderBy(desc(cardValidations.createdAt), desc(cardValidations.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const total = await totalOf(tx.select({ total: count() }).from(cardValidations).innerJoin(cards, eq(cards.id, cardValidations.cardId)).where(ownValidations(patient)));
  return { rows, total };
}

/** Names and roles of the clinic's people on the page; someone no longer of the clinic is shown as unknown. */
async function clinicPeople(db: Database, clinicId: string, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, { name: string; role: 'clinic_admin' | 'clinic_staff' }>();
  const rows = await db
    .select({ id: users.id, name: users.name, role: userRoles.role })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .where(and(inArray(users.id, userIds), eq(userRoles.clinicId, clinicId), inArray(userRoles.role, ['clinic_admin', 'clinic_staff'])));
  return new Map(rows.flatMap((row) => (row.role === 'clinic_admin' || row.role === 'clinic_staff' ? [[row.id, { name: row.name, role: row.role }] as const] : [])));
}

export async function cardAccessLog(db: Database, patient: Patient, query: CardAccessQuery): Promise<{ items: CardAccessEntry[]; total: number }> {
  const { rows, total } = await withTenantScope(db, patient.clinicId, (tx) => pageOfValidations(tx, patient, query));
  const people = await clinicPeople(db, patient.clinicId, [...new Set(rows.flatMap((row) => (row.userId ? [row.userId] : [])))]);
  const items = rows.map((row) => {
    const person = row.userId ? people.get(row.userId) : undefined;
    return {
      id: row.id,
      at: row.at.toISOString(),
      dependentName: row.dependentName,
      cardNumber: row.cardNumber,
      userName: person?.name ?? null,
      userRole: person?.role ?? null,
      method: row.method,
      result: row.result,
    };
  });
  return { items, total };
}
