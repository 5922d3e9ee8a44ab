/**
 * Issue 22: the validation limit was counted in each server process's memory, so N processes allowed N × 60
 * validations a minute to one clinic user. It is now counted in PostgreSQL, in the statement that records the
 * attempt. PostgreSQL only: two server processes need two connections to one database (PGlite has one).
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { buildApp } from '../../app.ts';
import { openPostgres, type DatabaseHandle } from '../../db/client.ts';
import { cardValidations } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, databaseUrlOf, PUBLIC_URL, TEST_AUTH_SECRET, type TestApp } from '../../../test/helpers.ts';
import { testPasswordHasher } from '../../../test/password-hasher.ts';

const LIMIT = 4;
const START = new Date('2026-11-26T12:00:00Z');
let clock = START;
let first: TestApp;
let secondDatabase: DatabaseHandle;
let second: FastifyInstance;

beforeAll(async () => {
  first = await createTestApp({ CARD_VALIDATIONS_PER_MINUTE: String(LIMIT) }, { now: () => clock });
  // A second server process on the same database: its own pool, its own memory.
  secondDatabase = openPostgres(await databaseUrlOf(first), 2);
  second = await buildApp({ config: first.config, database: secondDatabase, authSecret: TEST_AUTH_SECRET, now: () => clock, passwordHasher: testPasswordHasher });
  await second.ready();
});
afterAll(async () => {
  await second?.close();
  await secondDatabase?.close();
  await first?.close();
});

function validateAt(app: FastifyInstance, cookie: string) {
  return app.inject({ method: 'POST', url: '/api/clinic/card-validations', headers: { cookie, origin: PUBLIC_URL }, payload: { cardToken: '0000', source: 'manual' } });
}

describe('the card validation limit with two server processes', () => {
  it('allows one user the limit in a minute across both, refuses the rest in pt-BR without recording them, and frees the next minute', async () => {
    const clinicId = (await createClinic(first.db, 'Clínica Dois Servidores')).clinicId;
    const staff = await createSignedInUser(first, 'clinic_staff', clinicId);
    const colleague = await createSignedInUser(first, 'clinic_staff', clinicId);

    const statuses: number[] = [];
    // Alternating between the processes, as a load balancer would: each alone would allow LIMIT.
    for (let attempt = 0; attempt < 2 * LIMIT; attempt += 1) {
      const response = await validateAt(attempt % 2 === 0 ? first.app : second, staff.cookie);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(response.json()).toEqual({ error: { code: 'RATE_LIMITED', message: messages.cards.validationRateLimited } });
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), ...Array<number>(LIMIT).fill(429)]);
    const recorded = await first.db.select().from(cardValidations).where(and(eq(cardValidations.clinicId, clinicId), eq(cardValidations.userId, staff.userId)));
    expect(recorded).toHaveLength(LIMIT);

    // Per user: a colleague at the same desk is not held back.
    expect((await validateAt(second, colleague.cookie)).statusCode).toBe(200);

    // A minute later the share is free again, on either process.
    clock = new Date(START.getTime() + 60_001);
    expect((await validateAt(second, staff.cookie)).statusCode).toBe(200);
    expect((await validateAt(first.app, staff.cookie)).statusCode).toBe(200);
  });
});
