import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openPostgres, PgDumpVersionMismatchError } from '../../db/client.ts';
import { createTestApp, databaseUrlOf, type TestApp } from '../../../test/helpers.ts';
import { createBackupService } from '../backups/backups.ts';
import { backupFailureMessage } from './routes.ts';

// PostgreSQL only (*.postgres.test.ts): pg_dump exists for PostgreSQL servers; the embedded database copies its folder.
describe('backups on PostgreSQL with an old pg_dump', () => {
  let t: TestApp;
  let fakeBin: string;

  beforeAll(async () => {
    t = await createTestApp();
    // A pg_dump that says it is PostgreSQL 9 (and would fail if it were ever asked to dump).
    fakeBin = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-pg-dump-'));
    await fs.writeFile(path.join(fakeBin, 'pg_dump'), '#!/bin/sh\necho "pg_dump (PostgreSQL) 9.6.24"\n[ "$1" = "--version" ] || exit 3\n', { mode: 0o755 });
  });
  afterAll(async () => {
    await fs.rm(fakeBin, { recursive: true, force: true });
    await t.close();
  });

  it('says which versions do not match, in the log and in pt-BR, before running pg_dump', async () => {
    const [server] = z.object({ rows: z.array(z.object({ server_version_num: z.string() })) }).parse(await t.db.execute(sql`show server_version_num`)).rows;
    const serverMajor = Math.floor(Number(server?.server_version_num) / 10_000);
    expect(serverMajor).toBeGreaterThan(9);
    const oldTools = openPostgres(await databaseUrlOf(t), 1, { pgDumpPath: path.join(fakeBin, 'pg_dump') });
    try {
      const backups = createBackupService({ database: oldTools, dataDir: t.dataDir, settings: t.app.settings, now: () => new Date() });
      const failure = await backups.backupNow().then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(PgDumpVersionMismatchError);
      expect(failure).toMatchObject({ pgDumpMajor: 9, serverMajor });
      expect(String(failure)).toContain(`set PG_DUMP_PATH to pg_dump ${serverMajor} or newer`);
      expect(backupFailureMessage(failure)).toBe(
        `Não foi possível fazer o backup: o pg_dump do servidor (PostgreSQL 9) é mais antigo que o banco de dados (PostgreSQL ${serverMajor}). Peça à equipe técnica para instalar o pg_dump ${serverMajor} ou mais novo e indicá-lo em PG_DUMP_PATH.`,
      );
      expect(await backups.list()).toHaveLength(0);
    } finally {
      await oldTools.close();
    }
  });
});
