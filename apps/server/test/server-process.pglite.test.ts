import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meResponseSchema } from '@carteirinha/shared/contracts/me';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { freePort, spawnServer, startServer, stopServer as stop, type ServerProcess } from './server-process.ts';

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
}, 120_000);
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
    const signUp = await fetch(`${first.baseUrl}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: first.baseUrl },
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
  }, 120_000);
});
