import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium';
import { E2E_BASE_URL } from './ports';

export default defineConfig({
  testDir: './tests',
  // Starts the one server of the run, on a fresh embedded database with the demo seed and the demo sessions, so tests
  // start from the demo data and nothing leaks between runs (global-setup.ts; it replaces Playwright's webServer).
  globalSetup: './global-setup.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  // One retry in CI: a machine three times slower than usual (27/11, ci33–34) took single long tests past their time
  // while the rest passed. The summary at the end of `npm test` names every test that passed only on its retry.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: true,
  // Room for a slow machine; it only matters when something is slow.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // The JSON report feeds the summary at the end of `npm test` (.ci/test-summary.mjs).
  reporter: [['list'], ['json', { outputFile: path.resolve(import.meta.dirname, '../test-results/e2e.json') }]],
  outputDir: path.join(os.tmpdir(), 'carteirinha-e2e-results'),
  use: {
    baseURL: E2E_BASE_URL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    // sonner fades toasts in; without motion axe measures the final colours, not a half-faded frame.
    contextOptions: { reducedMotion: 'reduce' },
    // The service worker (issue 29) would precache the whole app in every test's fresh browser: only pwa.spec.ts,
    // which tests it, lets it run.
    serviceWorkers: 'block',
    trace: 'off',
    // Each worker keeps one browser context and its first page from test to test, reset in between (cookies, storage
    // of every origin visited, routes, init scripts, extra pages, viewport; fixtures.ts resets what Playwright leaves:
    // permissions, geolocation, offline, extra headers). A fresh page starts a fresh renderer process, ~1.6 core-seconds
    // before the app's first byte and ~4 with it on the 27/11 machine; reused, the suite took a quarter less time
    // (bench/RESULTS.md, "27/11 18:30"). A test that needs other context options (serviceWorkers, launch flags) still
    // gets a context of its own, and tests that open contexts with browser.newContext() are untouched.
    reuseContext: true,
    screenshot: 'off',
    launchOptions: chromiumLaunchOptions(),
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: /\.serial\.spec\.ts$/, grepInvert: /@platform-wide/ },
    // Tests that change shared state run alone, after all the others: platform-wide settings (two-factor for every
    // admin) and Clínica Demo's public plans, which other tests count. They are the .serial.spec.ts files and the
    // tests tagged @platform-wide (the accessibility spec's states that save such settings).
    // One worker: two of these files at once would see each other's changes (two-factor on for the clinic admin).
    {
      name: 'platform-wide',
      use: { browserName: 'chromium' },
      testMatch: [/\.serial\.spec\.ts$/, /accessibility\.spec\.ts$/],
      grep: /\.serial\.spec\.ts|@platform-wide/,
      dependencies: ['chromium'],
      fullyParallel: false,
      workers: 1,
    },
  ],
});
