import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.ts';

/** The channel every server process of one database listens on for the caches to clear. */
const CHANNEL = 'carteirinha_caches';

/** The in-process caches: the clinic behind each host name (host-site.ts) and the platform settings (settings/store.ts). */
export type CacheTopic = 'hosts' | 'settings';
const TOPICS: readonly CacheTopic[] = ['hosts', 'settings'];

export type CacheInvalidation = {
  /**
   * Clears `topic`'s cache in this process now, and in every other process on the database when the NOTIFY arrives
   * (milliseconds): a clinic suspended or renamed, or a setting changed, on one server is seen by all of them.
   */
  publish: (topic: CacheTopic) => Promise<void>;
  /** `clear` runs on each invalidation of `topic`, and after a lost listening connection, when messages may be lost. */
  on: (topic: CacheTopic, clear: () => void) => void;
  /** Starts listening (once, before the server takes requests). */
  start: () => Promise<void>;
  close: () => Promise<void>;
};

function isTopic(value: string): value is CacheTopic {
  return TOPICS.some((topic) => topic === value);
}

/**
 * The short caches of a request's hot path stay per process (issue 28: a read per request saved), and a change
 * reaches every process through PostgreSQL's LISTEN/NOTIFY rather than waiting out the cache's time.
 */
export function createCacheInvalidation(database: DatabaseHandle): CacheInvalidation {
  const clears = new Map<CacheTopic, Array<() => void>>();
  let stop: (() => Promise<void>) | null = null;
  const clearAll = (topic: CacheTopic) => {
    for (const clear of clears.get(topic) ?? []) clear();
  };
  return {
    async publish(topic) {
      clearAll(topic);
      await database.db.execute(sql`select pg_notify(${CHANNEL}, ${topic})`);
    },
    on(topic, clear) {
      clears.set(topic, [...(clears.get(topic) ?? []), clear]);
    },
    async start() {
      stop ??= await database.listen(CHANNEL, (payload) => {
        if (payload === null) TOPICS.forEach(clearAll);
        else if (isTopic(payload)) clearAll(payload);
      });
    },
    async close() {
      await stop?.();
      stop = null;
    },
  };
}
