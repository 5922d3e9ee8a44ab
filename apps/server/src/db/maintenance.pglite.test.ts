import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedManyUsers } from '../../test/generators.ts';
import { userSearchCondition } from '../modules/users/repository.ts';
import { openPglite, type DatabaseHandle } from './client.ts';
import { users } from './schema.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openPglite(undefined);
  await database.migrate();
  await seedManyUsers(database.db, 20_000, { prefix: 'manutencao' });
});
afterAll(async () => {
  await database.close();
});

/** The plan PostgreSQL chooses for the admin users search, by an e-mail. */
async function searchPlan(): Promise<string> {
  const result = await database.db.execute(sql`explain select id from ${users} where ${userSearchCondition('manutencao.1234.')}`);
  return z
    .object({ rows: z.array(z.object({ 'QUERY PLAN': z.string() })) })
    .parse(result)
    .rows.map((row) => row['QUERY PLAN'])
    .join('\n');
}

describe('embedded database upkeep (PGlite has no autovacuum)', () => {
  it('after a bulk insert, maintain() lets the users search use its trigram index', async () => {
    await database.maintain?.();
    expect(await searchPlan()).toContain('users_email_search_idx');
  });
});
