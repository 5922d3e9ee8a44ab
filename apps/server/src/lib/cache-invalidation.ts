import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.ts';

/** The channel every server process of one database listens on for the caches to clear. */
const CHANNEL = 'carteirinha_caches';
/** The prefix of a marker of `delivered()`: no topic, so no cache clears on it. */
const MARKER = 'delivered:';

/**
 * The in-process caches: the clinic behind each host name (host-site.ts), the platform settings (settings/store.ts),
 * the signed-in callers (auth/caller.ts), whose messages come from triggers (migration 0028) and name one user
 * (`callers:<user id>`) or none (`callers`: all of them), and the dashboards' figures (figures-cache.ts), whose
 * triggers (migration 0029) name a clinic or the platform.
 */
export type CacheTopic = 'hosts' | 'settings' | 'callers' | 'figures';
const TOPICS: readonly CacheTopic[] = ['hosts', 'settings', 'callers', 'figures'];

/** Clears a topic's cache: the entries of `key` (a user, for the callers), or all of them when `key` is null. */
export type CacheClear = (key: string | null) => void;

export type CacheInvalidation = {
  /**
   * Clears `topic`'s cache in this process now, and in every other process on the database when the NOTIFY arrives
   * (milliseconds): a clinic suspended or renamed, or a setting changed, on one server is seen by all of them.
   */
  publish: (topic: CacheTopic) => Promise<void>;
  /** `clear` runs on each invalidation of `topic`, and after a lost listening connection, when messages may be lost. */
  on: (topic: CacheTopic, clear: CacheClear) => void;
  /**
   * Whether the messages arrive now: false before start and from the moment the listening connection is lost until it
   * is made again. A cache that must never serve a stale entry (the callers') is not read meanwhile.
   */
  listening: () => boolean;
  /**
   * Resolves once this process has handled every message committed before the call. A marker of its own goes through
   * the channel behind them, and PostgreSQL delivers a channel's messages in the order their transactions committed:
   * what waits for a change to reach the caches (the caches' tests) waits for exactly that, not for a guessed delay.
   */
  delivered: () => Promise<void>;
  /** Starts listening (once, before the server takes requests). */
  start: () => Promise<void>;
  close: () => Promise<void>;
};

function isTopic(value: string): value is CacheTopic {
  return TOPICS.some((topic) => topic === value);
}

/** `topic` or `topic:key`; null for a message of no topic of ours. */
function parseMessage(payload: string): { topic: CacheTopic; key: string | null } | null {
  const colon = payload.indexOf(':');
  const topic = colon === -1 ? payload : payload.slice(0, colon);
  if (!isTopic(topic)) return null;
  return { topic, key: colon === -1 ? null : payload.slice(colon + 1) };
}

/**
 * The short caches of a request's hot path stay per process (issue 28: a read per request saved), and a change
 * reaches every process through PostgreSQL's LISTEN/NOTIFY rather than waiting out the cache's time.
 */
export function createCacheInvalidation(database: DatabaseHandle): CacheInvalidation {
  const clears = new Map<CacheTopic, CacheClear[]>();
  let stop: (() => Promise<void>) | null = null;
  let listening = false;
  const markers = new Map<string, () => void>();
  const clearAll = (topic: CacheTopic, key: string | null) => {
    for (const clear of clears.get(topic) ?? []) clear(key);
  };
  // A lost connection clears every cache, which is all a marker waits for: its waiters go on rather than wait forever.
  const releaseMarkers = () => {
    for (const release of markers.values()) release();
    markers.clear();
  };
  return {
    async publish(topic) {
      clearAll(topic, null);
      await database.db.execute(sql`select pg_notify(${CHANNEL}, ${topic})`);
    },
    on(topic, clear) {
      clears.set(topic, [...(clears.get(topic) ?? []), clear]);
    },
    listening: () => listening,
    async delivered() {
      // Not listening yet, or any more: no message will be handled, so none is waited for.
      if (!stop) return;
      const marker = randomUUID();
      const arrived = new Promise<void>((resolve) => markers.set(marker, resolve));
      await database.db.execute(sql`select pg_notify(${CHANNEL}, ${MARKER + marker})`);
      await arrived;
    },
    async start() {
      stop ??= await database.listen(
        CHANNEL,
        (payload) => {
          if (payload === null) {
            TOPICS.forEach((topic) => clearAll(topic, null));
            releaseMarkers();
            listening = true;
            return;
          }
          if (payload.startsWith(MARKER)) {
            const marker = payload.slice(MARKER.length);
            markers.get(marker)?.();
            markers.delete(marker);
            return;
          }
          const message = parseMessage(payload);
          if (message) clearAll(message.topic, message.key);
        },
        () => {
          listening = false;
          TOPICS.forEach((topic) => clearAll(topic, null));
          releaseMarkers();
        },
      );
      listening = true;
    },
    async close() {
      listening = false;
      await stop?.();
      stop = null;
    },
  };
}
