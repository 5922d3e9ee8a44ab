import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MALLOC_TUNABLES, withMallocTunables } from './malloc-tunables.ts';

describe('malloc tunables of the server process', () => {
  it('are what `npm start` starts the server with', () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { scripts: { start: string } };
    expect(manifest.scripts.start).toBe(`GLIBC_TUNABLES=${MALLOC_TUNABLES} node --enable-source-maps dist/server.js`);
  });

  it('join the tunables an environment already names, once', () => {
    expect(withMallocTunables({ PATH: '/bin' })).toEqual({ PATH: '/bin', GLIBC_TUNABLES: MALLOC_TUNABLES });
    const joined = withMallocTunables({ GLIBC_TUNABLES: 'glibc.pthread.rseq=0' });
    expect(joined.GLIBC_TUNABLES).toBe(`glibc.pthread.rseq=0:${MALLOC_TUNABLES}`);
    expect(withMallocTunables(joined).GLIBC_TUNABLES).toBe(joined.GLIBC_TUNABLES);
  });

  /**
   * In a fresh process: what the first of three password hashes by better-auth's own hasher (what production signs in
   * with) leaves resident, and the minor page faults of the other two. One libuv thread, so every hash runs in the same
   * thread and its malloc arena.
   */
  function hashMemory(env: Record<string, string | undefined>): { keptMiB: number; faults: number } {
    const script = `
      import { hashPassword } from 'better-auth/crypto';
      const rssBefore = process.memoryUsage.rss();
      await hashPassword('demo123');
      const keptMiB = (process.memoryUsage.rss() - rssBefore) / 2 ** 20;
      const faultsBefore = process.resourceUsage().minorPageFault;
      await hashPassword('demo123');
      await hashPassword('demo123');
      process.stdout.write(JSON.stringify({ keptMiB, faults: process.resourceUsage().minorPageFault - faultsBefore }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: import.meta.dirname,
      env: { PATH: process.env.PATH, UV_THREADPOOL_SIZE: '1', ...env },
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(child.status, child.stderr).toBe(0);
    return JSON.parse(child.stdout) as { keptMiB: number; faults: number };
  }

  // Two fresh Node processes, six scrypt hashes: a second or two alone, far past the default 5 s when CI's other
  // projects hold both cores.
  it("keep the password hash's 32 MiB in the heap instead of mapping fresh pages for every sign-in", { timeout: 60_000 }, () => {
    // glibc's defaults give the 32 MiB back to the kernel after each hash, so the next one maps and faults them in again
    // (8 192 pages of 4 KiB each; fewer where the kernel backs anonymous memory with 2 MiB pages, THP "always").
    expect(hashMemory({}).keptMiB).toBeLessThan(8);
    const tuned = hashMemory(withMallocTunables({}));
    expect(tuned.keptMiB).toBeGreaterThanOrEqual(32);
    expect(tuned.faults).toBeLessThan(1_000);
  });
});
