import { and, asc, desc, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { PriceHistoryEntry, ServiceCategory, ServiceForm } from '@carteirinha/shared/contracts/services';
import type { Database } from '../../db/client.ts';
import { servicePriceHistory, services, visits } from '../../db/schema.ts';

type Scope = { clinicId: string };

/** A service as the price list stores it; the card prices are computed from the plans on sale (service.ts). */
export type ServiceRow = { id: string; name: string; category: ServiceCategory; priceCents: number; discountPercent: number | null; isActive: boolean };

const serviceColumns = {
  id: services.id,
  name: services.name,
  category: services.category,
  priceCents: services.priceCents,
  discountPercent: services.discountPercent,
  isActive: services.isActive,
};

/**
 * The clinic's price list, active services first, by name. A price list is short (tens of services, a few hundred at
 * most), so it is read whole: the visit dialog offers every active service, the Serviços screen filters as you type.
 */
export async function listServiceRows(db: Database, scope: Scope, options: { activeOnly: boolean } = { activeOnly: false }): Promise<ServiceRow[]> {
  return db
    .select(serviceColumns)
    .from(services)
    .where(and(eq(services.clinicId, scope.clinicId), options.activeOnly ? eq(services.isActive, true) : undefined))
    .orderBy(desc(services.isActive), asc(services.name), asc(services.id))
    .limit(1000);
}

/** One service of this clinic; null for another clinic's (a visit names it by id). */
export async function findServiceRow(db: Database, scope: Scope, id: string): Promise<ServiceRow | null> {
  const [row] = await db
    .select(serviceColumns)
    .from(services)
    .where(and(eq(services.id, id), eq(services.clinicId, scope.clinicId)))
    .limit(1);
  return row ?? null;
}

/** Whether another service of the clinic already has this name (ignoring case and accents). */
export async function serviceNameTaken(db: Database, scope: Scope, name: string, exceptId: string | null): Promise<boolean> {
  const [row] = await db
    .select({ id: services.id })
    .from(services)
    .where(
      and(
        eq(services.clinicId, scope.clinicId),
        sql`fold_text(${services.name}) = fold_text(${name})`,
        exceptId ? sql`${services.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertServiceRow(db: Database, scope: Scope, input: ServiceForm, now: Date): Promise<ServiceRow> {
  const [row] = await db
    .insert(services)
    .values({ clinicId: scope.clinicId, ...input, createdAt: now, updatedAt: now })
    .returning(serviceColumns);
  if (!row) throw new Error('service not inserted');
  return row;
}

/** Updates one service of this clinic; another clinic's id matches nothing (null → 404). */
export async function updateServiceRow(db: Database, scope: Scope, id: string, values: Partial<ServiceForm> & { isActive?: boolean }, now: Date): Promise<ServiceRow | null> {
  const [row] = await db
    .update(services)
    .set({ ...values, updatedAt: now })
    .where(and(eq(services.id, id), eq(services.clinicId, scope.clinicId)))
    .returning(serviceColumns);
  return row ?? null;
}

/** Whether any visit named this service: such a service is archived, never deleted (its visits keep their record). */
export async function serviceUsedByVisits(db: Database, scope: Scope, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.clinicId, scope.clinicId), eq(visits.serviceId, id)))
    .limit(1);
  return row !== undefined;
}

export async function deleteServiceRow(db: Database, scope: Scope, id: string): Promise<void> {
  await db.delete(services).where(and(eq(services.id, id), eq(services.clinicId, scope.clinicId)));
}

// ---------------------------------------------------------------------------------------------------------------
// The price table over time (service_price_history).
// ---------------------------------------------------------------------------------------------------------------

/** A row of the price table as it should read now: a service's full price (`planId` null) or one plan's card price. */
export type PriceRow = {
  serviceId: string;
  planId: string | null;
  serviceName: string;
  planName: string | null;
  category: ServiceCategory;
  fullPriceCents: number;
  discountPercent: number | null;
  cardPriceCents: number | null;
};

export type OpenPriceRow = PriceRow & { id: string; validFrom: Date };

/**
 * Serialises the price history writes of one clinic until the transaction ends: two changes at once would both open
 * a row for the same service and plan (the open-row index would refuse the second).
 */
export async function lockClinicPriceTable(tx: Database, scope: Scope): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`price-table:${scope.clinicId}`}, 0))`);
}

/** A price row's columns, as the table writes and reads them. */
const PRICE_COLUMNS = {
  serviceId: servicePriceHistory.serviceId,
  planId: servicePriceHistory.planId,
  serviceName: servicePriceHistory.serviceName,
  planName: servicePriceHistory.planName,
  category: servicePriceHistory.category,
  fullPriceCents: servicePriceHistory.fullPriceCents,
  discountPercent: servicePriceHistory.discountPercent,
  cardPriceCents: servicePriceHistory.cardPriceCents,
};

export async function openPriceRows(tx: Database, scope: Scope): Promise<OpenPriceRow[]> {
  return tx
    .select({ id: servicePriceHistory.id, ...PRICE_COLUMNS, validFrom: servicePriceHistory.validFrom })
    .from(servicePriceHistory)
    .where(and(eq(servicePriceHistory.clinicId, scope.clinicId), isNull(servicePriceHistory.validTo)));
}

export async function closePriceRow(tx: Database, id: string, at: Date): Promise<void> {
  await tx.update(servicePriceHistory).set({ validTo: at }).where(eq(servicePriceHistory.id, id));
}

/** A row opened in this same instant is rewritten rather than closed at once (no empty stretch of time). */
export async function rewritePriceRow(tx: Database, id: string, row: PriceRow): Promise<void> {
  await tx.update(servicePriceHistory).set(row).where(eq(servicePriceHistory.id, id));
}

export async function deletePriceRow(tx: Database, id: string): Promise<void> {
  await tx.delete(servicePriceHistory).where(eq(servicePriceHistory.id, id));
}

export async function insertPriceRows(tx: Database, scope: Scope, rows: PriceRow[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(servicePriceHistory).values(rows.map((row) => ({ ...row, clinicId: scope.clinicId, validFrom: at })));
}

/** A service's price history, newest first: every stretch of its full price and of each plan's card price. */
export async function priceHistoryOfService(db: Database, scope: Scope, serviceId: string): Promise<PriceHistoryEntry[]> {
  const rows = await db
    .select()
    .from(servicePriceHistory)
    .where(and(eq(servicePriceHistory.clinicId, scope.clinicId), eq(servicePriceHistory.serviceId, serviceId)))
    .orderBy(desc(servicePriceHistory.validFrom), sql`${servicePriceHistory.planId} nulls first`, asc(servicePriceHistory.planName))
    .limit(500);
  return rows.map((row) => ({
    planId: row.planId,
    planName: row.planName,
    serviceName: row.serviceName,
    category: row.category,
    fullPriceCents: row.fullPriceCents,
    discountPercent: row.discountPercent,
    cardPriceCents: row.cardPriceCents,
    validFrom: row.validFrom.toISOString(),
    validTo: row.validTo?.toISOString() ?? null,
  }));
}

/** The price table as it read at `instant`: the rows whose stretch of time holds it. */
export async function priceRowsAt(db: Database, scope: Scope, instant: Date): Promise<PriceRow[]> {
  return db
    .select(PRICE_COLUMNS)
    .from(servicePriceHistory)
    .where(
      and(
        eq(servicePriceHistory.clinicId, scope.clinicId),
        lt(servicePriceHistory.validFrom, instant),
        or(isNull(servicePriceHistory.validTo), gte(servicePriceHistory.validTo, instant)),
      ),
    )
    .orderBy(asc(servicePriceHistory.serviceName), asc(servicePriceHistory.serviceId))
    .limit(5000);
}
