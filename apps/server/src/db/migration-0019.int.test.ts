import fs from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rowsOf } from '../lib/sql.ts';
import { MIGRATIONS, migrationsUpTo, openForMigrations, type Opened } from '../../test/migration-kit.ts';

/**
 * Migration 0019 (issue 25) on a database that lived before it: a visit called off under issue 22 (canceled_at set)
 * becomes 'cancelado'; the others keep their status; each active service starts its price history at today's prices
 * (the full price, and the card price with each plan on sale: the service's own discount, else the plan's); an
 * archived service gets none; and the plans already on sale stay on sale.
 */
const BEFORE = '0018_card_validation_expired';

let handle: Opened;
let folderBefore: string;

/** The rows of a raw statement on the migrated database, parsed by `schema`. */
const rows = <T extends z.ZodType>(query: SQL, schema: T) => rowsOf(handle.db, query, schema);

const ids = {
  clinic: randomUUID(),
  plan: randomUUID(),
  patient: randomUUID(),
  subscription: randomUUID(),
  card: randomUUID(),
  kept: randomUUID(),
  calledOff: randomUUID(),
  consulta: randomUUID(),
  archived: randomUUID(),
};

beforeAll(async () => {
  handle = await openForMigrations();
  folderBefore = await migrationsUpTo(BEFORE);
  await handle.migrate(folderBefore);
  await handle.db.execute(sql`insert into clinics (id, name, cnpj, slug, status) values (${ids.clinic}, 'Clínica de Antes', '99111222000199', ${`antes-${ids.clinic.slice(0, 8)}`}, 'active')`);
  await handle.db.execute(sql`insert into subscription_plans (id, clinic_id, name, price_cents, discount_consultas, created_at)
    values (${ids.plan}, ${ids.clinic}, 'Plano Família', 9990, 30, '2026-01-01T12:00:00Z')`);
  await handle.db.execute(sql`insert into users (id, name, email, email_verified) values (${ids.patient}, 'Paciente', ${`p-${ids.patient}@teste.dev`}, true)`);
  await handle.db.execute(sql`insert into subscriptions (id, clinic_id, user_id, plan_id, status) values (${ids.subscription}, ${ids.clinic}, ${ids.patient}, ${ids.plan}, 'active')`);
  await handle.db.execute(sql`insert into cards (id, clinic_id, subscription_id, holder_user_id, number, secret_encrypted) values (${ids.card}, ${ids.clinic}, ${ids.subscription}, ${ids.patient}, '8076000000000019', 'sealed')`);
  for (const [id, canceledAt] of [[ids.kept, null], [ids.calledOff, '2026-11-20T12:00:00Z']] as const) {
    await handle.db.execute(sql`insert into visits (id, clinic_id, card_id, subscription_id, patient_user_id, service_name, category, original_cents, discount_percent, discount_cents, final_cents, canceled_at)
      values (${id}, ${ids.clinic}, ${ids.card}, ${ids.subscription}, ${ids.patient}, 'Consulta', 'consulta', 10000, 30, 3000, 7000, ${canceledAt})`);
  }
  await handle.db.execute(sql`insert into services (id, clinic_id, name, category, price_cents, is_active, created_at)
    values (${ids.consulta}, ${ids.clinic}, 'Consulta', 'consulta', 15001, true, '2026-03-01T12:00:00Z'),
           (${ids.archived}, ${ids.clinic}, 'Antigo', 'exame', 5000, false, '2026-03-01T12:00:00Z')`);
  await handle.migrate(MIGRATIONS);
});

afterAll(async () => {
  await handle?.close();
  await fs.rm(folderBefore, { recursive: true, force: true });
});

describe('migration 0019', () => {
  it('makes a visit called off a cancelled one, and leaves the others as they were', async () => {
    const statuses = await rows(sql`select id, status::text as status from visits where clinic_id = ${ids.clinic} order by canceled_at nulls first`, z.object({ id: z.string(), status: z.string() }));
    expect(statuses).toEqual([
      { id: ids.kept, status: 'concluido' },
      { id: ids.calledOff, status: 'cancelado' },
    ]);
    // The new value is usable at once, and the column keeps its default.
    await handle.db.execute(sql`update visits set status = 'aguardando' where id = ${ids.kept}`);
    const [defaults] = await rows(sql`select column_default as "default" from information_schema.columns where table_name = 'visits' and column_name = 'status'`, z.object({ default: z.string() }));
    expect(defaults?.default).toContain('concluido');
  });

  it('starts the price history of each active service at today’s prices, the card price rounded as visits round', async () => {
    const history = await rows(
      sql`select service_id as "serviceId", plan_id as "planId", full_price_cents as "full", card_price_cents as "card", discount_percent as "percent", valid_to as "validTo"
        from service_price_history where clinic_id = ${ids.clinic} order by plan_id nulls first`,
      z.object({ serviceId: z.string(), planId: z.string().nullable(), full: z.number(), card: z.number().nullable(), percent: z.number().nullable(), validTo: z.unknown() }),
    );
    // R$ 150,01 less 30 % is R$ 105,01 (the R$ 45,003 discount rounds to R$ 45,00).
    expect(history).toEqual([
      { serviceId: ids.consulta, planId: null, full: 15001, card: null, percent: null, validTo: null },
      { serviceId: ids.consulta, planId: ids.plan, full: 15001, card: 10501, percent: 30, validTo: null },
    ]);
  });

  it('keeps the plans already on sale on sale (only a new clinic’s starter plan waits for review)', async () => {
    const [plan] = await rows(sql`select awaiting_review as "awaiting" from subscription_plans where id = ${ids.plan}`, z.object({ awaiting: z.boolean() }));
    expect(plan?.awaiting).toBe(false);
  });
});
