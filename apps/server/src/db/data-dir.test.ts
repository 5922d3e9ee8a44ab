import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, securePrivateTree } from './data-dir.ts';

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-data-dir-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const modeOf = async (file: string) => (await fs.lstat(file)).mode & 0o777;
const failOnCompromise = (error: Error) => {
  throw error;
};

describe('securePrivateTree', () => {
  it('creates the folder 0700 and takes group and other bits away from everything under it', async () => {
    const dataDir = path.join(root, 'data');
    await fs.mkdir(path.join(dataDir, 'uploads', 'clinic'), { recursive: true });
    await fs.chmod(dataDir, 0o755);
    await fs.chmod(path.join(dataDir, 'uploads'), 0o777);
    await fs.writeFile(path.join(dataDir, 'uploads', 'clinic', 'logo.png'), 'x');
    await fs.chmod(path.join(dataDir, 'uploads', 'clinic', 'logo.png'), 0o666);
    await fs.writeFile(path.join(dataDir, 'auth-secret'), 'x', { mode: 0o600 });

    const fixed = await securePrivateTree(dataDir);

    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(path.join(dataDir, 'uploads'))).toBe(0o700);
    expect(await modeOf(path.join(dataDir, 'uploads', 'clinic', 'logo.png'))).toBe(0o600);
    expect(await modeOf(path.join(dataDir, 'auth-secret'))).toBe(0o600);
    expect(fixed.map((entry) => path.relative(dataDir, entry)).sort()).toEqual(['', 'uploads', 'uploads/clinic', 'uploads/clinic/logo.png'].sort());
  });

  it('makes a missing folder 0700', async () => {
    await securePrivateTree(path.join(root, 'new'));
    expect(await modeOf(path.join(root, 'new'))).toBe(0o700);
  });
});

describe('lockDataDir', () => {
  const quick = { staleMs: 2_000, updateMs: 1_000, waitMs: 0 };

  it('refuses a second holder while the first holds the folder, and allows it once released', async () => {
    const release = await lockDataDir(root, failOnCompromise, quick);
    await expect(lockDataDir(root, failOnCompromise, quick)).rejects.toBeInstanceOf(DataDirLockedError);
    await release();
    const again = await lockDataDir(root, failOnCompromise, quick);
    await again();
  });

  it('takes over the lock of a process that died without releasing it, once the lock is stale', async () => {
    // What a killed process leaves: the lock folder, no longer refreshed.
    await fs.mkdir(`${root}.lock`);
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(`${root}.lock`, old, old);
    const release = await lockDataDir(root, failOnCompromise, quick);
    await release();
  });
});
