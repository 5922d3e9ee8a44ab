import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rateLimitHits } from '../db/schema.ts';

/** What @fastify/rate-limit expects of a store's `incr` and `read`: the hits in the window and the window's time left. */
type Hits = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Hits) => void;
/**
 * The route a child store counts for: @fastify/rate-limit hands `child` its options with the route's own (`routeInfo`,
 * not in its types), so that each route keeps its own counters, as with its in-memory store.
 */
function routePrefixOf(options: object): string {
  if (!('routeInfo' in options) || typeof options.routeInfo !== 'object' || options.routeInfo === null) return '|';
  const route = options.routeInfo;
  const method = 'method' in route ? String(route.method) : '';
  const url = 'url' in route ? String(route.url) : '';
  return `${method} ${url}|`;
}

/** Expired counters are swept by one `incr` in this many, not by a job: a few rows, gone within a window or two. */
const SWEEP_EVERY = 200;

/**
 * One statement counts a hit: a new row, or the next hit of a live window, or the first of a new window once the old
 * one has ended. Concurrent hits on one key serialise on its row, in every process alike.
 */
async function countHit(db: Database, key: string, timeWindowMs: number, now: Date): Promise<Hits> {
  const windowEnd = new Date(now.getTime() + timeWindowMs);
  const [row] = await db
    .insert(rateLimitHits)
    .values({ key, hits: 1, windowEndsAt: windowEnd })
    .onConflictDoUpdate({
      target: rateLimitHits.key,
      set: {
        hits: sql`case when ${rateLimitHits.windowEndsAt} <= ${now} then 1 else ${rateLimitHits.hits} + 1 end`,
        windowEndsAt: sql`case when ${rateLimitHits.windowEndsAt} <= ${now} then ${windowEnd} else ${rateLimitHits.windowEndsAt} end`,
      },
    })
    .returning({ hits: rateLimitHits.hits, windowEndsAt: rateLimitHits.windowEndsAt });
  if (!row) throw new Error('rate limit counter not written');
  return { current: row.hits, ttl: Math.max(0, row.windowEndsAt.getTime() - now.getTime()) };
}

async function readHits(db: Database, key: string, now: Date): Promise<Hits> {
  const [row] = await db
    .select({ hits: rateLimitHits.hits, windowEndsAt: rateLimitHits.windowEndsAt })
    .from(rateLimitHits)
    .where(sql`${rateLimitHits.key} = ${key}`);
  if (!row || row.windowEndsAt <= now) return { current: 0, ttl: 0 };
  return { current: row.hits, ttl: row.windowEndsAt.getTime() - now.getTime() };
}

/**
 * @fastify/rate-limit's store on our database (its README: "an external store will be needed" on several servers):
 * the sign-in, captcha and webhook limits count each address once across every server process, where the default
 * in-memory store would let each process grant the whole limit again. A fixed window, like the default store's.
 */
export function databaseRateLimitStore(db: Database, clock: () => Date = () => new Date()) {
  let calls = 0;
  return class DatabaseRateLimitStore {
    readonly prefix: string;

    constructor(options: object) {
      this.prefix = routePrefixOf(options);
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = clock();
      calls += 1;
      const sweep = calls % SWEEP_EVERY === 0 ? db.delete(rateLimitHits).where(lt(rateLimitHits.windowEndsAt, now)) : Promise.resolve();
      Promise.all([countHit(db, this.prefix + key, timeWindow, now), sweep]).then(
        ([hits]) => callback(null, hits),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    read(key: string, callback: Callback): void {
      readHits(db, this.prefix + key, clock()).then(
        (hits) => callback(null, hits),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: object): DatabaseRateLimitStore {
      return new DatabaseRateLimitStore(routeOptions);
    }
  };
}
