/**
 * What this machine charges for the work the test suite is made of, in one minute instead of a 40-minute CI run: the
 * CPU (a scrypt hash as sign-in makes, a pure JavaScript loop), memory touched for the first time against memory
 * touched again, starting a process (fork + exec, a Node.js start) and Debian's Chromium started as the browser tests
 * start it (a new context with a page, a new page in a context, a navigation). Two machines whose CPU figures match can
 * differ several times over in the rest, and the browser suite is mostly the rest (27/11: a 2-core VM whose page
 * faults cost ~15 µs each ran the suite 3.5 times as long as one whose CPU was only ~1.6 times as fast).
 *
 *   npm run machine -w bench
 *
 * Prints the figures and appends them to results/machine.json.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { chromium } from '@playwright/test';
import { hashPassword } from 'better-auth/crypto';
import { chromiumLaunchOptions } from '../e2e/chromium.ts';
import { appendResult } from './harness.ts';

const MIB = 2 ** 20;
const PAGE_BYTES = 4096;
const TOUCHED_MIB = 256;

/** Median of `runs` timings of `work`, in milliseconds. */
async function medianMs(runs: number, work: () => unknown): Promise<number> {
  const timings: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  return round(timings[Math.floor(timings.length / 2)] ?? Number.NaN);
}

function round(value: number, digits = 2): number {
  return Number(value.toFixed(digits));
}

function javascriptLoop(): number {
  let sum = 0;
  for (let i = 0; i < 50_000_000; i++) sum = (sum + i * 31) % 1_000_003;
  return sum;
}

/** First touch maps a page (a fault); the second pass writes memory already mapped: their ratio is the fault's cost. */
function memoryTouch(): { firstTouchMsPerMiB: number; retouchMsPerMiB: number; microsecondsPerPageFault: number } {
  const buffer = Buffer.allocUnsafeSlow(TOUCHED_MIB * MIB);
  let started = performance.now();
  buffer.fill(1);
  const first = performance.now() - started;
  started = performance.now();
  buffer.fill(2);
  const again = performance.now() - started;
  const pages = (TOUCHED_MIB * MIB) / PAGE_BYTES;
  return {
    firstTouchMsPerMiB: round(first / TOUCHED_MIB, 3),
    retouchMsPerMiB: round(again / TOUCHED_MIB, 3),
    microsecondsPerPageFault: round(((first - again) * 1000) / pages),
  };
}

/** Frees the buffers of earlier figures now, so the next one maps memory the process has just given back. */
function releaseGarbage(): void {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc (npm run machine -w bench)');
  globalThis.gc();
}

/** The kernel's transparent huge page mode ("always", "madvise", "never"): with "always" a first touch maps 2 MiB at once. */
function transparentHugePages(): string {
  try {
    return /\[(\w+)\]/.exec(fs.readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

async function browserFigures() {
  let started = performance.now();
  const browser = await chromium.launch(chromiumLaunchOptions());
  const launchMs = round(performance.now() - started);
  try {
    const contextWithPageMs = await medianMs(15, async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto('about:blank');
      await context.close();
    });
    const context = await browser.newContext();
    const pageInContextMs = await medianMs(15, async () => {
      const page = await context.newPage();
      await page.goto('about:blank');
      await page.close();
    });
    const page = await context.newPage();
    const document = `data:text/html,<h1>Carteirinha</h1><script>document.title = [...Array(20000).keys()].join().length</script>`;
    const navigationMs = await medianMs(15, () => page.goto(document));
    started = performance.now();
    await context.close();
    return { launchMs, contextWithPageMs, pageInContextMs, navigationMs, closeMs: round(performance.now() - started) };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const figures = {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    kernel: os.release(),
    transparentHugePages: transparentHugePages(),
    // better-auth's own hasher, as sign-in runs it in production (scrypt N = 16 384, r = 16).
    scryptHashMs: await medianMs(5, () => hashPassword('demo123')),
    javascriptLoopMs: await medianMs(3, javascriptLoop),
    memory: memoryTouch(),
    // The same 256 MiB again, a moment after the first buffer was freed: on a host that takes freed memory back, or
    // charges every guest page-table change, this costs as much as the first (28/11: it did, ~14 µs a page).
    memoryJustFreed: (releaseGarbage(), memoryTouch()),
    forkExecMs: await medianMs(100, () => run('/bin/true', [])),
    nodeStartMs: await medianMs(10, () => run(process.execPath, ['-e', '0'])),
    chromium: await browserFigures(),
  };
  console.log(JSON.stringify(await appendResult('machine', figures), null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
