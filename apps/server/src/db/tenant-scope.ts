import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/** The database role tenant-scoped work runs as (migration 0001): row-level security confines it to one clinic. */
export const TENANT_ROLE = 'carteirinha_tenant';

/**
 * Runs `work` in a transaction that can only see and write rows of one clinic: `app.clinic_id` is set for this
 * transaction alone (`set_config(…, true)`, so a pooled connection never carries it to the next request) and the
 * role switches to one that row-level security applies to. Repositories still filter by clinic; this is the wall
 * behind them, should a query ever forget.
 */
export async function withTenantScope<T>(db: Database, clinicId: string, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.clinic_id', ${clinicId}, true)`);
    await tx.execute(sql.raw(`set local role ${TENANT_ROLE}`));
    return work(tx);
  });
}
