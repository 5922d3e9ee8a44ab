import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { profiles } from '../../db/schema.ts';

/** The profile's CPF and phone (digits only), or null for an account that has none yet. */
export async function findProfile(db: Database, userId: string): Promise<{ cpf: string | null; phone: string | null } | null> {
  const [row] = await db.select({ cpf: profiles.cpf, phone: profiles.phone }).from(profiles).where(eq(profiles.id, userId)).limit(1);
  return row ?? null;
}

/** Fills the profile's CPF and phone where they are empty; a CPF already there is never replaced (read-only once set). */
export async function fillProfileGaps(db: Database, user: { userId: string; fullName: string }, values: { cpf: string | null; phone: string | null }): Promise<void> {
  await db
    .insert(profiles)
    .values({ id: user.userId, fullName: user.fullName, cpf: values.cpf, phone: values.phone })
    .onConflictDoUpdate({
      target: profiles.id,
      set: { cpf: sql`coalesce(${profiles.cpf}, excluded.cpf)`, phone: sql`coalesce(${profiles.phone}, excluded.phone)` },
    });
}
