import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meResponseSchema } from '@carteirinha/shared/contracts/me';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { freePort, spawnServer, startServer, stopServer as stop } from './server-process.ts';

async function signIn(baseUrl: string, email: string, password: string): Promise<Response> {
  return fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password }),
  });
}

describe('the server process on the embedded database', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-process-'));
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('seeds the demo, exits cleanly on SIGTERM, and keeps everything across a restart', async () => {
    const port = await freePort();
    const first = await startServer(dataDir, port);
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

    const second = await startServer(dataDir, port);
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

describe('the embedded database’s data folder', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-data-folder-'));
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('is the server user’s only: fixes what it finds open and creates nothing group or world accessible', async () => {
    // A folder left open by an older version, or copied in by hand.
    await fs.chmod(dataDir, 0o755);
    await fs.mkdir(path.join(dataDir, 'uploads'), { mode: 0o777 });
    await fs.chmod(path.join(dataDir, 'uploads'), 0o777);
    await fs.writeFile(path.join(dataDir, 'uploads', 'logo.png'), 'x');
    await fs.chmod(path.join(dataDir, 'uploads', 'logo.png'), 0o666);

    const server = await startServer(dataDir, await freePort());
    try {
      expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
      expect(await groupOrWorldAccessible(dataDir)).toEqual([]);
      expect((await fs.readdir(path.join(dataDir, 'pglite'))).length).toBeGreaterThan(0);
    } finally {
      expect(await stop(server)).toBe(0);
    }
    expect(await groupOrWorldAccessible(dataDir)).toEqual([]);
  }, 120_000);

  it('refuses a second server on the same folder while the first runs, and leaves the first untouched', async () => {
    const first = await startServer(dataDir, await freePort());
    try {
      const second = spawnServer(dataDir, await freePort());
      expect(await second.exited).not.toBe(0);
      expect(second.output()).toContain('in use by another Carteirinha process');
      expect(second.output()).not.toContain('Carteirinha em ');
      expect((await fetch(`${first.baseUrl}/api/ready`)).status).toBe(200);
    } finally {
      expect(await stop(first)).toBe(0);
    }
    // The lock went with the first server: the folder opens again.
    const again = await startServer(dataDir, await freePort());
    expect(await stop(again)).toBe(0);
  }, 180_000);
});
