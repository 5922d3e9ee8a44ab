import { messages } from '@carteirinha/shared/messages';
import { revokeCardDevice } from '@/features/cards/api/card-devices';
import { readOfflineCard, wipeOfflineCardData } from '@/features/cards/lib/offline-card-store';
import { forgetThisBrowser } from '@/features/push/lib/forget-this-browser';
import { authClient } from '@/lib/auth-client';

/**
 * The offline card leaves with the account (issue 29): the server forgets this device (its codes stop validating),
 * then the device key, the cached card and every cache of the account are wiped from the browser. Removing the device
 * is best effort (offline, or a session already gone); the wipe always happens.
 */
async function forgetOfflineCard(): Promise<void> {
  const record = await readOfflineCard().catch(() => null);
  if (record) await revokeCardDevice(record.deviceId).catch(() => null);
  await wipeOfflineCardData();
}

/**
 * What 'Sair' does, loaded when it is pressed: every portal page has the button, few visits use it. The offline card
 * and this browser's notifications (issue 29) end with the session, then the session itself.
 */
export async function signOutOfEverything(): Promise<void> {
  await forgetThisBrowser();
  await forgetOfflineCard();
  const { error } = await authClient.signOut();
  if (error) throw new Error(error.message ?? messages.errors.INTERNAL);
}
