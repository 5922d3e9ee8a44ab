import { messages } from '@carteirinha/shared/messages';

const m = messages.push;

/** What this browser can do: receive push; not at all; or (iPhone, iPad) only once the app is on the home screen. */
export type PushSupport = 'supported' | 'unsupported' | 'install-first';

/** A step of turning notifications on that the patient has to hear about, in pt-BR. */
export class PushSetupError extends Error {}

export function pushSupport(): PushSupport {
  if ('serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window) return 'supported';
  // Safari on iOS and iPadOS offers Web Push only to an app added to the home screen (16.4+).
  const appleMobile = /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1);
  return appleMobile ? 'install-first' : 'unsupported';
}

export function notificationPermission(): NotificationPermission {
  return 'Notification' in window ? Notification.permission : 'default';
}

/** The app's service worker once it is active; null when none is registered yet (nothing could receive a push). */
async function activeRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  if (!(await navigator.serviceWorker.getRegistration())) return null;
  return navigator.serviceWorker.ready;
}

/** How long turning notifications on waits for the app's service worker to be ready (it registers after the first paint). */
const READY_TIMEOUT_MS = 10_000;

/** The app's service worker, waited for a while: on a first visit it is still installing when the patient asks. */
async function readyRegistration(): Promise<ServiceWorkerRegistration | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** This browser's push subscription endpoint (null: none, or no service worker yet). */
export async function browserEndpoint(): Promise<string | null> {
  const registration = await activeRegistration();
  return (await registration?.pushManager.getSubscription())?.endpoint ?? null;
}

function bytesOfBase64url(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function sameKey(key: ArrayBuffer | null, expected: Uint8Array): boolean {
  if (!key || key.byteLength !== expected.byteLength) return false;
  const bytes = new Uint8Array(key);
  return bytes.every((byte, index) => byte === expected[index]);
}

/**
 * Asks the browser's permission and subscribes it at its push service with the platform's key
 * (`pushManager.subscribe({ userVisibleOnly: true, applicationServerKey })`): the subscription to post to the server.
 * One made earlier with another key cannot receive our messages and is replaced.
 */
export async function subscribeThisBrowser(publicKey: string): Promise<PushSubscriptionJSON> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') throw new PushSetupError(m.denied);
  if (permission !== 'granted') throw new PushSetupError(m.failed);
  const registration = await readyRegistration();
  if (!registration) throw new PushSetupError(m.failed);
  const applicationServerKey = bytesOfBase64url(publicKey);
  try {
    const existing = await registration.pushManager.getSubscription();
    if (existing && sameKey(existing.options.applicationServerKey, applicationServerKey)) return existing.toJSON();
    await existing?.unsubscribe();
    return (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey })).toJSON();
  } catch {
    throw new PushSetupError(m.failed);
  }
}

export async function unsubscribeThisBrowser(): Promise<void> {
  const registration = await activeRegistration();
  await (await registration?.pushManager.getSubscription())?.unsubscribe();
}
