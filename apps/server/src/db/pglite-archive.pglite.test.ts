import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openPglite } from './client.ts';

const execFileAsync = promisify(execFile);

/** Each member of a .tar.gz: its name and mode. */
async function members(file: string): Promise<{ name: string; mode: number; type: string }[]> {
  const found: { name: string; mode: number; type: string }[] = [];
  const extract = tar.extract();
  const reading = (async () => {
    for await (const entry of extract) {
      found.push({ name: entry.header.name, mode: entry.header.mode ?? 0, type: entry.header.type ?? '' });
      entry.resume();
    }
  })();
  await Promise.all([pipeline(createReadStream(file), zlib.createGunzip(), extract), reading]);
  return found;
}

describe('a backup of the embedded database (issue 12 item 23)', () => {
  let root: string;
  let backup: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-archive-'));
    const database = await openPglite(path.join(root, 'live', 'pglite'));
    try {
      await database.db.execute(sql`create table kept (note text)`);
      await database.db.execute(sql`insert into kept values ('sobrevive ao backup')`);
      backup = path.join(root, `backup${database.backupExtension}`);
      await database.backup(backup);
    } finally {
      await database.close();
    }
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('names every member relative to the data folder, and keeps every member private', async () => {
    const list = await members(backup);
    expect(list.map((member) => member.name)).toEqual(expect.arrayContaining(['PG_VERSION', 'base', 'global/pg_control']));
    const unsafe = list.filter((member) => path.isAbsolute(member.name) || member.name.split('/').includes('..'));
    expect(unsafe).toEqual([]);
    const open = list.filter((member) => (member.mode & 0o077) !== 0);
    expect(open).toEqual([]);
    expect((await fs.stat(backup)).mode & 0o777).toBe(0o600);
  });

  it('restores by extracting it as DATA_DIR/pglite: the server’s database opens with the data in it', async () => {
    const restored = path.join(root, 'restored', 'pglite');
    await fs.mkdir(restored, { recursive: true });
    await execFileAsync('tar', ['-xzf', backup, '-C', restored]);
    const database = await openPglite(restored);
    try {
      const result = await database.db.execute(sql`select note from kept`);
      expect(z.object({ rows: z.array(z.object({ note: z.string() })) }).parse(result).rows).toEqual([{ note: 'sobrevive ao backup' }]);
    } finally {
      await database.close();
    }
  });
});
