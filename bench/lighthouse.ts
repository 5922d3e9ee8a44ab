/**
 * Lighthouse (mobile profile: a mid-range phone on slow 4G, simulated) on the pages issue 24 names, in Debian's
 * Chromium, against the real server serving the production build (`npm run build` first) on a fresh embedded
 * database with the demo seed:
 *   npm run build && npm run lighthouse -w bench [-- --port 4720] [--runs 1]
 *
 * The platform is served as http://localhost:<port> and Clínica Demo on its sub-domain http://demo.localhost:<port>
 * (Chromium resolves *.localhost to loopback), so each page is measured on the host its users reach it on: the
 * landing on both, sign-in and the admin dashboard on the platform's, the patient's card and the clinic's validation
 * on the clinic's. Signed-in pages get the session cookie of a demo account. Appends to results/lighthouse.json.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { DEMO_ACCOUNTS, DEMO_CLINIC_SLUG, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite } from '../apps/server/src/db/client.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';
import { appendResult } from './harness.ts';

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const PORT = Number(flag('--port') ?? process.env.E2E_PORT ?? '4720');
const RUNS = Number(flag('--runs') ?? '1');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PLATFORM = `http://localhost:${PORT}`;
const CLINIC = `http://${DEMO_CLINIC_SLUG}.localhost:${PORT}`;

/** Issue 24's goals: performance per page, and for every page accessibility ≥ 95 and CLS ≤ 0.05. */
const GOALS = { accessibility: 95, cls: 0.05 };

type Page = { name: string; url: string; performanceGoal: number; account?: string };

const PAGES: Page[] = [
  { name: 'landing (platform)', url: `${PLATFORM}/`, performanceGoal: 95 },
  { name: 'landing (Clínica Demo)', url: `${CLINIC}/`, performanceGoal: 95 },
  { name: 'sign-in', url: `${PLATFORM}/auth`, performanceGoal: 90 },
  { name: 'patient card', url: `${CLINIC}/paciente/cartao`, performanceGoal: 95, account: DEMO_ACCOUNTS.patient },
  { name: 'clinic validation', url: `${CLINIC}/clinica/validar`, performanceGoal: 90, account: DEMO_ACCOUNTS.clinicStaff },
  { name: 'admin dashboard', url: `${PLATFORM}/admin`, performanceGoal: 90, account: DEMO_ACCOUNTS.admin },
];

/**
 * Signs in on the page's own host, as its user would; answers the session's `cookie` header. Node does not resolve
 * *.localhost as Chromium does, so the request goes to loopback with the host in its Host header.
 */
function sessionCookie(origin: string, email: string): Promise<string> {
  const body = JSON.stringify({ email, password: DEMO_PASSWORD });
  const headers = { host: new URL(origin).host, origin, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: PORT, method: 'POST', path: '/api/auth/sign-in/email', headers }, (response) => {
      response.resume();
      if (response.statusCode !== 200) {
        reject(new Error(`sign-in of ${email} on ${origin} failed: ${response.statusCode}`));
        return;
      }
      resolve((response.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]).join('; '));
    });
    request.on('error', reject);
    request.end(body);
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

type Measure = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  transferKiB: number;
};

function score(value: number | null | undefined): number {
  return Math.round((value ?? 0) * 100);
}

async function audit(port: number, page: Page, cookie: string | null): Promise<Measure> {
  const result = await lighthouse(page.url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    extraHeaders: cookie ? { cookie } : undefined,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${page.url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${page.url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (lhr.finalDisplayedUrl !== page.url) throw new Error(`${page.url} ended on ${lhr.finalDisplayedUrl}: signed out or sent elsewhere`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: score(lhr.categories.performance?.score),
    accessibility: score(lhr.categories.accessibility?.score),
    bestPractices: score(lhr.categories['best-practices']?.score),
    seo: score(lhr.categories.seo?.score),
    fcpMs: Math.round(numeric('first-contentful-paint')),
    lcpMs: Math.round(numeric('largest-contentful-paint')),
    tbtMs: Math.round(numeric('total-blocking-time')),
    cls: Number(numeric('cumulative-layout-shift').toFixed(3)),
    speedIndexMs: Math.round(numeric('speed-index')),
    transferKiB: Math.round(numeric('total-byte-weight') / 1024),
  };
}

/** The median of each figure over the runs (Lighthouse's own advice for noisy machines). */
function medianMeasure(runs: Measure[]): Measure {
  const of = (pick: (run: Measure) => number) => median(runs.map(pick));
  return {
    performance: of((run) => run.performance),
    accessibility: of((run) => run.accessibility),
    bestPractices: of((run) => run.bestPractices),
    seo: of((run) => run.seo),
    fcpMs: of((run) => run.fcpMs),
    lcpMs: of((run) => run.lcpMs),
    tbtMs: of((run) => run.tbtMs),
    cls: of((run) => run.cls),
    speedIndexMs: of((run) => run.speedIndexMs),
    transferKiB: of((run) => run.transferKiB),
  };
}

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-lighthouse-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    DATA_DIR: dataDir,
    PORT: String(PORT),
    PUBLIC_URL: PLATFORM,
    MAIN_DOMAIN: 'localhost',
  });
  await fs.access(path.join(config.webDistDir, 'index.html')).catch(() => {
    throw new Error(`no web build in ${config.webDistDir}: run npm run build first`);
  });
  const database = await openPglite(path.join(dataDir, 'pglite'));
  await database.migrate();
  const app = await buildApp({ config, database, authSecret: 'lighthouse-secret-that-is-long-enough-0123456789' });
  await seedDatabase({ db: database.db, auth: app.auth, cardBox: app.cardBox, withDemo: true });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const pages: Record<string, unknown>[] = [];
  try {
    for (const page of PAGES) {
      const origin = new URL(page.url).origin;
      const cookie = page.account ? await sessionCookie(origin, page.account) : null;
      const runs: Measure[] = [];
      for (let run = 0; run < RUNS; run += 1) runs.push(await audit(chrome.port, page, cookie));
      const measure = medianMeasure(runs);
      const misses = [
        measure.performance < page.performanceGoal ? `performance ${measure.performance} < ${page.performanceGoal}` : null,
        measure.accessibility < GOALS.accessibility ? `accessibility ${measure.accessibility} < ${GOALS.accessibility}` : null,
        measure.cls > GOALS.cls ? `CLS ${measure.cls} > ${GOALS.cls}` : null,
      ].filter((miss) => miss !== null);
      console.log(`${page.name}: ${JSON.stringify(measure)}${misses.length ? ` — misses: ${misses.join(', ')}` : ''}`);
      pages.push({ name: page.name, url: page.url, runs: RUNS, performanceGoal: page.performanceGoal, ...measure, misses });
    }
  } finally {
    chrome.kill();
    await app.close();
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
  await appendResult('lighthouse', {
    lighthouse: '12.2.3, mobile (default config: Moto G Power, simulated slow 4G, 4× CPU slowdown)',
    chromium: CHROMIUM_PATH,
    loadAverage: os.loadavg()[0]?.toFixed(1),
    pages,
  });
}

await main();
