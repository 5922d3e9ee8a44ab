import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { withMallocTunables } from '../apps/server/src/lib/malloc-tunables';
import { startTileServer, E2E_TILE_ATTRIBUTION, E2E_TILE_URL } from './map-tiles';
import { E2E_BASE_URL, E2E_PORT, E2E_SMTP_PORT } from './ports';
import { DEMO_ACCOUNT_NAMES, RUN_DIR_VARIABLE, SESSIONS_PER_ACCOUNT, sessionsTaken } from './session-pool';

/**
 * One server for the whole run, on a fresh embedded database with the demo seed. Playwright's own `webServer` starts
 * before any global setup, and the embedded database takes one process at a time, so the server is started here,
 * after prepare-database.ts has migrated, seeded and made the demo sessions (session-pool.ts).
 */

const HERE = import.meta.dirname;
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

/** What the server is started with: the same for the preparation, which reads the same configuration. */
function serverEnvironment(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(E2E_PORT),
    PUBLIC_URL: E2E_BASE_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Tests that test signing in do it from the same loopback address: lift the per-IP limit the server tests cover.
    SIGN_IN_IP_LIMIT: '10000',
    // The captcha stays on (ADR 029): the forms solve it in the page, the API sign-ups in e2e/captcha.ts. Its work is
    // made small so no test waits for it; the sign-in's captcha after failed attempts (every test signs in from the
    // same address) is left to the server tests, like the per-IP limit above.
    CAPTCHA: 'on',
    CAPTCHA_COST: '10',
    CAPTCHA_MAX_COUNTER: '20',
    CAPTCHA_AFTER_SIGN_IN_FAILURES: '10000',
    // The test SMTP server cannot take port 587 on a shared machine: its port joins the SMTP ports.
    SMTP_ALLOWED_PORTS: `25,465,587,2525,${E2E_SMTP_PORT}`,
    // The network map's tiles come from the local stand-in, never the internet (map-tiles.ts).
    MAP_TILE_URL: E2E_TILE_URL,
    MAP_TILE_ATTRIBUTION: E2E_TILE_ATTRIBUTION,
    // Headless Chromium has no push service of its own (tests/push.spec.ts): its stand-in's endpoints are on loopback.
    PUSH_LOOPBACK_ENDPOINTS: 'on',
  };
}

/** Whether something already listens on the port (Playwright's webServer refused to start then; so does this). */
function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Forwards a child's error output to the runner's, each line marked with where it comes from. */
function forwardErrors(child: ChildProcess, label: string): () => string {
  let collected = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    collected += text;
    process.stderr.write(text.replace(/^(?=.)/gm, `[${label}] `));
  });
  return () => collected;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

async function prepareDatabase(env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'prepare-database.ts')], { cwd: HERE, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const errors = forwardErrors(child, 'prepare-database');
  const code = await exitOf(child);
  if (code !== 0) throw new Error(`prepare-database.ts failed (exit ${code}): ${errors().trim()}`);
}

async function isReady(): Promise<boolean> {
  try {
    return (await fetch(`${E2E_BASE_URL}/api/ready`)).ok;
  } catch {
    return false;
  }
}

/** Waits for readiness (migrated, seeded, database answering), as the webServer's `url` did; fails if the server exits. */
async function waitUntilReady(server: ChildProcess, errors: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const delays = [100, 250, 500];
  while (!(await isReady())) {
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`the server exited before it was ready (exit ${server.exitCode}): ${errors().trim()}`);
    if (Date.now() > deadline) throw new Error(`the server was not ready within ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, delays.shift() ?? 1000));
  }
}

/** SIGTERM lets the server close the embedded database; one that does not stop in time is killed. */
async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exitOf(server);
  clearTimeout(timer);
}

/** Says so when a run took most of an account's pooled sessions, before a growing suite runs out of them. */
function warnOfPoolNearlyUsed(runDir: string): void {
  const taken = sessionsTaken(runDir);
  for (const account of DEMO_ACCOUNT_NAMES) {
    if (taken[account] > SESSIONS_PER_ACCOUNT[account] * 0.8) {
      console.warn(`The run took ${taken[account]} of the ${SESSIONS_PER_ACCOUNT[account]} sessions made for ${account}: raise SESSIONS_PER_ACCOUNT in e2e/session-pool.ts`);
    }
  }
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (await portInUse(E2E_PORT)) throw new Error(`${E2E_BASE_URL} is already used: stop what runs on port ${E2E_PORT}, or set E2E_PORT`);
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteirinha-e2e-'));
  // The workers start after this and inherit the runner's environment: this is how they find the session pool.
  process.env[RUN_DIR_VARIABLE] = runDir;
  const env = serverEnvironment(path.join(runDir, 'data'));
  await prepareDatabase(env);
  const stopTiles = await startTileServer();

  // The production build of the server, as `npm start` runs it (`npm run build` makes it beside the web app's).
  const serverBuild = path.join(HERE, '../apps/server/dist/server.js');
  if (!fs.existsSync(serverBuild)) throw new Error(`${serverBuild} is missing: run npm run build first`);
  // With the malloc tunables `npm start` sets (apps/server/src/lib/malloc-tunables.ts).
  const server = spawn(process.execPath, ['--enable-source-maps', serverBuild], { cwd: HERE, env: withMallocTunables(env), stdio: ['ignore', 'ignore', 'pipe'] });
  const errors = forwardErrors(server, 'WebServer');
  try {
    await waitUntilReady(server, errors);
  } catch (error) {
    await stop(server);
    await stopTiles();
    throw error;
  }
  return async () => {
    await stop(server);
    await stopTiles();
    warnOfPoolNearlyUsed(runDir);
    fs.rmSync(runDir, { recursive: true, force: true });
  };
}
