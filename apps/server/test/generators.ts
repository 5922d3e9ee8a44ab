import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';

/** A number that makes this call's generated keys unlikely to meet another call's. */
function runSalt(): number {
  return Math.floor(Math.random() * 1e6);
}

/**
 * Inserts `total` clinics in one statement (generate_series), with unique CNPJs and slugs. Used by tests of large
 * lists and by bench/ to build big data sets quickly.
 */
export async function seedManyClinics(db: Database, total: number, prefix = 'gerada'): Promise<void> {
  const salt = runSalt();
  await db.execute(sql`
    insert into clinics (name, cnpj, slug, status, city, state, created_at)
    select 'Clínica ' || ${prefix} || ' ' || n,
           lpad((n::bigint + ${salt}::bigint * 1000000)::text, 14, '0'),
           ${prefix} || '-' || n || '-' || ${salt},
           'active', 'São Paulo', 'SP',
           now() - (n || ' minutes')::interval
    from generate_series(1, ${total}) as n
  `);
}

/**
 * Inserts `total` accounts in one statement (no password: they never sign in). Given a clinic, three in four are its
 * patients and the fourth has no role yet, as after a sign-up; without one, none has a role.
 */
export async function seedManyUsers(db: Database, total: number, options: { prefix?: string; clinicId?: string } = {}): Promise<void> {
  const prefix = options.prefix ?? 'gerado';
  const salt = runSalt();
  await db.execute(sql`
    with generated as (
      select n, gen_random_uuid() as id from generate_series(1, ${total}) as n
    ), inserted as (
      insert into users (id, name, email, email_verified, created_at)
      select id, 'Pessoa ' || ${prefix} || ' ' || n, ${prefix} || '.' || n || '.' || ${salt} || '@gerado.dev', true, now() - (n || ' seconds')::interval
      from generated
    )
    insert into user_roles (user_id, role, clinic_id)
    select id, 'patient', ${options.clinicId ?? null}::uuid
    from generated
    where ${options.clinicId ?? null}::uuid is not null and n % 4 <> 0
  `);
}

/** The card a generated visit or charge belongs to: its clinic, subscription and holder (and dependent, if any). */
export type GeneratedCard = { clinicId: string; cardId: string; subscriptionId: string; patientUserId: string; dependentId?: string | null };

/**
 * Inserts `total` concluded visits of one card in one statement, one a day going back from now, alternating the
 * three categories. For lists and their statement counts; the amounts follow the visits' check constraint.
 */
export async function seedManyVisits(db: Database, card: GeneratedCard, total: number): Promise<void> {
  await db.execute(sql`
    insert into visits (clinic_id, card_id, subscription_id, patient_user_id, dependent_id, service_name, category,
                        original_cents, discount_percent, discount_cents, final_cents, performed_at)
    select ${card.clinicId}::uuid, ${card.cardId}::uuid, ${card.subscriptionId}::uuid, ${card.patientUserId}::uuid, ${card.dependentId ?? null}::uuid,
           'Serviço gerado ' || n, (array['consulta', 'exame', 'procedimento'])[1 + n % 3]::service_category,
           10000, 30, 3000, 7000, now() - (n || ' days')::interval
    from generate_series(1, ${total}) as n
  `);
}

/** Inserts `total` paid monthly charges of one subscription in one statement, the newest due today. */
export async function seedManyCharges(db: Database, card: Pick<GeneratedCard, 'clinicId' | 'subscriptionId'>, total: number): Promise<void> {
  const salt = runSalt();
  await db.execute(sql`
    insert into payments (clinic_id, subscription_id, provider, provider_payment_id, method, amount_cents, due_date, status, paid_at, created_at)
    select ${card.clinicId}::uuid, ${card.subscriptionId}::uuid, 'local', 'gerado-' || ${salt} || '-' || n, 'pix', 9990,
           (now() - (n || ' months')::interval)::date, 'received', now() - (n || ' months')::interval, now() - (n || ' months')::interval
    from generate_series(0, ${total} - 1) as n
  `);
}

/** Inserts `total` accredited places of one clinic in one statement, spread around São Paulo, named "Rede n". */
export async function seedManyNetworkPlaces(db: Database, clinicId: string, total: number): Promise<void> {
  await db.execute(sql`
    insert into network_places (clinic_id, name, category, address, services, latitude, longitude, last_confirmed_on)
    select ${clinicId}::uuid, 'Rede ' || n, (array['unidade_propria', 'clinica_parceira', 'laboratorio'])[1 + n % 3]::network_category,
           'Rua Gerada, ' || n || ' - São Paulo - SP', array['Consultas', 'Exames'], -23.5 - n * 0.001, -46.6 - n * 0.001, now()::date
    from generate_series(1, ${total}) as n
  `);
}
