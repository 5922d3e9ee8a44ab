import { and, count, desc, eq, ne, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { pushSubscriptions } from '../../db/schema.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
type Owner = { clinicId: string; userId: string };
export type NewPushSubscription = { endpoint: string; p256dh: string; auth: string; userAgent: string | null };

/**
 * Saves this browser's subscription for the patient. The endpoint is unique: the same browser subscribing again
 * updates its row (new keys, the same account). A row of another account moves to this one only when the keys are the
 * same too — the same browser subscription, now used by whoever signed in on it; the address alone (which could have
 * been copied) takes nothing from anyone: 'taken'. On the platform connection because that row may be another
 * clinic's; every statement names the caller.
 */
export async function savePushSubscription(db: Database, owner: Owner, input: NewPushSubscription, max: number, now: Date): Promise<PushSubscriptionRow | 'taken' | 'limit'> {
  return db.transaction(async (tx) => {
    const [others] = await tx
      .select({ value: count() })
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, owner.userId), ne(pushSubscriptions.endpoint, input.endpoint)));
    if ((others?.value ?? 0) >= max) return 'limit';
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ ...owner, ...input, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { ...owner, p256dh: input.p256dh, auth: input.auth, userAgent: input.userAgent, updatedAt: now },
        setWhere: or(
          and(eq(pushSubscriptions.userId, owner.userId), eq(pushSubscriptions.clinicId, owner.clinicId)),
          and(eq(pushSubscriptions.p256dh, input.p256dh), eq(pushSubscriptions.auth, input.auth)),
        ),
      })
      .returning();
    return row ?? 'taken';
  });
}

/** The patient's browsers, newest first (tenant scope: row-level security behind the filter). */
export function listPushSubscriptions(db: Database, owner: Owner): Promise<PushSubscriptionRow[]> {
  return withTenantScope(db, owner.clinicId, (tx) =>
    tx
      .select()
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, owner.userId), eq(pushSubscriptions.clinicId, owner.clinicId)))
      .orderBy(desc(pushSubscriptions.createdAt)),
  );
}

/** Removes one of the patient's own browsers; false for anyone else's id (answered as not found). */
export async function removePushSubscription(db: Database, owner: Owner, id: string): Promise<boolean> {
  const removed = await withTenantScope(db, owner.clinicId, (tx) =>
    tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, owner.userId), eq(pushSubscriptions.clinicId, owner.clinicId)))
      .returning({ id: pushSubscriptions.id }),
  );
  return removed.length > 0;
}

/** Every browser of an account: the notices' jobs, on the platform connection. */
export function pushSubscriptionsOfUser(db: Database, userId: string): Promise<PushSubscriptionRow[]> {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}

export async function findPushSubscription(db: Database, id: string): Promise<PushSubscriptionRow | null> {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).limit(1);
  return row ?? null;
}

export async function markPushDelivered(db: Database, id: string, now: Date): Promise<void> {
  await db.update(pushSubscriptions).set({ lastSuccessAt: now, updatedAt: now }).where(eq(pushSubscriptions.id, id));
}

/** A subscription the push service no longer knows (404, 410): nothing will ever reach it again. */
export async function prunePushSubscription(db: Database, id: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}
