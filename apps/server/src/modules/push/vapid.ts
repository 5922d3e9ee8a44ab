import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Database } from '../../db/client.ts';
import { pushVapidKeys } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';

/** The platform's VAPID key pair (RFC 8292), base64url: the public key is the browsers' applicationServerKey. */
export type VapidKeys = { publicKey: string; privateKey: string };

export type VapidKeyStore = { get: () => Promise<VapidKeys> };

const ROW_ID = 1;

async function storedKeys(db: Database, box: SecretBox): Promise<VapidKeys | null> {
  const [row] = await db.select().from(pushVapidKeys).where(eq(pushVapidKeys.id, ROW_ID)).limit(1);
  return row ? { publicKey: row.publicKey, privateKey: box.open(row.privateKeySealed) } : null;
}

/**
 * The key pair, made on the first start and kept in the database (one row): every server process signs with the same
 * key, so a browser subscribed through one server receives what another sends, and a restart keeps every
 * subscription. Two processes starting together both insert; the row's primary key keeps the first, and both read it
 * back. Read once per process, then kept in memory (it never changes).
 */
export function createVapidKeyStore(db: Database, box: SecretBox): VapidKeyStore {
  let keys: Promise<VapidKeys> | null = null;
  const load = async (): Promise<VapidKeys> => {
    const existing = await storedKeys(db, box);
    if (existing) return existing;
    const made = webpush.generateVAPIDKeys();
    await db.insert(pushVapidKeys).values({ id: ROW_ID, publicKey: made.publicKey, privateKeySealed: box.seal(made.privateKey) }).onConflictDoNothing();
    const kept = await storedKeys(db, box);
    if (!kept) throw new Error('the VAPID keys were not stored');
    return kept;
  };
  return {
    get: () => {
      keys ??= load().catch((error: unknown) => {
        keys = null;
        throw error;
      });
      return keys;
    },
  };
}
