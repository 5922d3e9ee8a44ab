import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meResponseSchema } from '@carteirinha/shared/contracts/me';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { freePort, SERVER_START_ROOM_MS, spawnServer, startServer, stopServer as stop, type ServerProcess } from './server-process.ts';
import { solvedCaptchaHeaders } from './captcha-kit.ts';

/** Sends a request's head and half its body: the server has taken it and waits for the rest. */
function requestInFlight(url: string, headers: Record<string, string>, body: string, agent: http.Agent): { finish: () => Promise<number> } {
  const half = Math.floor(body.length / 2);
  const request = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } });
  const answered = new Promise<number>((resolve, reject) => {
    request.once('response', (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('error', reject);
  });
  request.write(body.slice(0, half));
  return {
    finish: () => {
      request.end(body.slice(half));
      return answered;
    },
  };
}

async function signIn(baseUrl: string, email: string, password: string): Promise<Response> {
  return fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password }),
  });
}

/** Every file and folder under `root` whose mode lets the group or others in, with its mode in octal. */
async function groupOrWorldAccessible(root: string): Promise<string[]> {
  const open: string[] = [];
  const visit = async (entry: string): Promise<void> => {
    const stat = await fs.lstat(entry);
    if ((stat.mode & 0o077) !== 0) open.push(`${path.relative(root, entry) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of await fs.readdir(entry)) await visit(path.join(entry, name));
  };
  await visit(root);
  return open;
}

/*
 * The real server process on its default database, started as few times as the promises need (each start is a Node
 * process, a PGlite cluster made on disk, the migrations and the demo seed): one server on a data folder left open,
 * a second one refused beside it, then a restart. The tests run in order on that one server.
 */
let dataDir: string;
let first: ServerProcess;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-process-'));
  // A folder left open by an older version, or copied in by hand.
  await fs.chmod(dataDir, 0o755);
  await fs.mkdir(path.join(dataDir, 'uploads'), { mode: 0o777 });
  await fs.chmod(path.join(dataDir, 'uploads'), 0o777);
  await fs.writeFile(path.join(dataDir, 'uploads', 'logo.png'), 'x');
  await fs.chmod(path.join(dataDir, 'uploads', 'logo.png'), 0o666);
  first = await startServer(dataDir, await freePort());
}, SERVER_START_ROOM_MS);
afterAll(async () => {
  if (first.child.exitCode === null) await stop(first);
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('the embedded database’s data folder', () => {
  it('is the server user’s only: fixes what it finds open and creates nothing group or world accessible', async () => {
    expect((await fetch(`${first.baseUrl}/api/health`)).status).toBe(200);
    expect(await groupOrWorldAccessible(dataDir)).toEqual([]);
    expect((await fs.readdir(path.join(dataDir, 'pglite'))).length).toBeGreaterThan(0);
  });

  it('refuses a second server on the same folder while the first runs, and leaves the first untouched', async () => {
    const second = spawnServer(dataDir, await freePort());
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toContain('in use by another Carteirinha process');
    expect(second.output()).not.toContain('Carteirinha em ');
    expect((await fetch(`${first.baseUrl}/api/ready`)).status).toBe(200);
  }, 60_000);
});

describe('the server process on the embedded database', () => {
  it('seeds the demo, exits cleanly on SIGTERM, and keeps everything across a restart', async () => {
    const health = await (await fetch(`${first.baseUrl}/api/health`)).json();
    expect(health).toEqual({ status: 'ok', database: 'pglite' });
    const ready = await fetch(`${first.baseUrl}/api/ready`);
    expect(ready.status).toBe(200);
    expect(first.output()).toContain(DEMO_ACCOUNTS.admin);

    const admin = await signIn(first.baseUrl, DEMO_ACCOUNTS.admin, DEMO_PASSWORD);
    expect(admin.status).toBe(200);
    const challenge = await (await fetch(`${first.baseUrl}/api/captcha/challenge`)).json();
    const signUp = await fetch(`${first.baseUrl}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: first.baseUrl, ...(await solvedCaptchaHeaders(challenge)) },
      body: JSON.stringify({ email: 'sobrevive@teste.dev', password: 'senha-123', name: 'Sobrevive ao Reinício' }),
    });
    expect(signUp.status).toBe(200);
    expect(await stop(first)).toBe(0);
    expect(first.output()).toContain('shutting down');
    expect(await groupOrWorldAccessible(dataDir)).toEqual([]);

    // The lock went with the first server: the folder opens again, with everything in it.
    const second = await startServer(dataDir, await freePort());
    try {
      const again = await signIn(second.baseUrl, 'sobrevive@teste.dev', 'senha-123');
      expect(again.status).toBe(200);
      const cookie = again.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const me = meResponseSchema.parse(await (await fetch(`${second.baseUrl}/api/me`, { headers: { cookie } })).json());
      expect(me.user.fullName).toBe('Sobrevive ao Reinício');
    } finally {
      expect(await stop(second)).toBe(0);
    }
  }, SERVER_START_ROOM_MS);
});

describe('a SIGTERM with requests in flight (checklist 36)', () => {
  it('stops taking connections, answers every request it took, closes the database and exits 0', async () => {
    // The data folder is one server's: the first one goes if the tests before did not stop it.
    if (first.child.exitCode === null) await stop(first);
    const server = await startServer(dataDir, await freePort(), { CARD_VALIDATIONS_PER_MINUTE: '1000' });
    try {
      const signedIn = await signIn(server.baseUrl, DEMO_ACCOUNTS.clinicStaff, DEMO_PASSWORD);
      expect(signedIn.status).toBe(200);
      const cookie = signedIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      // Kept-alive connections, as a reverse proxy keeps them: each must still be answered, then let go.
      const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
      const body = JSON.stringify({ cardToken: '0000000000000000', source: 'manual' });
      const url = `${server.baseUrl}/api/clinic/card-validations`;
      const inFlight = Array.from({ length: 100 }, () => requestInFlight(url, { cookie, origin: server.baseUrl }, body, agent));
      // Every one of them reached the server (its access log line) and waits there for the rest of its body.
      const taken = () => server.output().split('\n').filter((line) => line.includes('incoming request') && line.includes('card-validations')).length;
      await expect.poll(taken, { timeout: 30_000, interval: 50 }).toBe(100);

      server.child.kill('SIGTERM');
      await expect.poll(() => server.output().includes('shutting down'), { timeout: 10_000, interval: 20 }).toBe(true);
      // No new connection is taken once the drain has begun.
      const newConnection = () => fetch(`${server.baseUrl}/api/health`).then(() => 'answered', () => 'refused');
      await expect.poll(newConnection, { timeout: 10_000, interval: 50 }).toBe('refused');

      const statuses = await Promise.all(inFlight.map((request) => request.finish()));
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(await server.exited).toBe(0);
      expect(server.output()).not.toContain('did not finish in time');
      agent.destroy();
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, SERVER_START_ROOM_MS);
});
