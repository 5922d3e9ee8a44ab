import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import type { MeResponse } from '@carteirinha/shared/contracts/me';
import { clear, createStore, del, get, set } from 'idb-keyval';

/**
 * What this device keeps to show the card without a network (issue 29): one record, of the one account signed in
 * here. The device key is a non-extractable Web Crypto key — IndexedDB stores the CryptoKey object itself, and no
 * script can read its bytes back. Sign-out, a revocation seen online and another account signing in wipe it all.
 */
export type OfflineCardRecord = {
  userId: string;
  /** Who was signed in, so the portal opens offline as that patient (never as anyone else). */
  me: MeResponse;
  deviceId: string;
  slot: number;
  key: CryptoKey;
  confirmedAt: string;
  offlineCodesUntil: string;
  cards: PatientCard[];
};

const DATABASE = 'carteirinha-offline';
const STORE = 'card';
const CURRENT = 'current';

let store: ReturnType<typeof createStore> | null = null;
function offlineStore() {
  store ??= createStore(DATABASE, STORE);
  return store;
}

function isRecord(value: unknown): value is OfflineCardRecord {
  return typeof value === 'object' && value !== null && 'userId' in value && 'key' in value && value.key instanceof CryptoKey;
}

/** The record of the account enrolled on this device, if any. */
export async function readOfflineCard(): Promise<OfflineCardRecord | null> {
  if (typeof indexedDB === 'undefined') return null;
  const value: unknown = await get(CURRENT, offlineStore());
  return isRecord(value) ? value : null;
}

export async function writeOfflineCard(record: OfflineCardRecord): Promise<void> {
  await set(CURRENT, record, offlineStore());
}

/** The cards as the server last confirmed them, and until when the device may show codes. */
export async function updateOfflineStanding(standing: Pick<OfflineCardRecord, 'confirmedAt' | 'offlineCodesUntil' | 'cards'>): Promise<OfflineCardRecord | null> {
  const record = await readOfflineCard();
  if (!record) return null;
  const updated = { ...record, ...standing };
  await writeOfflineCard(updated);
  return updated;
}

/**
 * Removes everything of the account from this device: the device key and the cached card (IndexedDB, then the
 * database itself), and any Cache Storage entry that is not the app's own code (the service worker caches no API
 * answer; this also clears anything an older version might have left).
 */
export async function wipeOfflineCardData(): Promise<void> {
  if (typeof indexedDB !== 'undefined') {
    await clear(offlineStore()).catch(() => undefined);
    await del(CURRENT, offlineStore()).catch(() => undefined);
  }
  if (typeof caches !== 'undefined') {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => !name.startsWith('workbox-precache')).map((name) => caches.delete(name)));
  }
}
