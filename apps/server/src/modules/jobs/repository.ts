import { and, eq, gte, inArray, isNotNull, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { jobs } from '../../db/schema.ts';

export type JobRow = typeof jobs.$inferSelect;

/**
 * Every time below is the runner's clock passed as a parameter, never the database's now(): tests drive time, and
 * the servers' clocks (NTP) agree far better than the leases are long.
 */

/** Adds a job; a singleton whose key the queue already holds adds nothing (null). */
export async function insertJob(
  db: Database,
  job: { queue: string; payload: Record<string, unknown>; singletonKey: string | null; runAt: Date; maxAttempts: number; createdAt: Date },
): Promise<string | null> {
  const [row] = await db
    .insert(jobs)
    .values(job)
    .onConflictDoNothing({ target: [jobs.queue, jobs.singletonKey] })
    .returning({ id: jobs.id });
  return row?.id ?? null;
}

/**
 * Takes up to `limit` due jobs of a queue for this worker until `lockedUntil`. FOR UPDATE SKIP LOCKED lets several
 * workers claim at once without waiting for or taking each other's rows; a job whose lease ran out (its worker died)
 * is due again. Each claim counts as an attempt.
 */
export async function claimDueJobs(
  db: Database,
  claim: { queue: string; limit: number; now: Date; lockedUntil: Date; workerId: string },
): Promise<JobRow[]> {
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.queue, claim.queue),
        lte(jobs.runAt, claim.now),
        isNull(jobs.completedAt),
        isNull(jobs.failedAt),
        lt(jobs.attempts, jobs.maxAttempts),
        or(isNull(jobs.lockedUntil), lt(jobs.lockedUntil, claim.now)),
      ),
    )
    .orderBy(jobs.runAt)
    .limit(claim.limit)
    .for('update', { skipLocked: true });
  return db
    .update(jobs)
    .set({ lockedUntil: claim.lockedUntil, lockedBy: claim.workerId, attempts: sql`${jobs.attempts} + 1` })
    .where(inArray(jobs.id, due))
    .returning();
}

/** The claim this worker made (its worker id and attempt number): a worker whose lease was taken over writes nothing. */
function stillOurs(job: JobRow, workerId: string) {
  return and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), eq(jobs.attempts, job.attempts));
}

export async function markCompleted(db: Database, job: JobRow, workerId: string, now: Date): Promise<void> {
  await db.update(jobs).set({ completedAt: now, lockedUntil: null }).where(stillOurs(job, workerId));
}

/** Records a failed attempt: the job waits until `retryAt`, or fails for good when it has no attempt left. */
export async function markFailed(
  db: Database,
  job: JobRow,
  workerId: string,
  failure: { error: string; now: Date; retryAt: Date },
): Promise<'retry' | 'failed' | 'lost'> {
  const final = job.attempts >= job.maxAttempts;
  const [row] = await db
    .update(jobs)
    .set({
      lastError: failure.error,
      lockedUntil: null,
      runAt: final ? job.runAt : failure.retryAt,
      failedAt: final ? failure.now : null,
    })
    .where(stillOurs(job, workerId))
    .returning({ id: jobs.id });
  if (!row) return 'lost';
  return final ? 'failed' : 'retry';
}

/**
 * Jobs whose worker died during an attempt (their lease ran out, unfinished) and that no one may take over: those at
 * their last attempt (nobody would claim them again), and every one of the at-most-once queues (QueueOptions.abandoned
 * 'fail': the dead worker may have done the work). They fail here rather than run again or stay pending for ever.
 */
export async function failAbandonedJobs(db: Database, now: Date, atMostOnceQueues: readonly string[] = []): Promise<Pick<JobRow, 'id' | 'queue'>[]> {
  const noTakeOver = atMostOnceQueues.length > 0 ? or(gte(jobs.attempts, jobs.maxAttempts), inArray(jobs.queue, [...atMostOnceQueues])) : gte(jobs.attempts, jobs.maxAttempts);
  return db
    .update(jobs)
    .set({ failedAt: now, lastError: sql`coalesce(${jobs.lastError}, 'the worker stopped during an attempt')` })
    .where(and(isNull(jobs.completedAt), isNull(jobs.failedAt), noTakeOver, isNotNull(jobs.lockedUntil), lt(jobs.lockedUntil, now)))
    .returning({ id: jobs.id, queue: jobs.queue });
}

/**
 * Deletes finished jobs older than the cut-offs, except the singleton keys in `keep`: the current occurrence of each
 * schedule must stay, or the next tick would enqueue (and run) it again.
 */
export async function deleteFinishedJobs(
  db: Database,
  cutoffs: { completedBefore: Date; failedBefore: Date; keep: string[] },
): Promise<number> {
  const finished = or(lt(jobs.completedAt, cutoffs.completedBefore), lt(jobs.failedAt, cutoffs.failedBefore));
  const kept = cutoffs.keep.length > 0 ? or(isNull(jobs.singletonKey), notInArray(jobs.singletonKey, cutoffs.keep)) : undefined;
  const deleted = await db.delete(jobs).where(and(finished, kept)).returning({ id: jobs.id });
  return deleted.length;
}
