import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DatabaseHandle } from '../db/client.ts';
import type { CacheInvalidation } from './cache-invalidation.ts';
import { rowsOf } from './sql.ts';

/** The scope of the admin Dashboard's figures: every clinic's message clears it too. */
export const PLATFORM_FIGURES = 'platform';

/** Entries a process keeps at most (two per clinic is 5 000 clinics); past it the oldest go first. */
const FIGURES_CACHE_ENTRIES = 10_000;

export type FiguresCache = {
  /**
   * `compute`'s answer for `scope` (a clinic's id, or PLATFORM_FIGURES) under `key` (which figures, and the São Paulo
   * day they are of): kept until a row they are counted from changes, and `maxAgeMs` at most for what only time moves
   * (the conversion's 30 days, a trial's last 3). Concurrent misses of one entry share one computation.
   */
  read: <T>(scope: string, key: string, compute: () => Promise<T>) => Promise<T>;
};

/**
 * Where the write-ahead log stands, when the figures are read from a replica (ADR 033): the primary's position (read
 * after a change's message, so at or past that change's commit) and how far the replica has replayed.
 */
export type ReplicaPositions = { primaryLsn: () => Promise<bigint>; replayedLsn: () => Promise<bigint> };

/** A log position as PostgreSQL prints it ('16/B374D848') as a number. */
export function lsnOf(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

const position = z.object({ lsn: z.string() });

/** The log positions of a database whose reads go to a replica; none when reads go to the primary. */
export function replicaPositionsOf(database: Pick<DatabaseHandle, 'db' | 'reader'>): ReplicaPositions | undefined {
  if (database.reader === database.db) return undefined;
  const lsnFrom = async (rows: Promise<{ lsn: string }[]>) => lsnOf((await rows)[0]?.lsn ?? '0/0');
  return {
    primaryLsn: () => lsnFrom(rowsOf(database.db, sql`select pg_current_wal_lsn()::text as lsn`, position)),
    // Null on a server that is no standby: nothing replayed, so nothing read from it is kept.
    replayedLsn: () => lsnFrom(rowsOf(database.reader, sql`select coalesce(pg_last_wal_replay_lsn(), '0/0')::text as lsn`, position)),
  };
}

type Entry = { value: Promise<unknown>; scope: string; until: number; kept: boolean; generation: number };

/**
 * The dashboards' figures per process (issue 28, ADR 036): aggregates over a clinic's tens of thousands of visits,
 * read on every Dashboard view, cost more than anything else a clinic's people open. Triggers (migration 0029) send
 * `figures:<clinic id>` or `figures:platform` on every change to what they count, and the entries of that scope go on
 * every process. Nothing is kept while the listening connection is down; an answer computed while a message arrived is
 * served but not kept (it may be older than the message); and with a replica, an answer is kept only when the replica
 * had replayed, before it was computed, the primary's log as it stood after the last message.
 */
export function createFiguresCache(options: { invalidation: CacheInvalidation; maxAgeMs: number; clock: () => Date; replica?: ReplicaPositions | undefined }): FiguresCache {
  const { invalidation, maxAgeMs, clock, replica } = options;
  const entries = new Map<string, Entry>();
  let generation = 0;
  // The replica must have replayed `needed` (read after message `neededAfter`) for an answer read from it to be kept.
  // -1: the changes made before this process listened count too.
  let needed = 0n;
  let neededAfter = -1;
  const dropScope = (scope: string) => {
    for (const [key, entry] of entries) if (entry.scope === scope) entries.delete(key);
  };
  invalidation.on('figures', (scope) => {
    generation += 1;
    if (scope === null) return entries.clear();
    dropScope(scope);
    if (scope !== PLATFORM_FIGURES) dropScope(PLATFORM_FIGURES);
  });

  /** Whether the replica holds every change whose message has arrived (always, without a replica). */
  async function replicaCurrent(): Promise<boolean> {
    if (!replica) return true;
    if (neededAfter !== generation) {
      const asOf = generation;
      const position = await replica.primaryLsn();
      if (position > needed) needed = position;
      neededAfter = asOf;
    }
    return (await replica.replayedLsn()) >= needed;
  }

  async function computeAndKeep(id: string, entry: Entry, compute: () => Promise<unknown>): Promise<unknown> {
    const keepable = await replicaCurrent().catch(() => false);
    try {
      const value = await compute();
      if (entries.get(id) === entry) {
        if (keepable && entry.generation === generation && invalidation.listening()) entry.kept = true;
        else entries.delete(id);
      }
      return value;
    } catch (error) {
      if (entries.get(id) === entry) entries.delete(id);
      throw error;
    }
  }

  return {
    read<T>(scope: string, key: string, compute: () => Promise<T>): Promise<T> {
      if (maxAgeMs <= 0 || !invalidation.listening()) return compute();
      const id = `${scope}|${key}`;
      const now = clock().getTime();
      const found = entries.get(id);
      // A kept answer within its age, or one on its way that no message has overtaken.
      if (found && (found.kept ? found.until > now : found.generation === generation)) return found.value as Promise<T>;
      if (entries.size >= FIGURES_CACHE_ENTRIES) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      const entry: Entry = { value: Promise.resolve(), scope, until: now + maxAgeMs, kept: false, generation };
      entries.set(id, entry);
      entry.value = computeAndKeep(id, entry, compute);
      return entry.value as Promise<T>;
    },
  };
}
