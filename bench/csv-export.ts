/**
 * CSV export of 100 000 rows (or `--rows N`): the clinics and users reports downloaded over HTTP from the real server,
 * on a fresh database, while process.memoryUsage() is sampled every 50 ms. The export streams keyset batches, so the
 * heap should stay flat however long the file: run it at several sizes (bench/README.md) and compare the growth.
 * Records each run in bench/results/csv-export.json. Fails unless each file holds exactly the generated rows and
 * the header.
 *
 *   npm run csv-export -w bench [-- [--rows N] [--postgres postgres://…]]
 *
 * A PostgreSQL database (--postgres or DATABASE_URL) must be empty; the run leaves its rows there.
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReportKind } from '@carteirinha/shared/contracts/reports';
import type { Database } from '../apps/server/src/db/client.ts';
import { userRoles } from '../apps/server/src/db/schema.ts';
import { REPORTS } from '../apps/server/src/modules/reports/definitions.ts';
import { ensureSettingsRow } from '../apps/server/src/modules/settings/repository.ts';
import { DEMO_SETTINGS } from '../apps/server/src/modules/settings/store.ts';
import { seedManyClinics, seedManyUsers } from '../apps/server/test/generators.ts';
import { authRequest, recordRun, signInCookie, startBenchServer, type BenchServer } from './harness.ts';

/** 100 000 rows per file, or `--rows N` for a quicker run (or to see that the memory does not follow the size). */
const ROWS = process.argv.includes('--rows') ? Number(process.argv[process.argv.indexOf('--rows') + 1]) : 100_000;
const SAMPLE_EVERY_MS = 50;
const ADMIN_PASSWORD = 'senha-do-bench-123';

/** `arrayBuffersMiB`: Buffers outside the heap (socket and file chunks in flight). */
type Memory = { rssMiB: number; heapUsedMiB: number; arrayBuffersMiB: number };

function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

function mebibytes(bytes: number): number {
  return oneDecimal(bytes / 2 ** 20);
}

function memoryNow(): Memory {
  const usage = process.memoryUsage();
  return { rssMiB: mebibytes(usage.rss), heapUsedMiB: mebibytes(usage.heapUsed), arrayBuffersMiB: mebibytes(usage.arrayBuffers) };
}

/** The files must hold exactly the generated rows: a PostgreSQL database given to the bench has to be empty. */
async function assertEmpty(db: Database): Promise<void> {
  const existing = (await REPORTS.clinicas.count(db, {})) + (await REPORTS.usuarios.count(db, {}));
  if (existing > 0) throw new Error(`the database must be empty: it holds ${existing} clinics and users`);
}

/**
 * The admin who downloads is one of the users, so the users file holds the admin and ROWS - 1 generated accounts. As
 * in the tests, an admin signs in with the password alone (no second factor to enrol).
 */
async function signInAsAdmin(server: BenchServer): Promise<string> {
  const { db } = server.database;
  await ensureSettingsRow(db, DEMO_SETTINGS);
  const email = 'admin.bench@carteirinha.dev';
  await authRequest(server, 'sign-up/email', { email, password: ADMIN_PASSWORD, name: 'Admin do Bench' });
  const admin = await db.query.users.findFirst({ where: (user, { eq }) => eq(user.email, email) });
  if (!admin) throw new Error('the admin was not created');
  await db.insert(userRoles).values({ userId: admin.id, role: 'admin' });
  return signInCookie(server, email, ADMIN_PASSWORD);
}

/** The first bytes of a file as text: the check of the header must not read a file of many MiB into memory itself. */
async function readOpening(file: string, bytes: number): Promise<string> {
  const handle = await fs.open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Downloads one report into the run's folder as a browser would, reading the body as a stream, with the memory
 * sampled every 50 ms from the request until the last byte is on disk.
 */
async function exportReport(server: BenchServer, cookie: string, kind: ReportKind) {
  const file = path.join(server.dataDir, REPORTS[kind].fileName);
  globalThis.gc?.();
  const before = memoryNow();
  const peak = { ...before };
  let samples = 0;
  const sampler = setInterval(() => {
    const now = memoryNow();
    peak.rssMiB = Math.max(peak.rssMiB, now.rssMiB);
    peak.heapUsedMiB = Math.max(peak.heapUsedMiB, now.heapUsedMiB);
    peak.arrayBuffersMiB = Math.max(peak.arrayBuffersMiB, now.arrayBuffersMiB);
    samples += 1;
  }, SAMPLE_EVERY_MS);

  // With the embedded database the queries run on this thread: how long the server could answer nobody else.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const started = performance.now();
  let firstByteMs = 0;
  let bytes = 0;
  let lines = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += chunk.length;
      // Every row ends with CRLF and no generated cell holds a line break: one LF per line.
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
      done(null, chunk);
    },
  });
  try {
    const response = await fetch(`${server.address}/api/admin/reports/${kind}.csv`, { headers: { cookie } });
    if (!response.ok || !response.body) throw new Error(`${kind}.csv: ${response.status} ${await response.text()}`);
    await pipeline(Readable.fromWeb(response.body), counter, createWriteStream(file));
  } finally {
    clearInterval(sampler);
    loopDelay.disable();
  }
  const durationMs = performance.now() - started;
  // What the export left behind once its garbage is collected: a file held in memory would show here.
  globalThis.gc?.();
  const afterGc = memoryNow();

  const expectedHeader = `\uFEFF${REPORTS[kind].header.join(';')}\r\n`;
  const opening = await readOpening(file, Buffer.byteLength(expectedHeader));
  if (opening !== expectedHeader) throw new Error(`${kind}.csv: unexpected header ${JSON.stringify(opening)}`);
  if (lines !== ROWS + 1) throw new Error(`${kind}.csv: ${lines} lines, expected ${ROWS} rows and the header`);
  return {
    rows: lines - 1,
    bytes,
    durationMs: Math.round(durationMs),
    firstByteMs: Math.round(firstByteMs),
    rowsPerSecond: Math.round((lines - 1) / (durationMs / 1000)),
    eventLoopDelayMaxMs: Math.round(loopDelay.max / 1e6),
    memory: {
      samples,
      before,
      peak,
      afterGc,
      growth: {
        rssMiB: oneDecimal(peak.rssMiB - before.rssMiB),
        heapUsedMiB: oneDecimal(peak.heapUsedMiB - before.heapUsedMiB),
        arrayBuffersMiB: oneDecimal(peak.arrayBuffersMiB - before.arrayBuffersMiB),
      },
      retainedHeapMiB: oneDecimal(afterGc.heapUsedMiB - before.heapUsedMiB),
    },
  };
}

async function main(): Promise<void> {
  if (!Number.isInteger(ROWS) || ROWS < 2) throw new Error('--rows takes a whole number of at least 2');
  const server = await startBenchServer();
  const { db } = server.database;
  await assertEmpty(db);

  const seedStarted = performance.now();
  await seedManyClinics(db, ROWS, 'bench');
  const clinic = await db.query.clinics.findFirst({ columns: { id: true } });
  await seedManyUsers(db, ROWS - 1, { prefix: 'bench', clinicId: clinic?.id });
  const seedSeconds = oneDecimal((performance.now() - seedStarted) / 1000);
  // After the seed, not before: a seed longer than the server's keep-alive (72 s at 500 000 rows on PGlite) would
  // leave the client a closed connection to reuse.
  const cookie = await signInAsAdmin(server);

  const clinics = await exportReport(server, cookie, 'clinicas');
  const users = await exportReport(server, cookie, 'usuarios');
  await server.close();

  // The V8 heap limit of the run (`node --max-old-space-size=N` lowers it): a file held in memory would not fit a low one.
  const heapLimitMiB = mebibytes(v8.getHeapStatistics().heap_size_limit);
  await recordRun('csv-export', server, { rows: ROWS, heapLimitMiB, sampleEveryMs: SAMPLE_EVERY_MS, seedSeconds, clinics, users });
  for (const [kind, result] of Object.entries({ clinics, users })) {
    console.log(
      `${kind}: ${result.rows} rows, ${mebibytes(result.bytes)} MiB in ${result.durationMs} ms (${result.rowsPerSecond} rows/s, ` +
        `first byte ${result.firstByteMs} ms, event loop held ≤ ${result.eventLoopDelayMaxMs} ms); ` +
        `heap ${result.memory.before.heapUsedMiB} → peak ${result.memory.peak.heapUsedMiB} MiB (after GC ${result.memory.afterGc.heapUsedMiB} MiB), ` +
        `buffers ${result.memory.before.arrayBuffersMiB} → peak ${result.memory.peak.arrayBuffersMiB} MiB, rss ${result.memory.before.rssMiB} → peak ${result.memory.peak.rssMiB} MiB`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
