import fs from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { uniqueViolationConstraint } from '../lib/db-errors.ts';
import { rowsOf } from '../lib/sql.ts';
import { MIGRATIONS, migrationsUpTo, openForMigrations, type Opened } from '../../test/migration-kit.ts';

/**
 * Migration 0017 on a database that lived before it: a patient who subscribed twice has two cards (one per
 * subscription) with visits on both, and two people of one clinic carry the same CPF. After it, the person keeps one
 * card for life (the first number), every visit points at it, and the older CPF claim is kept.
 */
const BEFORE = '0016_visits_service_names';

let handle: Opened;
let folderBefore: string;

/** The rows of a raw statement on the migrated database, parsed by `schema`. */
const rows = <T extends z.ZodType>(query: SQL, schema: T) => rowsOf(handle.db, query, schema);

const ids = {
  clinic: randomUUID(),
  plan: randomUUID(),
  patient: randomUUID(),
  firstSubscription: randomUUID(),
  secondSubscription: randomUUID(),
  firstCard: randomUUID(),
  secondCard: randomUUID(),
  olderHolder: randomUUID(),
  newerHolder: randomUUID(),
  olderHolderSubscription: randomUUID(),
  newerHolderSubscription: randomUUID(),
  dependentWithHolderCpf: randomUUID(),
};
const SHARED_CPF = '52998224725';
const OTHER_CPF = '11144477735';

async function insertUser(id: string, email: string, cpf: string | null): Promise<void> {
  await handle.db.execute(sql`insert into users (id, name, email, email_verified) values (${id}, 'Pessoa', ${email}, true)`);
  await handle.db.execute(sql`insert into profiles (id, full_name, cpf) values (${id}, 'Pessoa', ${cpf})`);
  await handle.db.execute(sql`insert into user_roles (user_id, role, clinic_id) values (${id}, 'patient', ${ids.clinic})`);
}

/** The unique constraint a statement broke: null when it went through (or failed for another reason). */
async function brokenUniqueConstraint(statement: ReturnType<typeof sql>): Promise<string | null> {
  try {
    await handle.db.execute(statement);
    return null;
  } catch (error) {
    return uniqueViolationConstraint(error);
  }
}

async function insertSubscription(id: string, userId: string, createdAt: string, status: string): Promise<void> {
  await handle.db.execute(sql`insert into subscriptions (id, clinic_id, user_id, plan_id, status, created_at) values (${id}, ${ids.clinic}, ${userId}, ${ids.plan}, ${status}, ${createdAt})`);
}

beforeAll(async () => {
  handle = await openForMigrations();
  folderBefore = await migrationsUpTo(BEFORE);
  await handle.migrate(folderBefore);
  await handle.db.execute(sql`insert into clinics (id, name, cnpj, slug, status) values (${ids.clinic}, 'Clínica Antiga', '99111222000100', ${`antiga-${ids.clinic.slice(0, 8)}`}, 'active')`);
  await handle.db.execute(sql`insert into subscription_plans (id, clinic_id, name, price_cents) values (${ids.plan}, ${ids.clinic}, 'Plano', 9990)`);

  // A patient who subscribed, cancelled and subscribed again: a card per subscription, a visit on each.
  await insertUser(ids.patient, `paciente-${ids.patient}@teste.dev`, OTHER_CPF);
  await insertSubscription(ids.firstSubscription, ids.patient, '2026-01-10T12:00:00Z', 'canceled');
  await insertSubscription(ids.secondSubscription, ids.patient, '2026-03-10T12:00:00Z', 'active');
  await handle.db.execute(sql`insert into cards (id, clinic_id, subscription_id, holder_user_id, number, secret_encrypted, issued_at)
    values (${ids.firstCard}, ${ids.clinic}, ${ids.firstSubscription}, ${ids.patient}, '8076000000000001', 'sealed-1', '2026-01-10T12:00:00Z'),
           (${ids.secondCard}, ${ids.clinic}, ${ids.secondSubscription}, ${ids.patient}, '8076000000000002', 'sealed-2', '2026-03-10T12:00:00Z')`);
  for (const [cardId, subscriptionId] of [[ids.firstCard, ids.firstSubscription], [ids.secondCard, ids.secondSubscription]] as const) {
    await handle.db.execute(sql`insert into visits (clinic_id, card_id, subscription_id, patient_user_id, service_name, category, original_cents, discount_percent, discount_cents, final_cents)
      values (${ids.clinic}, ${cardId}, ${subscriptionId}, ${ids.patient}, 'Consulta', 'consulta', 10000, 30, 3000, 7000)`);
    await handle.db.execute(sql`insert into card_validations (clinic_id, card_id, method, result) values (${ids.clinic}, ${cardId}, 'number', 'valid')`);
  }

  // Two holders of one clinic with one CPF (the take-over of issue 22), and a dependent carrying it too.
  await insertUser(ids.olderHolder, `dono-${ids.olderHolder}@teste.dev`, SHARED_CPF);
  await insertUser(ids.newerHolder, `impostor-${ids.newerHolder}@teste.dev`, SHARED_CPF);
  await insertSubscription(ids.olderHolderSubscription, ids.olderHolder, '2026-02-01T12:00:00Z', 'active');
  await insertSubscription(ids.newerHolderSubscription, ids.newerHolder, '2026-04-01T12:00:00Z', 'active');
  await handle.db.execute(sql`insert into dependents (id, clinic_id, holder_user_id, full_name, cpf, created_at)
    values (${ids.dependentWithHolderCpf}, ${ids.clinic}, ${ids.patient}, 'Dependente', ${SHARED_CPF}, '2026-05-01T12:00:00Z')`);

  await handle.migrate(MIGRATIONS);
});

afterAll(async () => {
  await handle?.close();
  await fs.rm(folderBefore, { recursive: true, force: true });
});

describe('migration 0017', () => {
  it('keeps one card per person, the first number, pointed at the newest subscription', async () => {
    const cards = await rows(sql`select id, number, subscription_id as "subscriptionId" from cards where holder_user_id = ${ids.patient}`, z.object({ id: z.string(), number: z.string(), subscriptionId: z.string() }));
    expect(cards).toEqual([{ id: ids.firstCard, number: '8076000000000001', subscriptionId: ids.secondSubscription }]);
  });

  it('moves every visit and validation record to the kept card, and loses none', async () => {
    const visits = await rows(sql`select card_id as "cardId", subscription_id as "subscriptionId" from visits where patient_user_id = ${ids.patient} order by subscription_id = ${ids.secondSubscription}`, z.object({ cardId: z.string(), subscriptionId: z.string() }));
    expect(visits).toEqual([
      { cardId: ids.firstCard, subscriptionId: ids.firstSubscription },
      { cardId: ids.firstCard, subscriptionId: ids.secondSubscription },
    ]);
    const validations = await rows(sql`select card_id as "cardId" from card_validations where clinic_id = ${ids.clinic}`, z.object({ cardId: z.string() }));
    expect(validations).toEqual([{ cardId: ids.firstCard }, { cardId: ids.firstCard }]);
  });

  it('keeps the older claim of a shared CPF, clears it from the newer people, and audits each drop', async () => {
    const claims = await rows(sql`select cpf, user_id as "userId", dependent_id as "dependentId" from cpf_claims where clinic_id = ${ids.clinic} order by cpf`, z.object({ cpf: z.string(), userId: z.string(), dependentId: z.string().nullable() }));
    expect(claims).toEqual([
      { cpf: OTHER_CPF, userId: ids.patient, dependentId: null },
      { cpf: SHARED_CPF, userId: ids.olderHolder, dependentId: null },
    ]);
    const cpfs = await rows(sql`select id, cpf from profiles where id in (${ids.olderHolder}, ${ids.newerHolder}) order by id = ${ids.newerHolder}`, z.object({ id: z.string(), cpf: z.string().nullable() }));
    expect(cpfs).toEqual([
      { id: ids.olderHolder, cpf: SHARED_CPF },
      { id: ids.newerHolder, cpf: null },
    ]);
    const [dependent] = await rows(sql`select cpf from dependents where id = ${ids.dependentWithHolderCpf}`, z.object({ cpf: z.string().nullable() }));
    expect(dependent?.cpf).toBeNull();
    const drops = await rows(sql`select entity, entity_id as "entityId" from audit_log where action = 'cpf.claim_dropped' and clinic_id = ${ids.clinic} order by entity`, z.object({ entity: z.string(), entityId: z.string() }));
    expect(drops).toEqual([
      { entity: 'dependent', entityId: ids.dependentWithHolderCpf },
      { entity: 'profile', entityId: ids.newerHolder },
    ]);
  });

  it('refuses a second card for the same person, even for a new subscription of theirs, and a second claim of a CPF in the clinic', async () => {
    // A new subscription, so that only the one-card-per-person rule can refuse the card (a card per subscription was
    // already unique before 0017), and each refusal must come from the rule's own constraint.
    const thirdSubscription = randomUUID();
    await insertSubscription(thirdSubscription, ids.patient, '2026-06-10T12:00:00Z', 'active');
    expect(
      await brokenUniqueConstraint(sql`insert into cards (clinic_id, subscription_id, holder_user_id, number, secret_encrypted) values (${ids.clinic}, ${thirdSubscription}, ${ids.patient}, '8076000000000003', 'sealed-3')`),
    ).toBe('cards_person_key');
    expect(await brokenUniqueConstraint(sql`insert into cpf_claims (clinic_id, cpf, user_id) values (${ids.clinic}, ${SHARED_CPF}, ${ids.newerHolder})`)).toBe('cpf_claims_clinic_id_cpf_pk');
  });
});
