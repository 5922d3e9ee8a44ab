/**
 * Durable background work on the `jobs` table (ADR 012): retried, run once across server processes, on PGlite and
 * PostgreSQL alike. The one mechanism for every job: webhook processing, reconciliation, delinquency, reminders, the
 * daily backup, the platform's e-mail reports, the trial expiry, a subscription's follow-ups (cards, provider calls,
 * patient e-mails) and the account e-mails. A scheduled occurrence runs once because its key is unique: nothing else
 * (no claim of its own elsewhere) is needed to keep two servers from running it twice.
 *
 * ```ts
 * // At start-up (app.ts), once per queue: the handler and how it runs.
 * app.jobs.register('webhook-event', async (job) => {
 *   const { eventId } = webhookJobSchema.parse(job.payload); // payloads are JSON: parse them
 *   await processWebhookEvent(db, eventId, job.startedAt);   // throw to retry later with back-off
 * }, { concurrency: 4, leaseMs: 60_000, maxAttempts: 8 });
 *
 * // Anywhere: one job per event, however many deliveries or servers ask (the key's queue-wide unique index).
 * await app.jobs.enqueue('webhook-event', { eventId }, { singletonKey: `asaas:${eventId}` });
 * // In the same transaction as the row it refers to (a platform transaction: the tenant role cannot write jobs).
 * await db.transaction(async (tx) => { …; await app.jobs.enqueue('webhook-event', { eventId }, { tx }); });
 *
 * // Recurring work: each occurrence is enqueued once, payload { occurrence: ISO }, key `<queue>:<occurrence ISO>`.
 * app.jobs.register('reconciliation', reconcile);
 * app.jobs.schedule('reconciliation', { hour: 2 });          // daily, 2 am São Paulo
 * app.jobs.schedule('payment-reminders', { everyMinutes: 15 });
 *
 * // Tests: nothing runs by itself (server.ts calls start()); drive the clock and drain.
 * await t.app.jobs.drain();
 * ```
 *
 * Semantics worth knowing before writing a handler:
 * - At least once: a worker that dies mid-job (or outlives `leaseMs`) has its job taken over when the lease ends, so
 *   handlers must be idempotent (check state in the database; use unique keys), and `leaseMs` must exceed the
 *   longest run. A queue whose work cannot be checked afterwards (an e-mail sent) registers with
 *   `abandoned: 'fail'` instead: at most once, the abandoned job fails and is logged, never run twice.
 * - A singleton key blocks the same key in that queue while the job is pending AND after it completed or failed,
 *   until the finished row is pruned (3 days completed, 30 days failed). So a key names one piece of work — an event
 *   id, a day (`reconciliation:2026-11-24`) — never a "kind" of work that should run again later.
 * - Time is the runner's `now()` everywhere, compared in SQL as parameters: tests move it forward.
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { lastOccurrence, type Schedule } from '../../lib/schedule.ts';
import { DEFAULT_BACKOFF, type Backoff } from './backoff.ts';
import { claimDueJobs, deleteFinishedJobs, failAbandonedJobs, insertJob, markCompleted, markFailed, type JobRow } from './repository.ts';

/** What a handler receives. */
export type Job = {
  id: string;
  queue: string;
  payload: Record<string, unknown>;
  singletonKey: string | null;
  /** This attempt's number, from 1. */
  attempts: number;
  maxAttempts: number;
  /** When the job was due (for a scheduled job, its occurrence). */
  runAt: Date;
  /** The runner's clock when this attempt started: use it as "now" in the handler, so tests can drive time. */
  startedAt: Date;
};

export type JobHandler = (job: Job) => Promise<void>;

export type QueueOptions = {
  /** Jobs of this queue one runner runs at once (default 1). */
  concurrency?: number;
  /** How long a claim lasts before another worker may take the job over (default 5 minutes). */
  leaseMs?: number;
  /** Attempts before the job fails for good (default 10); read when a job is enqueued. */
  maxAttempts?: number;
  /** Wait before the next attempt after the n-th failure (default: 30 s doubling up to 1 h). */
  backoff?: Backoff;
  /**
   * What happens to a job whose worker stopped mid-attempt (its lease ran out): 'retry' (default, at least once) or
   * 'fail' — at most once, for work that cannot tell whether it was done, such as an e-mail a dead worker may have
   * sent. A handler that throws is retried either way: it knows it did nothing.
   */
  abandoned?: 'retry' | 'fail';
};

export type EnqueueOptions = {
  /** One job per key in the queue (see above). */
  singletonKey?: string;
  /** Not before this moment (default: now). */
  runAt?: Date;
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  tx?: Database;
};

export type JobLog = {
  info: (details: Record<string, unknown>, message: string) => void;
  warn: (details: Record<string, unknown>, message: string) => void;
  error: (details: Record<string, unknown>, message: string) => void;
};

export type JobRunner = {
  register: (queue: string, handler: JobHandler, options?: QueueOptions) => void;
  /** Answers the new job's id, or null when the singleton key was already taken. */
  enqueue: (queue: string, payload?: Record<string, unknown>, options?: EnqueueOptions) => Promise<string | null>;
  schedule: (queue: string, schedule: Schedule) => void;
  /** Enqueues the latest occurrence of every schedule (once across servers); start() does it on every tick. */
  enqueueScheduled: () => Promise<void>;
  /** Enqueues one occurrence of a scheduled queue, as a tick would (null: already enqueued, here or elsewhere). */
  enqueueOccurrence: (queue: string, occurrence: Date) => Promise<string | null>;
  /** Claims the jobs due now (as many as the queues' free slots), runs them and answers how many ran. */
  runDue: () => Promise<number>;
  /** runDue until nothing is due (tests). Jobs retried later are not waited for: move the clock and drain again. */
  drain: () => Promise<number>;
  /** Polls every `pollMs` (enqueueScheduled + claim); the timer never keeps the process alive. */
  start: () => void;
  /**
   * Polls now instead of at the next tick, once started: for work just committed that someone is waiting for (the
   * cards of a subscription the patient has just paid). Does nothing in tests, which drain().
   */
  kick: () => void;
  /** Stops polling and waits for the jobs this runner is running. */
  stop: () => Promise<void>;
  readonly workerId: string;
};

export type JobRunnerOptions = {
  db: Database;
  log: JobLog;
  now?: () => Date;
  workerId?: string;
  /** Interval between polls once started (default 5 s). */
  pollMs?: number;
};

const DEFAULTS = { concurrency: 1, leaseMs: 5 * 60_000, maxAttempts: 10 };
const DAY_MS = 24 * 60 * 60 * 1000;
/** Finished jobs are kept this long for inspection, then pruned. */
export const COMPLETED_RETENTION_MS = 3 * DAY_MS;
export const FAILED_RETENTION_MS = 30 * DAY_MS;
/** The runner's own upkeep: pruning finished jobs, daily at 5 am (after the backup and the database upkeep). */
export const PRUNE_QUEUE = 'jobs-prune';
const PRUNE_SCHEDULE: Schedule = { hour: 5 };
const DEFAULT_POLL_MS = 5_000;
/** A bound on drain()'s rounds, so a handler that keeps enqueuing due work fails the test instead of hanging it. */
const MAX_DRAIN_ROUNDS = 1_000;
const MAX_ERROR_LENGTH = 2_000;

type Registered = { handler: JobHandler; concurrency: number; leaseMs: number; maxAttempts: number; backoff: Backoff; abandoned: 'retry' | 'fail'; running: number };

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

function jobOf(row: JobRow, startedAt: Date): Job {
  return {
    id: row.id,
    queue: row.queue,
    payload: row.payload,
    singletonKey: row.singletonKey,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    runAt: row.runAt,
    startedAt,
  };
}

/** The key of one occurrence of a schedule: several servers enqueueing it make one job. */
export function occurrenceKey(queue: string, occurrence: Date): string {
  return `${queue}:${occurrence.toISOString()}`;
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const queues = new Map<string, Registered>();
  const schedules = new Map<string, Schedule>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  let stopped = false;

  function register(queue: string, handler: JobHandler, queueOptions: QueueOptions = {}): void {
    if (queues.has(queue)) throw new Error(`job queue '${queue}' is registered twice`);
    queues.set(queue, {
      handler,
      concurrency: Math.max(1, queueOptions.concurrency ?? DEFAULTS.concurrency),
      leaseMs: queueOptions.leaseMs ?? DEFAULTS.leaseMs,
      maxAttempts: Math.max(1, queueOptions.maxAttempts ?? DEFAULTS.maxAttempts),
      backoff: queueOptions.backoff ?? DEFAULT_BACKOFF,
      abandoned: queueOptions.abandoned ?? 'retry',
      running: 0,
    });
  }

  async function enqueue(queue: string, payload: Record<string, unknown> = {}, enqueueOptions: EnqueueOptions = {}): Promise<string | null> {
    const at = now();
    return insertJob(enqueueOptions.tx ?? db, {
      queue,
      payload,
      singletonKey: enqueueOptions.singletonKey ?? null,
      runAt: enqueueOptions.runAt ?? at,
      maxAttempts: queues.get(queue)?.maxAttempts ?? DEFAULTS.maxAttempts,
      createdAt: at,
    });
  }

  function schedule(queue: string, when: Schedule): void {
    schedules.set(queue, when);
  }

  /** The singleton keys of the schedules' current occurrences, which pruning keeps. */
  function currentOccurrenceKeys(at: Date): string[] {
    return [...schedules].map(([queue, when]) => occurrenceKey(queue, lastOccurrence(at, when)));
  }

  async function enqueueScheduled(): Promise<void> {
    const at = now();
    // Only the latest occurrence: a server that was off for a week makes this week's report, not seven days' worth.
    for (const [queue, when] of schedules) await enqueueOccurrence(queue, lastOccurrence(at, when));
  }

  function enqueueOccurrence(queue: string, occurrence: Date): Promise<string | null> {
    return enqueue(queue, { occurrence: occurrence.toISOString() }, { singletonKey: occurrenceKey(queue, occurrence), runAt: occurrence });
  }

  async function runOne(queue: Registered, row: JobRow): Promise<void> {
    const startedAt = now();
    try {
      await queue.handler(jobOf(row, startedAt));
      await markCompleted(db, row, workerId, now());
    } catch (error) {
      const failedAt = now();
      const retryAt = new Date(failedAt.getTime() + queue.backoff(row.attempts));
      const outcome = await markFailed(db, row, workerId, { error: errorText(error), now: failedAt, retryAt });
      const details = { err: error, queue: row.queue, jobId: row.id, attempts: row.attempts, maxAttempts: row.maxAttempts };
      if (outcome === 'failed') log.error(details, 'job failed for good: no attempt left');
      else if (outcome === 'retry') log.warn({ ...details, retryAt: retryAt.toISOString() }, 'job failed; it will be retried');
      else log.warn(details, 'job failed after its lease was taken over');
    }
  }

  /** Claims what the free slots allow and starts it; answers the started runs. */
  async function launchDue(): Promise<Promise<void>[]> {
    if (stopped) return [];
    const at = now();
    const atMostOnce = [...queues].filter(([, queue]) => queue.abandoned === 'fail').map(([name]) => name);
    for (const abandoned of await failAbandonedJobs(db, at, atMostOnce)) {
      log.error({ queue: abandoned.queue, jobId: abandoned.id }, 'job failed for good: its worker stopped during an attempt it may have completed');
    }
    const started: Promise<void>[] = [];
    for (const [name, queue] of queues) {
      const free = queue.concurrency - queue.running;
      if (free <= 0) continue;
      const rows = await claimDueJobs(db, { queue: name, limit: free, now: at, lockedUntil: new Date(at.getTime() + queue.leaseMs), workerId });
      for (const row of rows) {
        queue.running += 1;
        const run = runOne(queue, row)
          .catch((error: unknown) => {
            // Only recording the outcome can fail here (the database went away); the lease brings the job back.
            log.error({ err: error, queue: name, jobId: row.id }, 'could not record the outcome of a job');
          })
          .finally(() => {
            queue.running -= 1;
            running.delete(run);
          });
        running.add(run);
        started.push(run);
      }
    }
    return started;
  }

  async function runDue(): Promise<number> {
    const started = await launchDue();
    await Promise.all(started);
    return started.length;
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (let round = 0; round < MAX_DRAIN_ROUNDS; round += 1) {
      const ran = await runDue();
      if (ran === 0) return total;
      total += ran;
    }
    throw new Error(`jobs still due after ${MAX_DRAIN_ROUNDS} rounds`);
  }

  async function tick(): Promise<void> {
    try {
      await enqueueScheduled();
      // Started jobs run on, each settling itself (runOne's catch) and awaited by stop(); the next tick claims more
      // while they do, up to each queue's concurrency.
      void (await launchDue());
    } catch (error) {
      log.error({ err: error }, 'job runner tick failed; trying again at the next one');
    }
  }

  let kicked = false;
  function poll(): void {
    // A slow tick (the database is slow) is never overlapped by the next one; a kick meanwhile runs one more after it.
    if (ticking) {
      kicked = true;
      return;
    }
    ticking = tick().finally(() => {
      ticking = null;
      if (kicked && timer) {
        kicked = false;
        poll();
      }
    });
  }

  function start(): void {
    if (timer || stopped) return;
    timer = setInterval(poll, pollMs);
    timer.unref();
    poll();
  }

  function kick(): void {
    if (!timer || stopped) return;
    // After the caller's commit has reached the database: the next turn of the event loop.
    setImmediate(poll);
  }

  async function stop(): Promise<void> {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = null;
    await ticking;
    await Promise.all([...running]);
  }

  // The runner's own upkeep, on itself: finished jobs go after a few days so the table stays small.
  register(PRUNE_QUEUE, async (job) => {
    const at = job.startedAt;
    const deleted = await deleteFinishedJobs(db, {
      completedBefore: new Date(at.getTime() - COMPLETED_RETENTION_MS),
      failedBefore: new Date(at.getTime() - FAILED_RETENTION_MS),
      keep: currentOccurrenceKeys(at),
    });
    if (deleted > 0) log.info({ deleted }, 'finished jobs pruned');
  });
  schedule(PRUNE_QUEUE, PRUNE_SCHEDULE);

  return { register, enqueue, schedule, enqueueScheduled, enqueueOccurrence, runDue, drain, start, kick, stop, workerId };
}
