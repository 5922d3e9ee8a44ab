import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { createTestDatabase } from '../../test/helpers.ts';
import { databaseRateLimitStore } from './rate-limit-store.ts';

const WINDOW_MS = 60_000;
let database: DatabaseHandle;
let clock = new Date('2026-11-26T12:00:00Z');

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.close());

type Store = InstanceType<ReturnType<typeof databaseRateLimitStore>>;

function hit(store: Store, key: string): Promise<{ current: number; ttl: number }> {
  return new Promise((resolve, reject) => store.incr(key, (error, result) => (error || !result ? reject(error ?? new Error('no result')) : resolve(result)), WINDOW_MS));
}

function peek(store: Store, key: string): Promise<{ current: number; ttl: number }> {
  return new Promise((resolve, reject) => store.read(key, (error, result) => (error || !result ? reject(error ?? new Error('no result')) : resolve(result))));
}

describe('the rate limits’ store in the database', () => {
  it('counts hits in a fixed window, starts a new one when it ends, and keeps each route apart', async () => {
    const Store = databaseRateLimitStore(database.db, () => clock);
    const signIn = new Store({}).child({ routeInfo: { method: 'POST', url: '/api/auth/sign-in/email' } });
    const webhook = new Store({}).child({ routeInfo: { method: 'POST', url: '/api/webhooks/asaas' } });
    expect(await hit(signIn, '10.0.0.1')).toEqual({ current: 1, ttl: WINDOW_MS });
    clock = new Date(clock.getTime() + 20_000);
    expect(await hit(signIn, '10.0.0.1')).toEqual({ current: 2, ttl: 40_000 });
    expect(await hit(signIn, '10.0.0.2')).toEqual({ current: 1, ttl: WINDOW_MS });
    expect(await hit(webhook, '10.0.0.1')).toEqual({ current: 1, ttl: WINDOW_MS });
    expect(await peek(signIn, '10.0.0.1')).toEqual({ current: 2, ttl: 40_000 });
    // A second store on the same database (another process) counts the same hits.
    const elsewhere = databaseRateLimitStore(database.db, () => clock);
    expect(await hit(new elsewhere({}).child({ routeInfo: { method: 'POST', url: '/api/auth/sign-in/email' } }), '10.0.0.1')).toMatchObject({ current: 3 });
    clock = new Date(clock.getTime() + 40_000);
    expect(await peek(signIn, '10.0.0.1')).toEqual({ current: 0, ttl: 0 });
    expect(await hit(signIn, '10.0.0.1')).toEqual({ current: 1, ttl: WINDOW_MS });
  });
});
