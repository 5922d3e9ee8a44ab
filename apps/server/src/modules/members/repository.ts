import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Member, MemberDetail, MemberListQuery } from '@carteirinha/shared/contracts/members';
import { CARD_LOOKUP_METHODS, CARD_VALIDATION_RESULTS } from '@carteirinha/shared/contracts/cards';
import { MEMBER_DETAIL_ROWS } from '@carteirinha/shared/contracts/members';
import { PAYMENT_METHODS, PAYMENT_STATUSES } from '@carteirinha/shared/contracts/payments';
import { SUBSCRIPTION_STATUSES } from '@carteirinha/shared/contracts/subscriptions';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { clinics, companyMemberships, cpfClaims, profiles, subscriptionPlans, userRoles, users } from '../../db/schema.ts';
import { decodeCursor, encodeCursor, offsetOf } from '../../lib/keyset.ts';
import { containsPattern, foldedContains, rowsOf } from '../../lib/sql.ts';

type Scope = { clinicId: string };

const instant = z.coerce.date();
const nullableInstant = z.coerce.date().nullable();

const memberRow = z.object({
  user_id: z.string(),
  cursor_at: z.string(),
  joined_at: instant,
  full_name: z.string(),
  email: z.string(),
  cpf: z.string().nullable(),
  subscription_id: z.string().nullable(),
  plan_name: z.string().nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES).nullable(),
  expires_at: nullableInstant,
  card_number: z.string().nullable(),
  dependents: z.coerce.number(),
});
type MemberRow = z.output<typeof memberRow>;

function toMember(row: MemberRow): Member {
  return {
    userId: row.user_id,
    fullName: row.full_name,
    email: row.email,
    cpf: row.cpf,
    joinedAt: row.joined_at.toISOString(),
    subscription:
      row.subscription_id && row.plan_name && row.status
        ? { id: row.subscription_id, planName: row.plan_name, status: row.status, expiresAt: row.expires_at?.toISOString() ?? null }
        : null,
    cardNumber: row.card_number,
    dependents: row.dependents,
  };
}

/**
 * The search of 'Pacientes': digits find a CPF or a card number (the desk reads either off a document), anything else
 * the name (accents and case folded) or the e-mail.
 */
function searchCondition(term: string): SQL {
  const digits = term.replace(/\D/g, '');
  if (digits.length >= 3 && digits.length === term.replace(/[\s.\-/]/g, '').length) {
    return sql`(p.cpf like ${containsPattern(digits)} or exists (select 1 from cards c where c.clinic_id = r.clinic_id and c.holder_user_id = r.user_id and c.number like ${containsPattern(digits)}))`;
  }
  return sql`(${foldedContains(sql`coalesce(p.full_name, u.name)`, term)} or ${foldedContains(sql`u.email`, term)})`;
}

function statusCondition(status: MemberListQuery['status']): SQL | undefined {
  if (!status) return undefined;
  return status === 'none' ? sql`s.id is null` : sql`s.status = ${status}`;
}

function whereOf(scope: Scope, conditions: (SQL | undefined)[]): SQL {
  return sql.join(
    [sql`r.clinic_id = ${scope.clinicId} and r.role = 'patient'`, ...conditions.filter((condition): condition is SQL => condition !== undefined)],
    sql` and `,
  );
}

/**
 * The programme's patients with their latest subscription: one statement, the latest found per person by its index.
 * `roles` is where the rows come from: the clinic's roles, or a page of them already cut (see listMembers).
 */
function memberSelect(scope: Scope, conditions: (SQL | undefined)[], roles: SQL = sql`user_roles`): SQL {
  return sql`
    select r.user_id, r.created_at::text as cursor_at, r.created_at as joined_at, coalesce(p.full_name, u.name) as full_name, u.email, p.cpf,
      s.id as subscription_id, sp.name as plan_name, s.status::text as status, s.expires_at,
      (select c.number from cards c where c.clinic_id = r.clinic_id and c.holder_user_id = r.user_id and c.dependent_id is null order by c.issued_at limit 1) as card_number,
      (select count(*) from dependents d where d.clinic_id = r.clinic_id and d.holder_user_id = r.user_id and d.removed_at is null) as dependents
    from ${roles} r
    join users u on u.id = r.user_id
    left join profiles p on p.id = r.user_id
    left join lateral (
      select x.id, x.plan_id, x.status, x.expires_at from subscriptions x
      where x.clinic_id = r.clinic_id and x.user_id = r.user_id order by x.created_at desc limit 1
    ) s on true
    left join subscription_plans sp on sp.id = s.plan_id
    where ${whereOf(scope, conditions)}`;
}

/**
 * The clinic's patients that match name, e-mail, CPF or card: what a page and its count need when no status is asked.
 * The person's name and e-mail are joined only for a search (every role has its user: a foreign key).
 */
function leanRoles(scope: Scope, search: SQL | undefined, conditions: (SQL | undefined)[] = []): SQL {
  const people = search ? sql` join users u on u.id = r.user_id left join profiles p on p.id = r.user_id` : sql``;
  return sql`from user_roles r${people} where ${whereOf(scope, [search, ...conditions])}`;
}

const ORDER = sql`order by r.created_at desc, r.user_id desc`;

/**
 * 'Pacientes', newest members first, a page after `query.after` (keyset on the role's created_at and the user id).
 * Without a status filter the page is cut from the roles alone and only its rows get their subscription, card and
 * dependents, and the count reads the roles alone: at 2 212 patients the whole-clinic join took 19 ms a page (bench/
 * RESULTS.md). A status filter needs each person's latest subscription to choose, so it reads them all.
 */
export async function listMembers(db: Database, scope: Scope, query: MemberListQuery): Promise<{ items: Member[]; total: number; nextCursor: string | null }> {
  const term = query.q?.trim();
  const search = term ? searchCondition(term) : undefined;
  const status = statusCondition(query.status);
  const cursor = query.after ? decodeCursor(query.after) : null;
  const after = cursor ? sql`(r.created_at, r.user_id) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined;
  const window = sql`limit ${query.pageSize + 1} offset ${offsetOf(query)}`;
  const pageQuery = status
    ? sql`${memberSelect(scope, [search, status, after])} ${ORDER} ${window}`
    : sql`${memberSelect(scope, [], sql`(select r.* ${leanRoles(scope, search, [after])} ${ORDER} ${window})`)} ${ORDER}`;
  const countQuery = status ? sql`select count(*) as total from (${memberSelect(scope, [search, status])}) m` : sql`select count(*) as total ${leanRoles(scope, search)}`;
  const [rows, counted] = await Promise.all([rowsOf(db, pageQuery, memberRow), rowsOf(db, countQuery, z.object({ total: z.coerce.number() }))]);
  const shown = rows.slice(0, query.pageSize);
  const last = shown.at(-1);
  return {
    items: shown.map(toMember),
    total: counted[0]?.total ?? 0,
    nextCursor: rows.length > query.pageSize && last ? encodeCursor({ at: last.cursor_at, id: last.user_id }) : null,
  };
}

/** One member of the programme as the list shows them, or null when the person is not this clinic's patient. */
export async function findMember(db: Database, scope: Scope, userId: string): Promise<(Member & { phone: string | null; birthDate: string | null }) | null> {
  const [row] = await rowsOf(
    db,
    sql`select m.*, p.phone, p.birth_date::text as birth_date from (${memberSelect(scope, [sql`r.user_id = ${userId}`])}) m left join profiles p on p.id = m.user_id`,
    memberRow.extend({ phone: z.string().nullable(), birth_date: z.string().nullable() }),
  );
  return row ? { ...toMember(row), phone: row.phone, birthDate: row.birth_date } : null;
}

/** The member's subscriptions, cards, dependents, charges and validations at this clinic, newest first. */
export async function memberRecords(db: Database, scope: Scope, userId: string): Promise<Omit<MemberDetail, keyof Member | 'phone' | 'birthDate' | 'visits'>> {
  const limit = MEMBER_DETAIL_ROWS;
  const [subscriptions, cards, dependents, charges, validations] = await Promise.all([
    rowsOf(
      db,
      sql`select s.id, sp.name as plan_name, s.status::text as status, s.amount_cents, s.payment_method::text as payment_method, s.started_at, s.expires_at, s.canceled_at
        from subscriptions s join subscription_plans sp on sp.id = s.plan_id
        where s.clinic_id = ${scope.clinicId} and s.user_id = ${userId} order by s.created_at desc`,
      z.object({
        id: z.string(),
        plan_name: z.string(),
        status: z.enum(SUBSCRIPTION_STATUSES),
        amount_cents: z.coerce.number().nullable(),
        payment_method: z.enum(PAYMENT_METHODS).nullable(),
        started_at: nullableInstant,
        expires_at: nullableInstant,
        canceled_at: nullableInstant,
      }),
    ),
    rowsOf(
      db,
      sql`select c.id, c.number, coalesce(d.full_name, p.full_name, u.name) as person_name, c.dependent_id is not null as is_dependent, c.issued_at, c.revoked_at
        from cards c join users u on u.id = c.holder_user_id left join profiles p on p.id = c.holder_user_id left join dependents d on d.id = c.dependent_id
        where c.clinic_id = ${scope.clinicId} and c.holder_user_id = ${userId} order by c.dependent_id is not null, c.issued_at`,
      z.object({ id: z.string(), number: z.string(), person_name: z.string(), is_dependent: z.boolean(), issued_at: instant, revoked_at: nullableInstant }),
    ),
    rowsOf(
      db,
      sql`select d.id, d.full_name, d.cpf, d.relationship, d.birth_date::text as birth_date, d.removed_at from dependents d
        where d.clinic_id = ${scope.clinicId} and d.holder_user_id = ${userId} order by d.removed_at nulls first, d.created_at`,
      z.object({ id: z.string(), full_name: z.string(), cpf: z.string().nullable(), relationship: z.string().nullable(), birth_date: z.string().nullable(), removed_at: nullableInstant }),
    ),
    rowsOf(
      db,
      sql`select pay.id, pay.due_date::text as due_date, pay.amount_cents, pay.method::text as method, pay.status::text as status, pay.paid_at
        from payments pay join subscriptions s on s.id = pay.subscription_id
        where pay.clinic_id = ${scope.clinicId} and s.user_id = ${userId} order by pay.due_date desc, pay.created_at desc limit ${limit}`,
      z.object({
        id: z.string(),
        due_date: z.string(),
        amount_cents: z.coerce.number(),
        method: z.enum(PAYMENT_METHODS),
        status: z.enum(PAYMENT_STATUSES),
        paid_at: nullableInstant,
      }),
    ),
    rowsOf(
      db,
      sql`select v.created_at, c.number as card_number, v.result::text as result, v.method::text as method, coalesce(vp.full_name, vu.name) as by
        from card_validations v join cards c on c.id = v.card_id
        left join users vu on vu.id = v.user_id left join profiles vp on vp.id = v.user_id
        where v.clinic_id = ${scope.clinicId} and c.holder_user_id = ${userId} order by v.created_at desc limit ${limit}`,
      z.object({ created_at: instant, card_number: z.string().nullable(), result: z.enum(CARD_VALIDATION_RESULTS), method: z.enum(CARD_LOOKUP_METHODS), by: z.string().nullable() }),
    ),
  ]);
  const iso = (value: Date | null) => value?.toISOString() ?? null;
  return {
    subscriptions: subscriptions.map((row) => ({
      id: row.id,
      planName: row.plan_name,
      status: row.status,
      amountCents: row.amount_cents,
      paymentMethod: row.payment_method,
      startedAt: iso(row.started_at),
      expiresAt: iso(row.expires_at),
      canceledAt: iso(row.canceled_at),
    })),
    cards: cards.map((row) => ({ id: row.id, number: row.number, personName: row.person_name, isDependent: row.is_dependent, issuedAt: row.issued_at.toISOString(), revokedAt: iso(row.revoked_at) })),
    dependentList: dependents.map((row) => ({ id: row.id, fullName: row.full_name, cpf: row.cpf, relationship: row.relationship, birthDate: row.birth_date, removedAt: iso(row.removed_at) })),
    charges: charges.map((row) => ({ id: row.id, dueDate: row.due_date, amountCents: row.amount_cents, method: row.method, status: row.status, paidAt: iso(row.paid_at) })),
    validations: validations.map((row) => ({ at: row.created_at.toISOString(), cardNumber: row.card_number, result: row.result, method: row.method, by: row.by })),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 'Importar CSV' (issue 26)
// ---------------------------------------------------------------------------------------------------------------

/** A patient plan the clinic sells now (active, saved once by its admin): what an import may enrol people in. */
export async function findPlanOnSale(db: Database, scope: Scope, planId: string): Promise<{ id: string; name: string } | null> {
  const [plan] = await db
    .select({ id: subscriptionPlans.id, name: subscriptionPlans.name })
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.id, planId), eq(subscriptionPlans.clinicId, scope.clinicId), eq(subscriptionPlans.isActive, true), eq(subscriptionPlans.awaitingReview, false)))
    .limit(1);
  return plan ?? null;
}

/**
 * The CPFs of the list that a person of the clinic already holds: claimed (cpf_claims, one person per CPF per clinic),
 * or written on one of its patients or dependents without a claim (records from before claims existed).
 */
export async function claimedCpfs(db: Database, scope: Scope, cpfs: string[]): Promise<Set<string>> {
  if (cpfs.length === 0) return new Set();
  const list = sql.join(cpfs.map((cpf) => sql`${cpf}`), sql`, `);
  const rows = await rowsOf(
    db,
    sql`select cpf from cpf_claims where clinic_id = ${scope.clinicId} and cpf in (${list})
      union select p.cpf from profiles p join user_roles r on r.user_id = p.id and r.clinic_id = ${scope.clinicId} and r.role = 'patient' where p.cpf in (${list})
      union select d.cpf from dependents d where d.clinic_id = ${scope.clinicId} and d.removed_at is null and d.cpf in (${list})`,
    z.object({ cpf: z.string() }),
  );
  return new Set(rows.map((row) => row.cpf));
}

/** The accounts of the list's e-mails, with their role and clinic (none: an account without a role). */
export async function accountsByEmail(db: Database, emails: string[]): Promise<Map<string, { role: string | null; clinicId: string | null }>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .select({ email: users.email, role: userRoles.role, clinicId: userRoles.clinicId })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .where(inArray(sql`lower(${users.email})`, emails));
  return new Map(rows.map((row) => [row.email.toLowerCase(), { role: row.role, clinicId: row.clinicId }]));
}

/**
 * How many more people the clinic's platform plan takes (null: no limit). It counts both what max_patients is held
 * against: the clinic's patients (sign-up) and its open subscriptions (checkout).
 */
export async function patientRoom(db: Database, scope: Scope): Promise<{ max: number; room: number } | null> {
  const [row] = await rowsOf(
    db,
    sql`select p.max_patients,
        (select count(*) from user_roles r where r.clinic_id = c.id and r.role = 'patient') as patients,
        (select count(*) from subscriptions s where s.clinic_id = c.id and s.status in ('pending', 'active', 'overdue')) as open
      from clinics c left join plans p on p.id = c.plan_id where c.id = ${scope.clinicId}`,
    z.object({ max_patients: z.coerce.number().nullable(), patients: z.coerce.number(), open: z.coerce.number() }),
  );
  if (!row || row.max_patients === null) return null;
  return { max: row.max_patients, room: Math.max(0, row.max_patients - Math.max(row.patients, row.open)) };
}

/**
 * Serialises the clinic's enrolments for the rest of the transaction, with the same lock checkout takes before it
 * counts (checkout/repository.ts lockClinicCheckouts): an import and a checkout cannot both see room for the last place.
 */
export async function lockClinicEnrolments(tx: Database, scope: Scope): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`checkout:${scope.clinicId}`}, 0))`);
}

export type ImportedPerson = { fullName: string; cpf: string; email: string; birthDate: string | null; phone: string | null };

/**
 * The people of an import as the clinic's patients: each an account without a password (the invitation sets it), its
 * profile, its patient role here and its CPF claimed. Bulk statements: one per table, whatever the number of people.
 * Answers the new user ids by e-mail.
 */
export async function insertImportedPatients(tx: Database, scope: Scope, people: ImportedPerson[], now: Date): Promise<Map<string, string>> {
  const created = await tx
    .insert(users)
    .values(people.map((person) => ({ email: person.email, name: person.fullName, emailVerified: false, createdAt: now, updatedAt: now })))
    .returning({ id: users.id, email: users.email });
  const idOf = new Map(created.map((row) => [row.email, row.id]));
  const withId = people.flatMap((person) => {
    const id = idOf.get(person.email);
    return id ? [{ ...person, id }] : [];
  });
  await tx.insert(profiles).values(withId.map((person) => ({ id: person.id, fullName: person.fullName, cpf: person.cpf, phone: person.phone, birthDate: person.birthDate })));
  await tx.insert(userRoles).values(withId.map((person) => ({ userId: person.id, role: 'patient' as const, clinicId: scope.clinicId, createdAt: now })));
  await tx.insert(cpfClaims).values(withId.map((person) => ({ clinicId: scope.clinicId, cpf: person.cpf, userId: person.id, dependentId: null, claimedAt: now })));
  return idOf;
}

export async function insertCompanyMembership(
  tx: Database,
  scope: Scope,
  membership: { companyName: string; cnpj: string; planId: string; validUntil: string; createdByUserId: string },
): Promise<string> {
  const [row] = await tx.insert(companyMemberships).values({ clinicId: scope.clinicId, ...membership }).returning({ id: companyMemberships.id });
  if (!row) throw new Error('company membership not recorded');
  return row.id;
}

/** The clinic's contact address, which an invited person writes to to refuse (LGPD). */
export async function clinicContactEmail(db: Database, scope: Scope): Promise<string | null> {
  const [row] = await db.select({ email: clinics.contactEmail }).from(clinics).where(eq(clinics.id, scope.clinicId)).limit(1);
  return row?.email ?? null;
}

/** An enrolled person still to be invited: their address and name, while they have not set a password yet. */
export async function pendingInvitee(db: Database, userId: string): Promise<{ email: string; fullName: string } | null> {
  const [row] = await rowsOf(
    db,
    sql`select u.email, coalesce(p.full_name, u.name) as full_name from users u left join profiles p on p.id = u.id
      where u.id = ${userId} and not exists (select 1 from accounts a where a.user_id = u.id)`,
    z.object({ email: z.string(), full_name: z.string() }),
  );
  return row ? { email: row.email, fullName: row.full_name } : null;
}
