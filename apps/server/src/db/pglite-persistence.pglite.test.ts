import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPglite } from './client.ts';
import { users } from './schema.ts';

/**
 * Two starts of the embedded database from nothing, each with every migration in WebAssembly: 10 s on an idle machine,
 * past the default 60 s beside the rest of the suite on a slow one (ci35, 27/11).
 */
const TWO_COLD_STARTS_MS = 180_000;

describe('the embedded database', () => {
  it('keeps its data across a restart', { timeout: TWO_COLD_STARTS_MS }, async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-pglite-'));
    try {
      const first = await openPglite(dataDir);
      await first.migrate();
      await first.db.insert(users).values({ name: 'Persistente', email: 'persistente@teste.dev' });
      await first.close();

      const second = await openPglite(dataDir);
      await second.migrate();
      const rows = await second.db.select({ name: users.name }).from(users);
      await second.close();
      expect(rows).toEqual([{ name: 'Persistente' }]);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
