import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database, type DatabaseHandle } from '../../db/client.ts';
import { jobs } from '../../db/schema.ts';
import { lastOccurrence } from '../../lib/schedule.ts';
import { createTestApp, createTestDatabase, databaseUrlOf, testDatabaseKind, type TestApp } from '../../../test/helpers.ts';
import { createJobRunner, occurrenceKey, PRUNE_QUEUE, type JobLog, type JobRunner } from './runner.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

type LogLine = { level: 'info' | 'warn' | 'error'; message: string; details: Record<string, unknown> };

/** A log that keeps its lines, so tests can read what the runner said. */
function capturingLog(): JobLog & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const line = (level: LogLine['level']) => (details: Record<string, unknown>, message: string) => {
    lines.push({ level, message, details });
  };
  return { lines, info: line('info'), warn: line('warn'), error: line('error') };
}

/** A clock the test moves; both "servers" of a test read the same one, as NTP-synchronised hosts would. */
function testClock(start: Date) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      current += ms;
    },
  };
}

/** A promise the test settles by hand: a job that is "still running" until the test says so. */
function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Lets the other promises in flight take their turns (two runners interleave their queries). */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the job runner', () => {
  let database: DatabaseHandle;
  /** The second server's connection: its own pool on PostgreSQL; PGlite has one connection, which both share. */
  let secondDatabase: DatabaseHandle | null = null;
  let db: Database;
  let otherDb: Database;
  const clock = testClock(new Date('2026-11-24T12:00:00Z'));
  let queueNumber = 0;
  /** A queue name of this test alone, so that tests sharing the database never take each other's jobs. */
  const freshQueue = (name: string) => `${name}-${(queueNumber += 1)}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    if (testDatabaseKind() === 'postgres') {
      secondDatabase = openPostgres(await databaseUrlOf({ db }), 4);
      otherDb = secondDatabase.db;
    } else {
      otherDb = db;
    }
  });
  afterAll(async () => {
    await secondDatabase?.close();
    await database.close();
  });

  function twoServers(log = capturingLog()): [JobRunner, JobRunner] {
    return [
      createJobRunner({ db, log, now: clock.now, workerId: 'server-a' }),
      createJobRunner({ db: otherDb, log, now: clock.now, workerId: 'server-b' }),
    ];
  }

  // Jobs enqueued on a stopped test clock share one created_at: the time they are due breaks the tie (the order a
  // failed and a pending job came back in flipped in a run).
  const rowsOf = (queue: string) => db.select().from(jobs).where(eq(jobs.queue, queue)).orderBy(jobs.createdAt, jobs.runAt);

  it('runs each job once when two servers drain the same queue at the same time', async () => {
    const queue = freshQueue('count');
    const runs = new Map<string, string[]>();
    const [a, b] = twoServers();
    for (const [runner, name] of [
      [a, 'server-a'],
      [b, 'server-b'],
    ] as const) {
      runner.register(
        queue,
        async (job) => {
          await yieldTurn();
          runs.set(job.id, [...(runs.get(job.id) ?? []), name]);
        },
        { concurrency: 4 },
      );
    }
    for (let n = 0; n < 30; n += 1) await a.enqueue(queue, { n });

    const [ranByA, ranByB] = await Promise.all([a.drain(), b.drain()]);

    expect(ranByA + ranByB).toBe(30);
    expect(runs.size).toBe(30);
    expect([...runs.values()].every((servers) => servers.length === 1)).toBe(true);
    const rows = await rowsOf(queue);
    expect(rows.every((row) => row.completedAt !== null && row.attempts === 1)).toBe(true);
  });

  it('retries a failing job with back-off, then fails it for good after its last attempt', async () => {
    const queue = freshQueue('flaky');
    const log = capturingLog();
    const runner = createJobRunner({ db, log, now: clock.now });
    const attemptsSeen: number[] = [];
    runner.register(
      queue,
      async (job) => {
        attemptsSeen.push(job.attempts);
        throw new Error(`o provedor caiu (${job.attempts})`);
      },
      { maxAttempts: 3, backoff: (attempts) => attempts * MINUTE_MS },
    );
    await runner.enqueue(queue, { paymentId: 'p1' });

    expect(await runner.drain()).toBe(1);
    let [row] = await rowsOf(queue);
    expect(row).toMatchObject({ attempts: 1, lastError: 'Error: o provedor caiu (1)', failedAt: null, lockedUntil: null });
    expect(row?.runAt.getTime()).toBe(clock.now().getTime() + MINUTE_MS);
    // Not before its time.
    clock.advance(MINUTE_MS - 1);
    expect(await runner.drain()).toBe(0);

    clock.advance(1);
    expect(await runner.drain()).toBe(1);
    [row] = await rowsOf(queue);
    expect(row?.runAt.getTime()).toBe(clock.now().getTime() + 2 * MINUTE_MS);

    clock.advance(2 * MINUTE_MS);
    expect(await runner.drain()).toBe(1);
    [row] = await rowsOf(queue);
    expect(row).toMatchObject({ attempts: 3, lastError: 'Error: o provedor caiu (3)', completedAt: null });
    expect(row?.failedAt?.getTime()).toBe(clock.now().getTime());
    expect(log.lines.filter((line) => line.level === 'warn')).toHaveLength(2);
    expect(log.lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual(['job failed for good: no attempt left']);

    // Failed is final: no later drain takes it.
    clock.advance(DAY_MS);
    expect(await runner.drain()).toBe(0);
    expect(attemptsSeen).toEqual([1, 2, 3]);
  });

  it('completes a job that succeeds on a later attempt', async () => {
    const queue = freshQueue('second-time');
    const runner = createJobRunner({ db, log: capturingLog(), now: clock.now });
    runner.register(queue, async (job) => {
      if (job.attempts === 1) throw new Error('tempo esgotado');
    });
    await runner.enqueue(queue);
    await runner.drain();
    clock.advance(DAY_MS);
    expect(await runner.drain()).toBe(1);
    const [row] = await rowsOf(queue);
    expect(row).toMatchObject({ attempts: 2, failedAt: null, lastError: 'Error: tempo esgotado' });
    expect(row?.completedAt).not.toBeNull();
  });

  it("lets another server take over a job whose server died, once the lease is over", async () => {
    const queue = freshQueue('lease');
    const [a, b] = twoServers();
    const stuck = deferred();
    const ranBy: string[] = [];
    a.register(
      queue,
      async () => {
        ranBy.push('server-a');
        // Server A "dies": its handler never finishes while the test looks.
        await stuck.promise;
      },
      { leaseMs: 10 * MINUTE_MS },
    );
    b.register(
      queue,
      async () => {
        ranBy.push('server-b');
      },
      { leaseMs: 10 * MINUTE_MS },
    );
    await a.enqueue(queue);
    const deadRun = a.runDue();
    await expect.poll(() => ranBy).toEqual(['server-a']);

    // Within the lease, the job is A's.
    clock.advance(10 * MINUTE_MS);
    expect(await b.drain()).toBe(0);
    // After it, B takes it over and finishes it.
    clock.advance(1);
    expect(await b.drain()).toBe(1);
    expect(ranBy).toEqual(['server-a', 'server-b']);

    // A's late finish changes nothing: the job is B's, done at B's time.
    const doneAt = clock.now();
    clock.advance(MINUTE_MS);
    stuck.resolve();
    await deadRun;
    const [row] = await rowsOf(queue);
    expect(row).toMatchObject({ lockedBy: 'server-b', attempts: 2, failedAt: null });
    expect(row?.completedAt?.getTime()).toBe(doneAt.getTime());
  });

  it('fails a job whose server died during its last attempt, instead of leaving it pending for ever', async () => {
    const queue = freshQueue('last-attempt');
    const log = capturingLog();
    const [a, b] = twoServers(log);
    const stuck = deferred();
    let started = false;
    a.register(
      queue,
      async () => {
        started = true;
        await stuck.promise;
      },
      { maxAttempts: 1, leaseMs: MINUTE_MS },
    );
    b.register(queue, async () => undefined, { maxAttempts: 1, leaseMs: MINUTE_MS });
    await a.enqueue(queue);
    const deadRun = a.runDue();
    await expect.poll(() => started).toBe(true);

    clock.advance(MINUTE_MS + 1);
    expect(await b.drain()).toBe(0);
    const [row] = await rowsOf(queue);
    expect(row?.failedAt?.getTime()).toBe(clock.now().getTime());
    expect(row?.lastError).toBe('the worker stopped during an attempt');
    expect(log.lines.some((line) => line.level === 'error' && line.details.jobId === row?.id)).toBe(true);
    stuck.resolve();
    await deadRun;
  });

  it("fails, at most once, a job of an 'abandoned: fail' queue whose server died mid-attempt, with attempts left", async () => {
    const queue = freshQueue('at-most-once');
    const log = capturingLog();
    const [a, b] = twoServers(log);
    const stuck = deferred();
    const ranBy: string[] = [];
    a.register(
      queue,
      async () => {
        ranBy.push('server-a');
        // It may have sent the e-mail before it "died": nobody may send it again.
        await stuck.promise;
      },
      { maxAttempts: 5, leaseMs: MINUTE_MS, abandoned: 'fail' },
    );
    b.register(queue, async () => void ranBy.push('server-b'), { maxAttempts: 5, leaseMs: MINUTE_MS, abandoned: 'fail' });
    await a.enqueue(queue);
    const deadRun = a.runDue();
    await expect.poll(() => ranBy).toEqual(['server-a']);

    clock.advance(MINUTE_MS + 1);
    expect(await b.drain()).toBe(0);
    const [row] = await rowsOf(queue);
    expect(row).toMatchObject({ attempts: 1, completedAt: null, lastError: 'the worker stopped during an attempt' });
    expect(row?.failedAt?.getTime()).toBe(clock.now().getTime());
    expect(ranBy).toEqual(['server-a']);
    expect(log.lines.some((line) => line.level === 'error' && line.details.jobId === row?.id)).toBe(true);
    stuck.resolve();
    await deadRun;
  });

  it('makes one job of a singleton key, however many callers enqueue it at once', async () => {
    const queue = freshQueue('webhook-event');
    const [a, b] = twoServers();
    const ids = await Promise.all(
      Array.from({ length: 50 }, (_, n) => (n % 2 === 0 ? a : b).enqueue(queue, { eventId: 'evt_1' }, { singletonKey: 'asaas:evt_1' })),
    );
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    expect(await rowsOf(queue)).toHaveLength(1);

    // Done, the key still says "done": a late redelivery adds nothing. Another key is another job.
    a.register(queue, async () => undefined);
    await a.drain();
    expect(await b.enqueue(queue, { eventId: 'evt_1' }, { singletonKey: 'asaas:evt_1' })).toBeNull();
    expect(await b.enqueue(queue, { eventId: 'evt_2' }, { singletonKey: 'asaas:evt_2' })).not.toBeNull();
    // Jobs without a key never collide.
    expect(await a.enqueue(queue)).not.toBeNull();
    expect(await a.enqueue(queue)).not.toBeNull();
    expect(await rowsOf(queue)).toHaveLength(4);
  });

  it('enqueues inside a transaction: a rolled-back transaction leaves no job', async () => {
    const queue = freshQueue('in-transaction');
    const runner = createJobRunner({ db, log: capturingLog(), now: clock.now });
    const rollback = new Error('rollback');
    await expect(
      db.transaction(async (tx) => {
        await runner.enqueue(queue, { n: 1 }, { tx });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await rowsOf(queue)).toHaveLength(0);
    await db.transaction(async (tx) => {
      await runner.enqueue(queue, { n: 2 }, { tx });
    });
    expect((await rowsOf(queue)).map((row) => row.payload)).toEqual([{ n: 2 }]);
  });

  it('does not run a job before its runAt', async () => {
    const queue = freshQueue('later');
    const runner = createJobRunner({ db, log: capturingLog(), now: clock.now });
    const ran: unknown[] = [];
    runner.register(queue, async (job) => {
      ran.push(job.payload);
    });
    await runner.enqueue(queue, { reminder: 'D-3' }, { runAt: new Date(clock.now().getTime() + DAY_MS) });
    expect(await runner.drain()).toBe(0);
    clock.advance(DAY_MS);
    expect(await runner.drain()).toBe(1);
    expect(ran).toEqual([{ reminder: 'D-3' }]);
  });

  it('enqueues each occurrence of a schedule once across servers, and only the latest after a downtime', async () => {
    const queue = freshQueue('reconciliation');
    const [a, b] = twoServers();
    const occurrences: unknown[] = [];
    for (const runner of [a, b]) {
      runner.register(queue, async (job) => {
        occurrences.push(job.payload.occurrence);
      });
      runner.schedule(queue, { hour: 3 });
    }
    const first = lastOccurrence(clock.now(), { hour: 3 });

    await Promise.all([a.enqueueScheduled(), b.enqueueScheduled(), a.enqueueScheduled(), b.enqueueScheduled()]);
    await Promise.all([a.drain(), b.drain()]);
    expect(occurrences).toEqual([first.toISOString()]);
    const [row] = await rowsOf(queue);
    expect(row).toMatchObject({ singletonKey: occurrenceKey(queue, first), runAt: first });

    // Later the same day: still that occurrence, already done.
    clock.advance(6 * 60 * MINUTE_MS);
    await Promise.all([a.enqueueScheduled(), b.enqueueScheduled()]);
    expect(await Promise.all([a.drain(), b.drain()])).toEqual([0, 0]);

    // Both servers were off for three days: one run catches up, for the latest 3 am.
    clock.advance(3 * DAY_MS);
    await Promise.all([b.enqueueScheduled(), a.enqueueScheduled()]);
    await Promise.all([a.drain(), b.drain()]);
    const latest = lastOccurrence(clock.now(), { hour: 3 });
    expect(occurrences).toEqual([first.toISOString(), latest.toISOString()]);
    // (The runners' daily pruning, scheduled too, has meanwhile removed the first occurrence, finished 3 days ago.)
    expect((await rowsOf(queue)).map((row) => row.singletonKey)).toEqual([occurrenceKey(queue, latest)]);
  });

  it('runs a schedule every few minutes, one job per period', async () => {
    const queue = freshQueue('every-minute');
    const runner = createJobRunner({ db, log: capturingLog(), now: clock.now });
    let runs = 0;
    runner.register(queue, async () => {
      runs += 1;
    });
    runner.schedule(queue, { everyMinutes: 1 });
    await runner.enqueueScheduled();
    await runner.enqueueScheduled();
    await runner.drain();
    clock.advance(MINUTE_MS);
    await runner.enqueueScheduled();
    await runner.drain();
    expect(runs).toBe(2);
  });

  it('stop() waits for the jobs it is running, and start() runs due work without being asked', async () => {
    const queue = freshQueue('slow');
    const runner = createJobRunner({ db, log: capturingLog(), now: clock.now, pollMs: 20 });
    const finish = deferred();
    let started = false;
    runner.register(queue, async () => {
      started = true;
      await finish.promise;
    });
    await runner.enqueue(queue);
    runner.start();
    await expect.poll(() => started).toBe(true);

    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    for (let turn = 0; turn < 5; turn += 1) await yieldTurn();
    expect(stopped).toBe(false);
    finish.resolve();
    await stopping;
    const [row] = await rowsOf(queue);
    expect(row?.completedAt).not.toBeNull();
    // Stopped means stopped: nothing more is claimed.
    await runner.enqueue(queue);
    expect(await runner.drain()).toBe(0);
  });

  it('prunes finished jobs after a few days, but keeps pending work and the current occurrence of each schedule', async () => {
    const queue = freshQueue('prunable');
    const weekly = freshQueue('weekly');
    // Its own clock: Tuesday 1 Dec 2026, noon in São Paulo; the weekly occurrence is Monday 30 Nov, 9 am.
    const pruneClock = testClock(new Date('2026-12-01T15:00:00Z'));
    const runner = createJobRunner({ db, log: capturingLog(), now: pruneClock.now });
    runner.register(
      queue,
      async (job) => {
        if (job.payload.fail === true) throw new Error('não');
      },
      { maxAttempts: 1 },
    );
    runner.register(weekly, async () => undefined);
    runner.schedule(weekly, { hour: 9, weekday: 1 });
    await runner.enqueue(queue, { done: true });
    await runner.enqueue(queue, { fail: true });
    await runner.enqueueScheduled();
    await runner.drain();
    await runner.enqueue(queue, { pending: true }, { runAt: new Date(pruneClock.now().getTime() + 60 * DAY_MS) });
    expect((await rowsOf(weekly)).map((row) => row.runAt.toISOString())).toEqual(['2026-11-30T12:00:00.000Z']);

    // Saturday: the completed job goes; the failed one stays a month; the week's occurrence stays while current,
    // or the next tick would make this week's run again.
    pruneClock.advance(4 * DAY_MS);
    await runner.enqueue(PRUNE_QUEUE);
    await runner.drain();
    expect((await rowsOf(queue)).map((row) => row.payload)).toEqual([{ fail: true }, { pending: true }]);
    await runner.enqueueScheduled();
    await runner.drain();
    expect(await rowsOf(weekly)).toHaveLength(1);

    // A month on: the failed job and the old occurrence go too; the pending job is never pruned.
    pruneClock.advance(30 * DAY_MS);
    await runner.enqueue(PRUNE_QUEUE);
    await runner.drain();
    expect((await rowsOf(queue)).map((row) => row.payload)).toEqual([{ pending: true }]);
    expect(await rowsOf(weekly)).toHaveLength(0);
  });
});

describe("the application's scheduled work", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  /** Every daily or weekly queue the app schedules (trial expiry runs every minute). */
  const SCHEDULED_QUEUES = ['daily-backup', 'delinquency', 'jobs-prune', 'monthly-payouts', 'overdue-payments-digest', 'payment-reminders', 'reconciliation', 'weekly-report'];

  it('runs the daily backup, the e-mail reports, the trial expiry and the payment jobs as queues of the runner, once per occurrence', async () => {
    await t.app.jobs.enqueueScheduled();
    await t.app.jobs.drain();
    const done = await t.db.select({ queue: jobs.queue, completedAt: jobs.completedAt }).from(jobs);
    expect(done.map((row) => row.queue).sort()).toEqual([...SCHEDULED_QUEUES, 'trial-expiry'].sort());
    expect(done.every((row) => row.completedAt !== null)).toBe(true);
    expect(await t.app.backups.list()).toHaveLength(1);

    // Another tick adds nothing but, should the minute (or hour) have turned, the next trial expiry (or delinquency
    // run): the rest is done once.
    await t.app.jobs.enqueueScheduled();
    await t.app.jobs.drain();
    const queues = (await t.db.select({ queue: jobs.queue }).from(jobs)).map((row) => row.queue).filter((queue) => !['trial-expiry', 'delinquency'].includes(queue));
    expect(queues.sort()).toEqual(SCHEDULED_QUEUES.filter((queue) => queue !== 'delinquency'));
    expect(await t.app.backups.list()).toHaveLength(1);
  });
});
