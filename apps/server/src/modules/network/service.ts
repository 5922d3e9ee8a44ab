import { isPartnerCategory, type ClinicNetworkPage, type NetworkPlace, type NetworkPlaceForm, type PatientNetworkPage, type PatientNetworkQuery } from '@carteirinha/shared/contracts/network';
import type { ListQuery } from '@carteirinha/shared/contracts/pagination';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import { clinicSiteUrl } from '../tenancy/host-site.ts';
import { clinicSiteOf, deletePlaceRow, insertPlaceRow, placeCategory, lockClinicNetwork, partnerUsage, placeCount, searchPlaceRows, updatePlaceRow } from './repository.ts';

type Scope = { clinicId: string };
type Actor = Scope & { userId: string };
type SiteOptions = { mainDomain: string; publicUrl: string };

const m = messages.network;

/** Rede Credenciada of the clinic portal: a page of its places, searched, with the partner limit of its plan. */
export async function listClinicNetwork(db: Database, scope: Scope, query: ListQuery): Promise<ClinicNetworkPage> {
  const { rows, total } = await searchPlaceRows(db, scope, query);
  const partnerLimit = await partnerUsage(db, scope);
  // The response schema leaves the (null) distance out.
  return { items: rows, total, page: query.page, pageSize: query.pageSize, partnerLimit };
}

/** How many places the programme has: the count on the patient's Início. */
export async function programmePlaceCount(db: Database, scope: Scope): Promise<number> {
  return placeCount(db, scope);
}

/**
 * Rede Credenciada of the patient portal: the programme's places searched by name, category or address; with the
 * patient's position, nearest first, each with its distance in km.
 */
export async function searchPatientNetwork(db: Database, scope: Scope, query: PatientNetworkQuery, site: SiteOptions): Promise<PatientNetworkPage> {
  const origin = query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : undefined;
  const { rows, total } = await searchPlaceRows(db, scope, { ...query, origin });
  // The price table lives on the clinic's own site (the web router's /precos), wherever the patient signed in.
  const priceTableUrl = `${clinicSiteUrl(await clinicSiteOf(db, scope), site)}/precos`;
  return { items: rows, total, page: query.page, pageSize: query.pageSize, priceTableUrl };
}

/** A confirmation is a fact of the past: a day after today (São Paulo) is refused. */
function assertConfirmedByNow(input: NetworkPlaceForm, now: Date): void {
  if (input.lastConfirmedOn > saoPauloDay(now)) throw new AppError('VALIDATION', m.confirmedInFuture);
}

/**
 * The platform plan's `max_clinics` caps the partner places (ADR 024). `editedId` is the place being edited: a partner
 * stays one without needing room (even when a lowered plan leaves the clinic over its limit), and an own unit turned
 * into a partner needs room like a new one.
 */
async function assertPartnerRoom(tx: Database, actor: Actor, input: NetworkPlaceForm, editedId: string | null): Promise<void> {
  if (!isPartnerCategory(input.category)) return;
  if (editedId) {
    const current = await placeCategory(tx, actor, editedId);
    if (current !== null && isPartnerCategory(current)) return;
  }
  const { max, used } = await partnerUsage(tx, actor, editedId);
  if (max !== null && used >= max) throw new AppError('CONFLICT', formatMessage(m.partnerLimitReached, { max }));
}

/**
 * Every write of a place: the limit checked under the clinic's network lock, the row and its audit entry in one
 * transaction on the platform connection with every statement bound to the caller's clinic (the audit trail is not
 * tenant-writable).
 */
async function writePlace(
  db: Database,
  actor: Actor,
  action: string,
  input: NetworkPlaceForm,
  exceptId: string | null,
  write: (tx: Database) => Promise<NetworkPlace | null>,
): Promise<NetworkPlace> {
  return db.transaction(async (tx) => {
    await lockClinicNetwork(tx, actor);
    await assertPartnerRoom(tx, actor, input, exceptId);
    const place = await write(tx);
    if (!place) throw new AppError('NOT_FOUND', m.notFound);
    await recordAudit(tx, { actorUserId: actor.userId, action, entity: 'network_place', entityId: place.id, clinicId: actor.clinicId, details: { ...input } });
    return place;
  });
}

/** 'Novo Local'. */
export async function createPlace(db: Database, actor: Actor, input: NetworkPlaceForm, now: Date): Promise<NetworkPlace> {
  assertConfirmedByNow(input, now);
  return writePlace(db, actor, 'network_place.created', input, null, (tx) => insertPlaceRow(tx, actor, input, now));
}

/** 'Editar Local'. */
export async function updatePlace(db: Database, actor: Actor, id: string, input: NetworkPlaceForm, now: Date): Promise<NetworkPlace> {
  assertConfirmedByNow(input, now);
  return writePlace(db, actor, 'network_place.updated', input, id, (tx) => updatePlaceRow(tx, actor, id, input, now));
}

/** 'Excluir': the place leaves the patients' network. */
export async function removePlace(db: Database, actor: Actor, id: string): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const place = await deletePlaceRow(tx, actor, id);
    if (!place) throw new AppError('NOT_FOUND', m.notFound);
    await recordAudit(tx, { actorUserId: actor.userId, action: 'network_place.deleted', entity: 'network_place', entityId: id, clinicId: actor.clinicId, details: { name: place.name } });
    return { id };
  });
}
