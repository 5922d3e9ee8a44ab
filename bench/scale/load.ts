/**
 * Writes the generated data. Rows made in JavaScript (world.ts) go in as a few columns of arrays per statement
 * (`insert … select * from unnest($1::text[], …)`, 5 000 rows a statement); the rows that follow from them —
 * two years of charges, visits and card validations — are made by the database itself with
 * `insert … select … generate_series`, so a million visits never cross the wire.
 */
import { defaultTermsBody } from '../../apps/server/src/modules/checkout/default-terms.ts';
import type { CardSeed, ClinicSeed, DependentSeed, PersonSeed, SubscriptionSeed } from './world.ts';

/** The little of a driver the loader needs: node-postgres's Client and PGlite both answer this. */
export type BulkClient = { query: (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[]; rowCount: number }> };

const BATCH_ROWS = 5_000;
/** Every generated charge's provider id starts with this: they are the embedded provider's, made by the generator. */
const GENERATED_CHARGE_PREFIX = 'gerado-';

/** Each column of a table: its SQL type and how a row gives its value. */
type Columns<Row> = Record<string, readonly [type: string, value: (row: Row) => unknown]>;

/** Inserts `rows` in statements of BATCH_ROWS, each column sent as one array parameter. */
export async function insertRows<Row>(client: BulkClient, table: string, rows: readonly Row[], columns: Columns<NoInfer<Row>>): Promise<void> {
  const entries = Object.entries(columns);
  const names = entries.map(([name]) => name).join(', ');
  const arrays = entries.map(([, [type]], index) => `$${index + 1}::${type}[]`).join(', ');
  const text = `insert into ${table} (${names}) select * from unnest(${arrays})`;
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    const batch = rows.slice(start, start + BATCH_ROWS);
    await client.query(
      text,
      entries.map(([, [, value]]) => batch.map((row) => value(row))),
    );
  }
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export async function insertClinics(client: BulkClient, clinics: readonly ClinicSeed[], platformPlanIds: Map<string, string>): Promise<void> {
  await insertRows(
    client,
    'clinics',
    clinics,
    {
      id: ['uuid', (c) => c.id],
      name: ['text', (c) => c.name],
      cnpj: ['varchar', (c) => c.cnpj],
      slug: ['text', (c) => c.slug],
      plan_id: ['uuid', (c) => platformPlanIds.get(c.platformPlanName) ?? null],
      status: ['clinic_status', (c) => c.status],
      trial_ends_at: ['timestamptz', (c) => iso(c.trialEndsAt)],
      approved_at: ['timestamptz', (c) => iso(c.approvedAt)],
      primary_color: ['varchar', (c) => c.primaryColor],
      city: ['text', (c) => c.city],
      state: ['varchar', (c) => c.state],
      latitude: ['float8', (c) => c.latitude],
      longitude: ['float8', (c) => c.longitude],
      created_at: ['timestamptz', (c) => iso(c.createdAt)],
      updated_at: ['timestamptz', (c) => iso(c.createdAt)],
    },
  );
  // The history of what each clinic pays the platform starts when the clinic did (migration 0006's triggers opened
  // it at the insert, i.e. now).
  await client.query(
    `update clinic_plan_periods p set valid_from = c.created_at from clinics c where c.id = p.clinic_id and c.id = any($1::uuid[]) and p.valid_to is null`,
    [clinics.map((c) => c.id)],
  );
  await insertRows(client, 'clinic_settings', clinics, { clinic_id: ['uuid', (c) => c.id], created_at: ['timestamptz', (c) => iso(c.createdAt)] });
  await insertRows(
    client,
    'contract_terms',
    clinics,
    {
      clinic_id: ['uuid', (c) => c.id],
      version: ['int4', () => 1],
      body: ['text', (c) => defaultTermsBody(c.name, 5)],
      created_at: ['timestamptz', (c) => iso(c.createdAt)],
    },
  );
  const plans = clinics.flatMap((c) => [c.plans.individual, c.plans.family].map((plan) => ({ ...plan, clinicId: c.id, createdAt: c.createdAt })));
  await insertRows(
    client,
    'subscription_plans',
    plans,
    {
      id: ['uuid', (p) => p.id],
      clinic_id: ['uuid', (p) => p.clinicId],
      name: ['text', (p) => p.name],
      description: ['text', (p) => p.description],
      price_cents: ['int4', (p) => p.priceCents],
      dependent_price_cents: ['int4', (p) => p.dependentPriceCents],
      max_members: ['int4', (p) => p.maxMembers],
      created_at: ['timestamptz', (p) => iso(p.createdAt)],
      updated_at: ['timestamptz', (p) => iso(p.createdAt)],
    },
  );
  // Features are a text[] per plan: unnest cannot carry an array of arrays, so they follow in one update per plan kind.
  for (const kind of ['individual', 'family'] as const) {
    const sample = clinics[0]?.plans[kind];
    if (!sample) continue;
    await client.query(`update subscription_plans set features = $1::text[] where name = $2 and id = any($3::uuid[])`, [
      sample.features,
      sample.name,
      clinics.map((c) => c.plans[kind].id),
    ]);
  }
  const services = clinics.flatMap((c) => c.services.map((service) => ({ ...service, clinicId: c.id, createdAt: c.createdAt })));
  await insertRows(
    client,
    'services',
    services,
    {
      id: ['uuid', (s) => s.id],
      clinic_id: ['uuid', (s) => s.clinicId],
      name: ['text', (s) => s.name],
      category: ['service_category', (s) => s.category],
      price_cents: ['int4', (s) => s.priceCents],
      created_at: ['timestamptz', (s) => iso(s.createdAt)],
      updated_at: ['timestamptz', (s) => iso(s.createdAt)],
    },
  );
}

/**
 * Accounts as sign-up leaves them (user, credential account, profile, role). Every generated account shares one
 * password hash: the password is the demo's, so any generated person can be signed in as.
 */
export async function insertPeople(client: BulkClient, people: readonly PersonSeed[], passwordHash: string): Promise<void> {
  await insertRows(
    client,
    'users',
    people,
    {
      id: ['uuid', (p) => p.id],
      name: ['text', (p) => p.name],
      email: ['text', (p) => p.email],
      email_verified: ['bool', () => true],
      last_sign_in_at: ['timestamptz', (p) => iso(p.lastSignInAt)],
      created_at: ['timestamptz', (p) => iso(p.createdAt)],
      updated_at: ['timestamptz', (p) => iso(p.createdAt)],
    },
  );
  await insertRows(
    client,
    'accounts',
    people,
    {
      account_id: ['text', (p) => p.id],
      provider_id: ['text', () => 'credential'],
      user_id: ['uuid', (p) => p.id],
      password: ['text', () => passwordHash],
      created_at: ['timestamptz', (p) => iso(p.createdAt)],
      updated_at: ['timestamptz', (p) => iso(p.createdAt)],
    },
  );
  await insertRows(
    client,
    'profiles',
    people,
    {
      id: ['uuid', (p) => p.id],
      full_name: ['text', (p) => p.name],
      cpf: ['varchar', (p) => p.cpf],
      phone: ['text', (p) => p.phone],
      birth_date: ['date', (p) => p.birthDate],
      created_at: ['timestamptz', (p) => iso(p.createdAt)],
      updated_at: ['timestamptz', (p) => iso(p.createdAt)],
    },
  );
  await insertRows(
    client,
    'user_roles',
    people,
    {
      user_id: ['uuid', (p) => p.id],
      role: ['app_role', (p) => p.role],
      clinic_id: ['uuid', (p) => p.clinicId],
      created_at: ['timestamptz', (p) => iso(p.createdAt)],
    },
  );
}

export async function insertSubscriptions(client: BulkClient, subscriptions: readonly SubscriptionSeed[]): Promise<void> {
  await insertRows(
    client,
    'subscriptions',
    subscriptions,
    {
      id: ['uuid', (s) => s.id],
      clinic_id: ['uuid', (s) => s.clinicId],
      user_id: ['uuid', (s) => s.userId],
      plan_id: ['uuid', (s) => s.planId],
      status: ['subscription_status', (s) => s.status],
      started_at: ['timestamptz', (s) => iso(s.startedAt)],
      expires_at: ['timestamptz', (s) => iso(s.expiresAt)],
      canceled_at: ['timestamptz', (s) => iso(s.canceledAt)],
      benefits_start_at: ['timestamptz', (s) => iso(s.startedAt)],
      amount_cents: ['int4', (s) => s.amountCents],
      payment_method: ['payment_method', (s) => s.paymentMethod],
      provider: ['text', () => 'local'],
      cancel_reason: ['text', (s) => (s.canceledAt ? 'Cancelada pelo paciente' : null)],
      created_at: ['timestamptz', (s) => iso(s.createdAt)],
      updated_at: ['timestamptz', (s) => iso(s.canceledAt ?? s.startedAt ?? s.createdAt)],
    },
  );
}

export async function insertDependents(client: BulkClient, dependents: readonly DependentSeed[]): Promise<void> {
  await insertRows(
    client,
    'dependents',
    dependents,
    {
      id: ['uuid', (d) => d.id],
      clinic_id: ['uuid', (d) => d.clinicId],
      holder_user_id: ['uuid', (d) => d.holderUserId],
      full_name: ['text', (d) => d.fullName],
      cpf: ['varchar', (d) => d.cpf],
      birth_date: ['date', (d) => d.birthDate],
      relationship: ['text', (d) => d.relationship],
      created_at: ['timestamptz', (d) => iso(d.createdAt)],
      updated_at: ['timestamptz', (d) => iso(d.createdAt)],
    },
  );
}

export async function insertCards(client: BulkClient, cards: readonly CardSeed[]): Promise<void> {
  await insertRows(
    client,
    'cards',
    cards,
    {
      id: ['uuid', (c) => c.id],
      clinic_id: ['uuid', (c) => c.clinicId],
      subscription_id: ['uuid', (c) => c.subscriptionId],
      holder_user_id: ['uuid', (c) => c.holderUserId],
      dependent_id: ['uuid', (c) => c.dependentId],
      number: ['varchar', (c) => c.number],
      secret_encrypted: ['text', (c) => c.secretEncrypted],
      issued_at: ['timestamptz', (c) => iso(c.issuedAt)],
    },
  );
}

/** Seconds in an average month (365.25 / 12 days): how many cycles a subscription was paid for. */
const MONTH_SECONDS = 2_629_800;

/**
 * Every cycle each subscription was paid for, one charge each (due on the cycle's first day, paid within three days;
 * card charges of the last 30 days still 'confirmed', about 1 % of the older ones refunded), then the charge each
 * state leaves open: the next one of an active subscription near its renewal ('pending'), the late one of an
 * overdue subscription ('overdue'), the first one of a pending subscription, and the withdrawn one of half the
 * canceled and expired subscriptions ('canceled'). Returns the number of charges.
 */
export async function generateCharges(client: BulkClient, now: Date): Promise<number> {
  const paid = await client.query(
    `with cycles as (
       select s.id as subscription_id, s.clinic_id, s.payment_method as method, s.amount_cents, s.started_at,
              s.started_at + make_interval(months => k) as period_at, random() as r, random() as delay
       from subscriptions s
       cross join lateral generate_series(0, greatest(0, round(extract(epoch from s.expires_at - s.started_at) / ${MONTH_SECONDS})::int - 1)) as k
       -- A demonstration subscription granted without a payment (no method) has no charges to invent.
       where s.started_at is not null and s.expires_at is not null and s.payment_method is not null
     ), shaped as (
       select c.*, least(c.period_at + c.delay * interval '3 days', $1::timestamptz) as paid_at,
              case when c.r < 0.01 and c.period_at < $1::timestamptz - interval '60 days' then 'refunded'
                   when c.method = 'credit_card' and c.period_at > $1::timestamptz - interval '30 days' then 'confirmed'
                   else 'received' end::payment_status as status
       from cycles c
     )
     insert into payments (clinic_id, subscription_id, provider, provider_payment_id, method, amount_cents, due_date, status, paid_at,
                           period_start, period_end, refunded_at, created_at, updated_at)
     select clinic_id, subscription_id, 'local', '${GENERATED_CHARGE_PREFIX}' || gen_random_uuid(), method, amount_cents,
            (period_at at time zone 'America/Sao_Paulo')::date, status, paid_at,
            (period_at at time zone 'America/Sao_Paulo')::date, ((period_at + interval '1 month') at time zone 'America/Sao_Paulo')::date,
            case when status = 'refunded' then paid_at + interval '5 days' end,
            greatest(started_at, period_at - interval '10 days'), paid_at
     from shaped`,
    [now.toISOString()],
  );
  const open = await client.query(
    `with open_charges as (
       select s.*,
              case when s.status = 'pending' then s.created_at + interval '3 days' else s.expires_at end as due_at,
              case s.status when 'active' then 'pending' when 'overdue' then 'overdue' when 'pending' then 'pending' else 'canceled' end::payment_status as charge_status
       from subscriptions s
       where s.payment_method is not null
         and ((s.status = 'active' and s.expires_at < $1::timestamptz + interval '10 days')
              or s.status in ('overdue', 'pending')
              or (s.status in ('canceled', 'expired') and random() < 0.5))
     )
     insert into payments (clinic_id, subscription_id, provider, provider_payment_id, method, amount_cents, due_date, status,
                           period_start, period_end, canceled_at, created_at, updated_at)
     select clinic_id, id, 'local', '${GENERATED_CHARGE_PREFIX}' || gen_random_uuid(), payment_method, amount_cents,
            (due_at at time zone 'America/Sao_Paulo')::date, charge_status,
            (due_at at time zone 'America/Sao_Paulo')::date, ((due_at + interval '1 month') at time zone 'America/Sao_Paulo')::date,
            case when charge_status = 'canceled' then coalesce(canceled_at, expires_at + interval '20 days') end,
            least($1::timestamptz, greatest(created_at, due_at - interval '10 days')), least($1::timestamptz, greatest(created_at, due_at - interval '10 days'))
     from open_charges`,
    [now.toISOString()],
  );
  return paid.rowCount + open.rowCount;
}

/** How many statements the visits are written in: each stays a few seconds long and progress shows. */
const VISIT_CHUNKS = 10;

/**
 * The windows in which each card could be used (from the subscription's start to now, its cancellation, its paid-up
 * date, or five days of grace after it when overdue), how many visits each card gets (proportional to its window,
 * times a random appetite, so that the total is `visits`), and per clinic its price list and its team as arrays the
 * visit statements pick from.
 */
async function prepareVisitPlan(client: BulkClient, now: Date, visits: number): Promise<void> {
  await client.query('drop table if exists gen_windows, gen_clinic_picks');
  await client.query(
    `create temp table gen_windows as
     select c.id as card_id, c.clinic_id, c.subscription_id, c.holder_user_id, c.dependent_id, s.status,
            p.discount_consultas, p.discount_exames, p.discount_procedimentos, s.started_at as w_start,
            least($1::timestamptz, case s.status when 'active' then $1::timestamptz
                                                 when 'overdue' then s.expires_at + interval '5 days'
                                                 when 'canceled' then s.canceled_at
                                                 else s.expires_at end) as w_end,
            floor(random() * ${VISIT_CHUNKS})::int as chunk
     from cards c
     join subscriptions s on s.id = c.subscription_id
     join subscription_plans p on p.id = s.plan_id
     where s.started_at is not null`,
    [now.toISOString()],
  );
  await client.query(
    `alter table gen_windows add column weight float8, add column visits int`,
  );
  // Dependents (often children) come less often than holders.
  await client.query(
    `update gen_windows set weight = greatest(0, extract(epoch from w_end - w_start)) * (0.1 + random() * 1.8) * (case when dependent_id is null then 1 else 0.6 end)`,
  );
  await client.query(`update gen_windows w set visits = round($1::numeric * w.weight / t.total)::int from (select sum(weight) as total from gen_windows) t`, [visits]);
  await client.query(
    `create temp table gen_clinic_picks as
     select s.clinic_id, s.service_ids, s.names, s.categories, s.prices, s.n, t.staff_ids, t.staff_n
     from (select clinic_id, array_agg(id) as service_ids, array_agg(name) as names, array_agg(category) as categories,
                  array_agg(price_cents) as prices, count(*)::int as n
           from services group by clinic_id) s
     join (select clinic_id, array_agg(user_id) as staff_ids, count(*)::int as staff_n
           from user_roles where role in ('clinic_admin', 'clinic_staff') group by clinic_id) t on t.clinic_id = s.clinic_id`,
  );
}

/**
 * The visits: each at a moment of its card's window, in opening hours (8 h to 18 h in São Paulo), a service of the
 * clinic's price list with the plan's discount for its category, registered by someone of the clinic's team. Visits
 * of the last three hours may still be waiting or in progress; the rest are concluded. `onChunk` hears progress.
 */
export async function generateVisits(client: BulkClient, now: Date, visits: number, onChunk: (done: number, total: number) => void): Promise<number> {
  await prepareVisitPlan(client, now, visits);
  let written = 0;
  for (let chunk = 0; chunk < VISIT_CHUNKS; chunk += 1) {
    const result = await client.query(
      `with picked as (
         select w.*, a.service_ids, a.names, a.categories, a.prices, a.staff_ids,
                1 + floor(random() * a.n)::int as si, 1 + floor(random() * a.staff_n)::int as ti,
                w.w_start + random() * (w.w_end - w.w_start) as moment, random() as hour, random() as progress
         from gen_windows w
         join gen_clinic_picks a on a.clinic_id = w.clinic_id
         cross join lateral generate_series(1, w.visits) as g
         where w.chunk = $2 and w.visits > 0
       ), shaped as (
         select p.*, p.categories[p.si] as category, p.prices[p.si] as price,
                greatest(p.w_start, least($1::timestamptz, date_trunc('day', p.moment) + interval '11 hours' + p.hour * interval '10 hours')) as performed_at
         from picked p
       ), priced as (
         select s.*, case s.category when 'consulta' then s.discount_consultas when 'exame' then s.discount_exames else s.discount_procedimentos end as percent
         from shaped s
       )
       insert into visits (clinic_id, card_id, subscription_id, patient_user_id, dependent_id, service_id, service_name, category,
                           original_cents, discount_percent, discount_cents, final_cents, status, performed_at, created_by, created_at, updated_at)
       select clinic_id, card_id, subscription_id, holder_user_id, dependent_id, service_ids[si], names[si], category,
              price, percent, round(price * percent / 100.0)::int, price - round(price * percent / 100.0)::int,
              case when performed_at < $1::timestamptz - interval '3 hours' or progress < 0.4 then 'concluido'
                   when progress < 0.7 then 'em_andamento' else 'aguardando' end::visit_status,
              performed_at, staff_ids[ti], performed_at, performed_at
       from priced`,
      [now.toISOString(), chunk],
    );
    written += result.rowCount;
    onChunk(chunk + 1, VISIT_CHUNKS);
  }
  return written;
}

/**
 * The validations at the desk: the one before each visit (by QR token 75 %, typed number 15 %, CPF 10 %, a few
 * minutes earlier, by whoever registered the visit); up to three attempts with a card no longer valid after its
 * window ('inactive'); and a number nobody has, once per hundred visits of a clinic ('not_found').
 */
export async function generateValidations(client: BulkClient, now: Date): Promise<number> {
  const valid = await client.query(
    `insert into card_validations (clinic_id, user_id, card_id, method, result, created_at)
     select clinic_id, created_by, card_id,
            case when r < 0.75 then 'token' when r < 0.9 then 'number' else 'cpf' end::card_lookup_method,
            'valid', performed_at - (1 + r2 * 9) * interval '1 minute'
     from (select v.clinic_id, v.created_by, v.card_id, v.performed_at, random() as r, random() as r2 from visits v) x`,
  );
  const inactive = await client.query(
    `insert into card_validations (clinic_id, user_id, card_id, method, result, created_at)
     select w.clinic_id, a.staff_ids[1 + floor(random() * a.staff_n)::int], w.card_id,
            case when random() < 0.6 then 'token' else 'number' end::card_lookup_method, 'inactive',
            w.w_end + random() * greatest(interval '0', $1::timestamptz - w.w_end)
     from gen_windows w
     join gen_clinic_picks a on a.clinic_id = w.clinic_id
     cross join lateral generate_series(1, floor(random() * 4)::int) as g
     where w.status <> 'active'`,
    [now.toISOString()],
  );
  const notFound = await client.query(
    `insert into card_validations (clinic_id, user_id, card_id, method, result, created_at)
     select a.clinic_id, a.staff_ids[1 + floor(random() * a.staff_n)::int], null,
            case when random() < 0.7 then 'number' else 'cpf' end::card_lookup_method, 'not_found',
            $1::timestamptz - random() * interval '${730} days'
     from gen_clinic_picks a
     join (select clinic_id, sum(visits) as visits from gen_windows group by clinic_id) v on v.clinic_id = a.clinic_id
     cross join lateral generate_series(1, ceil(v.visits / 100.0)::int) as g`,
    [now.toISOString()],
  );
  await client.query('drop table if exists gen_windows, gen_clinic_picks');
  return valid.rowCount + inactive.rowCount + notFound.rowCount;
}
