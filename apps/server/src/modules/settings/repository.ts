import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { platformSettings } from '../../db/schema.ts';

export type SettingsRow = typeof platformSettings.$inferSelect;
type SettingsChanges = Partial<Omit<typeof platformSettings.$inferInsert, 'id'>>;

/** The platform has one settings row (a CHECK constraint holds it to id 1). */
const SINGLETON_ID = 1;
const isTheRow = eq(platformSettings.id, SINGLETON_ID);

/** Makes the settings row on first use; the column defaults are the specification's defaults. */
export async function ensureSettingsRow(db: Database, overrides: SettingsChanges = {}): Promise<void> {
  await db
    .insert(platformSettings)
    .values({ id: SINGLETON_ID, ...overrides })
    .onConflictDoNothing({ target: platformSettings.id });
}

export async function findSettingsRow(db: Database): Promise<SettingsRow | null> {
  const [row] = await db.select().from(platformSettings).where(isTheRow);
  return row ?? null;
}

/** An admin's save ('Salvar Alterações'): `updated_at` moves, which tells other screens to start again from it. */
export async function updateSettingsRow(db: Database, changes: SettingsChanges): Promise<SettingsRow | null> {
  const [row] = await db.update(platformSettings).set(changes).where(isTheRow).returning();
  return row ?? null;
}
