import { and, asc, desc, eq, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { statementName, type Database } from '../../db/client.ts';
import type { CardLookupMethod, CardValidationResult } from '@carteirinha/shared/contracts/cards';
import { cardDevices, cardValidations, cards, clinics, clinicSettings, dependents, profiles, rateLimitHits, subscriptionPlans, subscriptions, users } from '../../db/schema.ts';

/**
 * What every card question reads in one statement: the card, its subscription and plan, the person's name and photo
 * and the clinic's grace days (the delinquency rule). Profiles are not a tenant table, so these run on the platform
 * connection with the clinic's condition written into each query (ADR 014).
 */
const cardFacts = {
  id: cards.id,
  number: cards.number,
  secretEncrypted: cards.secretEncrypted,
  dependentId: cards.dependentId,
  revokedAt: cards.revokedAt,
  holderUserId: cards.holderUserId,
  subscriptionId: cards.subscriptionId,
  status: subscriptions.status,
  expiresAt: subscriptions.expiresAt,
  canceledAt: subscriptions.canceledAt,
  companyMembershipId: subscriptions.companyMembershipId,
  benefitsStartAt: subscriptions.benefitsStartAt,
  planName: subscriptionPlans.name,
  maxMembers: subscriptionPlans.maxMembers,
  discountConsultas: subscriptionPlans.discountConsultas,
  discountExames: subscriptionPlans.discountExames,
  discountProcedimentos: subscriptionPlans.discountProcedimentos,
  // Scalar subqueries rather than four more joins: the planner then searches join orders for three tables instead
  // of seven, which is most of this statement's cost where no plan is cached (PGlite: 5 ms of planning against
  // 0.5 ms of execution, bench/RESULTS.md).
  holderName: sql<string>`coalesce((select ${profiles.fullName} from ${profiles} where ${profiles.id} = ${cards.holderUserId}), (select ${users.name} from ${users} where ${users.id} = ${cards.holderUserId}))`,
  holderPhotoUrl: sql<string | null>`(select ${profiles.avatarUrl} from ${profiles} where ${profiles.id} = ${cards.holderUserId})`,
  dependentName: sql<string | null>`(select ${dependents.fullName} from ${dependents} where ${dependents.id} = ${cards.dependentId})`,
  graceDays: sql<number | null>`(select ${clinicSettings.graceDays} from ${clinicSettings} where ${clinicSettings.clinicId} = ${cards.clinicId})`,
};

/** A card's person as a pair: (holder, the nil uuid) on the holder's own card, (holder, dependent) on a dependent's. */
const NIL_UUID = sql`'00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * The card is of the person with this CPF: a holder (profiles.cpf) or a dependent of this clinic (dependents.cpf).
 * One IN over a UNION of the two, which the planner turns into a join reaching cards by their holder
 * (cards_holder_idx) from the CPF indexes of profiles and dependents (migration 0014).
 */
function personWithCpf(clinicId: Placeholder, cpf: Placeholder): SQL {
  return sql`(${cards.holderUserId}, coalesce(${cards.dependentId}, ${NIL_UUID})) in (
    select ${profiles.id}, ${NIL_UUID} from ${profiles} where ${profiles.cpf} = ${cpf}
    union all
    select ${dependents.holderUserId}, ${dependents.id} from ${dependents} where ${dependents.clinicId} = ${clinicId} and ${dependents.cpf} = ${cpf})`;
}

function cardFactsQuery(db: Database) {
  return db
    .select(cardFacts)
    .from(cards)
    .innerJoin(subscriptions, eq(subscriptions.id, cards.subscriptionId))
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .$dynamic();
}

export type CardFacts = Awaited<ReturnType<ReturnType<typeof cardFactsQuery>['execute']>>[number];

/**
 * The hot path's lookups (card validation), prepared once per app: one statement each, the clinic's id a parameter
 * of it, so a card of another clinic is simply not found.
 */
export function prepareCardLookups(db: Database) {
  const byNumber = cardFactsQuery(db)
    .where(and(eq(cards.number, sql.placeholder('number')), eq(cards.clinicId, sql.placeholder('clinicId'))))
    .limit(1)
    .prepare(statementName(db, 'card_by_number'));
  // A person's CPF (/clinica/validar): a holder's own card or a dependent's card (one card per person per clinic). Two
  // rows are two people carrying the CPF — data from before a CPF was one person's (issue 22) — and then no card is
  // the answer: the reception asks for the card number.
  const byCpf = cardFactsQuery(db)
    .where(and(eq(cards.clinicId, sql.placeholder('clinicId')), personWithCpf(sql.placeholder('clinicId'), sql.placeholder('cpf'))))
    .orderBy(desc(subscriptions.createdAt), sql`${cards.dependentId} is not null`, asc(cards.issuedAt))
    .limit(2)
    .prepare(statementName(db, 'card_by_cpf'));
  return {
    byNumber: async (clinicId: string, number: string): Promise<CardFacts | null> => (await byNumber.execute({ number, clinicId }))[0] ?? null,
    byCpf: async (clinicId: string, cpf: string): Promise<CardFacts | 'ambiguous' | null> => {
      const found = await byCpf.execute({ cpf, clinicId });
      return found.length > 1 ? 'ambiguous' : (found[0] ?? null);
    },
  };
}
export type CardLookups = ReturnType<typeof prepareCardLookups>;

/** One card of this clinic by id (visits re-check it). */
export async function findClinicCard(db: Database, clinicId: string, cardId: string): Promise<CardFacts | null> {
  const [row] = await cardFactsQuery(db)
    .where(and(eq(cards.id, cardId), eq(cards.clinicId, clinicId)))
    .limit(1);
  return row ?? null;
}

/** A dependent the holder took off: their card (kept for life, suspended) is not one of the holder's cards to show. */
const notOfRemovedDependent = sql`not exists (select 1 from ${dependents} where ${dependents.id} = ${cards.dependentId} and ${dependents.removedAt} is not null)`;

/** The patient's cards: those of their newest subscription that has cards, the holder's first, removed dependents' not. */
export async function listPatientCards(db: Database, scope: { clinicId: string; userId: string }): Promise<CardFacts[]> {
  const owned = and(eq(cards.holderUserId, scope.userId), eq(cards.clinicId, scope.clinicId));
  const [newest] = await db
    .select({ subscriptionId: cards.subscriptionId })
    .from(cards)
    .innerJoin(subscriptions, eq(subscriptions.id, cards.subscriptionId))
    .where(owned)
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  if (!newest) return [];
  return cardFactsQuery(db)
    .where(and(owned, eq(cards.subscriptionId, newest.subscriptionId), notOfRemovedDependent))
    .orderBy(sql`${cards.dependentId} is not null`, asc(cards.issuedAt), asc(cards.id));
}

/** One of the patient's own cards; null for anyone else's (404, never 403: ids of others are not confirmed). */
export async function findPatientCard(db: Database, scope: { clinicId: string; userId: string }, cardId: string): Promise<CardFacts | null> {
  const [row] = await cardFactsQuery(db)
    .where(and(eq(cards.id, cardId), eq(cards.holderUserId, scope.userId), eq(cards.clinicId, scope.clinicId)))
    .limit(1);
  return row ?? null;
}

/** What the card image shows of the clinic: its name, colour and site. */
export async function findClinicBrand(db: Database, clinicId: string): Promise<{ name: string; primaryColor: string | null; slug: string; domain: string | null } | null> {
  const [row] = await db
    .select({ name: sql<string>`coalesce(${clinics.displayName}, ${clinics.name})`, primaryColor: clinics.primaryColor, slug: clinics.slug, domain: clinics.domain })
    .from(clinics)
    .where(eq(clinics.id, clinicId))
    .limit(1);
  return row ?? null;
}

const MINUTE_MS = 60_000;

export type ValidationAttempt = {
  clinicId: string;
  userId: string;
  cardId: string | null;
  method: CardLookupMethod;
  result: CardValidationResult;
  deviceId: string | null;
};

/**
 * Writes one validation attempt unless the user already made `perMinute` in their current minute; answers whether it
 * did. The user's count is a row of rate_limit_hits (a fixed window, like the sign-in limits' store), bumped in the
 * same statement as the insert — a data-modifying CTE the insert runs only when the bump happened — so the limit holds
 * across every server process sharing the database at the cost of one row lock per attempt, constant however many
 * attempts the minute already holds (issue 28: counting the minute's rows grew with the pace of the desk). A refused
 * attempt neither counts nor is recorded. Prepared once per app, like the lookups.
 */
export function prepareValidationRecorder(db: Database) {
  const bumped = db.$with('bumped', { ok: sql<number>`ok` }).as(
    sql`insert into ${rateLimitHits} (key, hits, window_ends_at)
      values (${sql.placeholder('key')}, 1, ${sql.placeholder('windowEndsAt')}::timestamptz)
      on conflict (key) do update set
        hits = case when ${rateLimitHits.windowEndsAt} <= ${sql.placeholder('at')}::timestamptz then 1 else ${rateLimitHits.hits} + 1 end,
        window_ends_at = case when ${rateLimitHits.windowEndsAt} <= ${sql.placeholder('at')}::timestamptz then excluded.window_ends_at else ${rateLimitHits.windowEndsAt} end
      where ${rateLimitHits.windowEndsAt} <= ${sql.placeholder('at')}::timestamptz or ${rateLimitHits.hits} < ${sql.placeholder('perMinute')}::int
      returning 1 as ok`,
  );
  // Every column of the table, in its order (drizzle's INSERT … SELECT names them all).
  const record = db
    .with(bumped)
    .insert(cardValidations)
    .select(
      sql`select gen_random_uuid(), ${sql.placeholder('clinicId')}::uuid, ${sql.placeholder('userId')}::uuid, ${sql.placeholder('cardId')}::uuid,
        ${sql.placeholder('method')}::card_lookup_method, ${sql.placeholder('result')}::card_validation_result, ${sql.placeholder('at')}::timestamptz,
        ${sql.placeholder('deviceId')}::uuid
      where exists (select 1 from ${bumped})`,
    )
    .returning({ id: cardValidations.id })
    .prepare(statementName(db, 'record_card_validation'));
  return async (attempt: ValidationAttempt, limit: { perMinute: number; now: Date }): Promise<boolean> => {
    const inserted = await record.execute({
      ...attempt,
      key: `card-validation|${attempt.userId}`,
      at: limit.now.toISOString(),
      windowEndsAt: new Date(limit.now.getTime() + MINUTE_MS).toISOString(),
      perMinute: limit.perMinute,
    });
    return inserted.length > 0;
  };
}
export type ValidationRecorder = ReturnType<typeof prepareValidationRecorder>;

/** What the patient's device list shows, and what the validation reads of a device. */
const deviceColumns = {
  id: cardDevices.id,
  name: cardDevices.name,
  slot: cardDevices.slot,
  createdAt: cardDevices.createdAt,
  confirmedAt: cardDevices.confirmedAt,
  lastUsedAt: cardDevices.lastUsedAt,
};
export type CardDeviceRow = { id: string; name: string; slot: number; createdAt: Date; confirmedAt: Date; lastUsedAt: Date | null };

function ownActiveDevice(scope: { clinicId: string; userId: string }) {
  return and(eq(cardDevices.clinicId, scope.clinicId), eq(cardDevices.userId, scope.userId), isNull(cardDevices.revokedAt));
}

/** The patient's enrolled devices in this clinic, newest first (revoked ones are not listed). */
export async function listCardDevices(db: Database, scope: { clinicId: string; userId: string }): Promise<CardDeviceRow[]> {
  return db.select(deviceColumns).from(cardDevices).where(ownActiveDevice(scope)).orderBy(desc(cardDevices.createdAt), asc(cardDevices.slot));
}

/**
 * Enrols a device in the first free slot (1…max), or answers null when the patient already has `max` devices. The
 * patient's enrolments are serialised by an advisory lock, so two at once cannot take one slot or pass the limit
 * (the partial unique index on the active slot is the wall behind it). Runs in the clinic's tenant scope.
 */
export async function enrolCardDeviceRow(
  tx: Database,
  scope: { clinicId: string; userId: string },
  device: { name: string; secretEncrypted: string; now: Date; max: number },
): Promise<CardDeviceRow | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`card-devices:${scope.userId}`}, 0))`);
  const taken = new Set((await tx.select({ slot: cardDevices.slot }).from(cardDevices).where(ownActiveDevice(scope))).map((row) => row.slot));
  const slot = Array.from({ length: device.max }, (_, index) => index + 1).find((candidate) => !taken.has(candidate));
  if (slot === undefined) return null;
  const [row] = await tx
    .insert(cardDevices)
    .values({ clinicId: scope.clinicId, userId: scope.userId, slot, name: device.name, secretEncrypted: device.secretEncrypted, createdAt: device.now, confirmedAt: device.now })
    .returning(deviceColumns);
  return row ?? null;
}

/** Revokes one of the patient's devices; false when it is not theirs or already revoked (404 either way). */
export async function revokeCardDeviceRow(tx: Database, scope: { clinicId: string; userId: string }, deviceId: string, now: Date): Promise<boolean> {
  const revoked = await tx
    .update(cardDevices)
    .set({ revokedAt: now })
    .where(and(eq(cardDevices.id, deviceId), ownActiveDevice(scope)))
    .returning({ id: cardDevices.id });
  return revoked.length > 0;
}

/** The device reached the server: its offline codes count from `now` again. Null when it is not an active device of the patient. */
export async function confirmCardDeviceRow(tx: Database, scope: { clinicId: string; userId: string }, deviceId: string, now: Date): Promise<CardDeviceRow | null> {
  const [row] = await tx
    .update(cardDevices)
    .set({ confirmedAt: now })
    .where(and(eq(cardDevices.id, deviceId), ownActiveDevice(scope)))
    .returning(deviceColumns);
  return row ?? null;
}

/**
 * The validation's device lookup (a `D1` token only): the card holder's active device in that slot, in the caller's
 * clinic — the clinic a bound parameter, as in the card lookup, so another clinic's or another patient's device is
 * never found.
 */
export function prepareDeviceLookup(db: Database) {
  const bySlot = db
    .select({ id: cardDevices.id, secretEncrypted: cardDevices.secretEncrypted, confirmedAt: cardDevices.confirmedAt })
    .from(cardDevices)
    .where(
      and(
        eq(cardDevices.clinicId, sql.placeholder('clinicId')),
        eq(cardDevices.userId, sql.placeholder('userId')),
        eq(cardDevices.slot, sql.placeholder('slot')),
        isNull(cardDevices.revokedAt),
      ),
    )
    .limit(1)
    .prepare(statementName(db, 'card_device_by_slot'));
  return async (clinicId: string, userId: string, slot: number) => (await bySlot.execute({ clinicId, userId, slot }))[0] ?? null;
}
export type DeviceLookup = ReturnType<typeof prepareDeviceLookup>;

/** A clinic validated a code this device showed. */
export async function markCardDeviceUsed(db: Database, deviceId: string, now: Date): Promise<void> {
  await db.update(cardDevices).set({ lastUsedAt: now }).where(eq(cardDevices.id, deviceId));
}
