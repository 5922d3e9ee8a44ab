import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { withMallocTunables } from '../src/lib/malloc-tunables.ts';
import { SMALL_CAPTCHA_ENV } from './captcha-kit.ts';

/** The server's sources, which `npm run dev` runs through tsx. */
const serverEntry = path.resolve(import.meta.dirname, '../src/server.ts');
/** The production build `npm start` runs (build.ts). */
const serverBuild = path.resolve(import.meta.dirname, '../dist/server.js');
/** What the build is made of: a source newer than it means the build is stale. */
const SOURCE_FOLDERS = [path.resolve(import.meta.dirname, '../src'), path.resolve(import.meta.dirname, '../../../packages/shared/src')];

function newestModification(folder: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

let chosenCommand: string[] | null = null;
/**
 * How a test starts the server: as `npm start` does — the build — when it is newer than every source (npm test builds
 * before it runs the suites), else the sources through tsx, so a test run after an edit never runs old code. The build
 * also starts in a fraction of tsx's time and CPU (~0.7 s against ~3 s of transpiling, per start).
 */
function serverCommand(): string[] {
  if (chosenCommand) return chosenCommand;
  const built = fs.existsSync(serverBuild) ? fs.statSync(serverBuild).mtimeMs : 0;
  const fresh = built > Math.max(...SOURCE_FOLDERS.map(newestModification));
  chosenCommand = fresh ? ['--enable-source-maps', serverBuild] : ['--import', 'tsx', serverEntry];
  return chosenCommand;
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code when the process ends (at once if it already has). */
  exited: Promise<number | null>;
};

/**
 * Starts the server (serverCommand: the build, or the sources when it is stale) on 127.0.0.1:`port` with a
 * production-like environment plus `env`; the captcha is on, as in production, with small work (a test's sign-up
 * solves it: captcha-kit.ts).
 */
export function spawnServer(dataDir: string, port: number, env: Record<string, string> = {}): ServerProcess {
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, serverCommand(), {
    // The malloc tunables `npm start` sets (src/lib/malloc-tunables.ts).
    env: withMallocTunables({
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      LOG_LEVEL: 'info',
      ...SMALL_CAPTCHA_ENV,
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, baseUrl, output: () => output, exited };
}

/** How long a started server has to answer /api/ready. */
const READY_WITHIN_MS = 240_000;

/** What a hook or test that starts a server on a fresh embedded database allows itself (a start and some work). */
export const SERVER_START_ROOM_MS = 300_000;

/** Starts the server and waits until `/api/ready` answers 200 (migrated, seeded, listening, database reachable). */
export async function startServer(dataDir: string, port: number, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = spawnServer(dataDir, port, env);
  // A fresh embedded database's migrations and demo took past 60 s on a machine half as fast as usual under the whole
  // suite's load (27/11, ci35), and past 110 s once (ci38): the deadline is time, not attempts (an attempt's fetch
  // itself is slow then), inside the embedded-database callers' 300 s (SERVER_START_ROOM_MS).
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    const ready = await fetch(`${server.baseUrl}/api/ready`).then((r) => r.ok, () => false);
    if (ready) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${server.output()}`);
}

/** SIGTERM, then the exit code. */
export async function stopServer(server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  return server.exited;
}

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * An HTTP call to a server process with a chosen Host (fetch cannot set it: patients and clinic teams live on their
 * clinic's host) and, when given, a chosen loopback source address (`from`: 127.0.0.2 is another client's address).
 */
export function call(
  baseUrl: string,
  method: string,
  url: string,
  options: { host?: string; headers?: Record<string, string>; body?: unknown; from?: string } = {},
): Promise<Answer> {
  const target = new URL(url, baseUrl);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      target,
      {
        method,
        headers: {
          ...(options.host ? { host: options.host } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        ...(options.from ? { localAddress: options.from } : {}),
        timeout: 20_000,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer')));
    request.on('error', reject);
    request.end(payload);
  });
}

/** The Cookie header of the session an answer set (sign-in, sign-up). */
export function cookieOf(answer: Answer): string {
  return (answer.headers['set-cookie'] ?? []).map((value) => value.split(';')[0]).join('; ');
}
