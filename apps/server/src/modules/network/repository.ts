import { and, asc, count, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { NETWORK_CATEGORIES, NETWORK_CATEGORY_LABELS, type NetworkCategory, type NetworkPlace, type NetworkPlaceForm } from '@carteirinha/shared/contracts/network';
import type { Database } from '../../db/client.ts';
import { clinics, networkPlaces, plans } from '../../db/schema.ts';
import { foldedContains, foldText, totalOf } from '../../lib/sql.ts';

type Scope = { clinicId: string };

/** A point on Earth in decimal degrees: where the patient is. */
export type Position = { lat: number; lng: number };

export type PlaceSearch = { q?: string | undefined; page: number; pageSize: number; origin?: Position | undefined };

const placeColumns = {
  id: networkPlaces.id,
  name: networkPlaces.name,
  category: networkPlaces.category,
  address: networkPlaces.address,
  phone: networkPlaces.phone,
  hours: networkPlaces.hours,
  services: networkPlaces.services,
  latitude: networkPlaces.latitude,
  longitude: networkPlaces.longitude,
  lastConfirmedOn: networkPlaces.lastConfirmedOn,
};

const EARTH_RADIUS_KM = 6371.0088;

/**
 * The great-circle distance in km from `origin` to the place (haversine). `least(1, …)` keeps asin's argument in its
 * domain where rounding pushes it a hair above 1 (antipodal points).
 */
function distanceKmFrom(origin: Position): SQL<number> {
  const lat = sql`${origin.lat}::double precision`;
  const lng = sql`${origin.lng}::double precision`;
  return sql<number>`(${EARTH_RADIUS_KM}::double precision * 2 * asin(least(1, sqrt(
    power(sin(radians(${networkPlaces.latitude} - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(${networkPlaces.latitude})) * power(sin(radians(${networkPlaces.longitude} - ${lng}) / 2), 2)
  ))))`;
}

/** The categories whose pt-BR name holds the search ('laborat' finds the laboratories). */
function categoriesNamed(term: string): NetworkCategory[] {
  const folded = foldText(term);
  return NETWORK_CATEGORIES.filter((category) => foldText(NETWORK_CATEGORY_LABELS[category]).includes(folded));
}

/** Name, address or category name holds the search, ignoring case and accents. */
function matchesSearch(term: string | undefined): SQL | undefined {
  if (!term) return undefined;
  const categories = categoriesNamed(term);
  return or(
    foldedContains(networkPlaces.name, term),
    foldedContains(networkPlaces.address, term),
    categories.length > 0 ? inArray(networkPlaces.category, categories) : undefined,
  );
}

/**
 * One page of the clinic's places that match the search, with how many match in all. With an origin, nearest first
 * and each with its distance; else by name.
 */
export async function searchPlaceRows(db: Database, scope: Scope, search: PlaceSearch): Promise<{ rows: Array<NetworkPlace & { distanceKm: number | null }>; total: number }> {
  const where = and(eq(networkPlaces.clinicId, scope.clinicId), matchesSearch(search.q));
  const distance = search.origin ? distanceKmFrom(search.origin) : null;
  // One after the other: both run on the same transaction's connection.
  const rows = await db
    .select({ ...placeColumns, distanceKm: distance ?? sql<null>`null::double precision` })
    .from(networkPlaces)
    .where(where)
    .orderBy(...(distance ? [asc(distance)] : []), asc(networkPlaces.name), asc(networkPlaces.id))
    .limit(search.pageSize)
    .offset((search.page - 1) * search.pageSize);
  const total = await totalOf(db.select({ total: count() }).from(networkPlaces).where(where));
  return { rows: rows.map((row) => ({ ...row, distanceKm: row.distanceKm === null ? null : Number(row.distanceKm) })), total };
}

/** How many places the clinic's programme has (Início's network tile). */
export async function placeCount(db: Database, scope: Scope): Promise<number> {
  return totalOf(db.select({ total: count() }).from(networkPlaces).where(eq(networkPlaces.clinicId, scope.clinicId)));
}

/** The category a place of this clinic has now; null for no such place (or another clinic's). */
export async function placeCategory(db: Database, scope: Scope, id: string): Promise<NetworkCategory | null> {
  const [row] = await db
    .select({ category: networkPlaces.category })
    .from(networkPlaces)
    .where(and(eq(networkPlaces.id, id), eq(networkPlaces.clinicId, scope.clinicId)))
    .limit(1);
  return row?.category ?? null;
}

export async function insertPlaceRow(db: Database, scope: Scope, input: NetworkPlaceForm, now: Date): Promise<NetworkPlace> {
  const [row] = await db
    .insert(networkPlaces)
    .values({ clinicId: scope.clinicId, ...input, createdAt: now, updatedAt: now })
    .returning(placeColumns);
  if (!row) throw new Error('network place not inserted');
  return row;
}

/** Updates one place of this clinic; another clinic's id matches nothing (null → 404). */
export async function updatePlaceRow(db: Database, scope: Scope, id: string, input: NetworkPlaceForm, now: Date): Promise<NetworkPlace | null> {
  const [row] = await db
    .update(networkPlaces)
    .set({ ...input, updatedAt: now })
    .where(and(eq(networkPlaces.id, id), eq(networkPlaces.clinicId, scope.clinicId)))
    .returning(placeColumns);
  return row ?? null;
}

export async function deletePlaceRow(db: Database, scope: Scope, id: string): Promise<NetworkPlace | null> {
  const [row] = await db
    .delete(networkPlaces)
    .where(and(eq(networkPlaces.id, id), eq(networkPlaces.clinicId, scope.clinicId)))
    .returning(placeColumns);
  return row ?? null;
}

/**
 * The partner places the clinic has (every place but its own units), other than `exceptId`, and the platform plan's
 * `max_clinics` (null: no limit, or no plan). One statement.
 */
export async function partnerUsage(db: Database, scope: Scope, exceptId: string | null = null): Promise<{ max: number | null; used: number }> {
  const used = db
    .select({ used: count() })
    .from(networkPlaces)
    .where(
      and(
        eq(networkPlaces.clinicId, scope.clinicId),
        ne(networkPlaces.category, 'unidade_propria'),
        exceptId ? ne(networkPlaces.id, exceptId) : undefined,
      ),
    );
  const [row] = await db
    .select({ max: plans.maxClinics, used: sql<number>`(${used})::integer` })
    .from(clinics)
    .leftJoin(plans, eq(plans.id, clinics.planId))
    .where(eq(clinics.id, scope.clinicId))
    .limit(1);
  return { max: row?.max ?? null, used: Number(row?.used ?? 0) };
}

/** Serialises the network writes of one clinic: two partners added at once must not both pass the plan's limit. */
export async function lockClinicNetwork(tx: Database, scope: Scope): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`network:${scope.clinicId}`}, 0))`);
}

/** What names the clinic's own site: its domain, or its slug under the platform's. */
export async function clinicSiteOf(db: Database, scope: Scope): Promise<{ slug: string; domain: string | null }> {
  const [row] = await db.select({ slug: clinics.slug, domain: clinics.domain }).from(clinics).where(eq(clinics.id, scope.clinicId)).limit(1);
  if (!row) throw new Error('the caller’s clinic is gone');
  return row;
}
