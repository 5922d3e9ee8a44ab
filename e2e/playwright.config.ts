import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_PORT, E2E_SMTP_PORT } from './ports';

const PORT = E2E_PORT;
const BASE_URL = `http://127.0.0.1:${PORT}`;
// A fresh embedded database per run, so tests start from the demo seed and nothing leaks between runs.
const DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'carteirinha-e2e-'));

/** Debian's Chromium, never a downloaded browser (the machine has no access to browser downloads). */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  forbidOnly: true,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: path.join(os.tmpdir(), 'carteirinha-e2e-results'),
  use: {
    baseURL: BASE_URL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    // sonner fades toasts in; without motion axe measures the final colours, not a half-faded frame.
    contextOptions: { reducedMotion: 'reduce' },
    trace: 'off',
    screenshot: 'off',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: /\.serial\.spec\.ts$/ },
    // Tests that change shared state run alone, after all the others: platform-wide settings (two-factor for every
    // admin) and Clínica Demo's public plans, which other tests count.
    // One worker: two of these files at once would see each other's changes (two-factor on for the clinic admin).
    { name: 'platform-wide', use: { browserName: 'chromium' }, testMatch: /\.serial\.spec\.ts$/, dependencies: ['chromium'], fullyParallel: false, workers: 1 },
  ],
  webServer: {
    command: 'node --import tsx ../apps/server/src/server.ts',
    // Readiness, not liveness: the tests start once the server is migrated, seeded and its database answers.
    url: `${BASE_URL}/api/ready`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(PORT),
      PUBLIC_URL: BASE_URL,
      DATA_DIR,
      LOG_LEVEL: 'warn',
      // Every test signs in from the same loopback address: lift the per-IP limit that the server tests cover.
      SIGN_IN_IP_LIMIT: '10000',
      // The test SMTP server cannot take port 587 on a shared machine: its port joins the SMTP ports.
      SMTP_ALLOWED_PORTS: `25,465,587,2525,${E2E_SMTP_PORT}`,
      PATH: process.env.PATH ?? '',
      // Lets a second run serve its own build while another one is in progress.
      ...(process.env.WEB_DIST_DIR ? { WEB_DIST_DIR: process.env.WEB_DIST_DIR } : {}),
    },
  },
});
