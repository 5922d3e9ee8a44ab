import { getPushState } from '../api/push-state';
import { turnPushOff } from '../api/toggle-push';
import { browserEndpoint, unsubscribeThisBrowser } from './browser-push';

/** The server's record of this browser, removed while the session still holds (nothing when it is not the caller's). */
async function removeOnServer(endpoint: string): Promise<void> {
  const device = (await getPushState()).devices.find((candidate) => candidate.endpoint === endpoint);
  if (device) await turnPushOff(device.id);
}

/**
 * Signing out stops this browser's notifications (issue 29): the next person to use it must not see the patient's
 * notices. Never in the way of signing out: whatever fails here, the browser's subscription at its push service goes,
 * and the server prunes its record at the push service's 410 and e-mails the notice instead.
 */
export async function forgetThisBrowser(): Promise<void> {
  const endpoint = await browserEndpoint().catch(() => null);
  if (!endpoint) return;
  await removeOnServer(endpoint).catch(() => undefined);
  await unsubscribeThisBrowser().catch(() => undefined);
}
