/// <reference lib="webworker" />
/**
 * The service worker's side of Web Push (issue 29): a push shows the notification the server sent (the clinic's name
 * as its title), and a click opens the clinic's page it names — focusing a window of the app already open on that
 * site rather than opening another. The service worker's entry calls `installPushHandlers(self)`.
 */
import type { PushMessage } from '@carteirinha/shared/contracts/push';

/** One field of the payload when it is text. */
function textOf(data: object, name: keyof PushMessage): string | undefined {
  const value: unknown = Reflect.get(data, name);
  return typeof value === 'string' ? value : undefined;
}

/**
 * The message of a push (the shape of `pushMessageSchema`), or null when it carries none we understand (nothing is
 * shown then). Checked by hand: the service worker starts on every push, and zod and the catalogue the schema brings
 * would be most of its code.
 */
function messageOf(event: PushEvent): PushMessage | null {
  let data: unknown;
  try {
    data = event.data?.json();
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const [title, body, url, tag, icon] = (['title', 'body', 'url', 'tag', 'icon'] as const).map((name) => textOf(data, name));
  if (title === undefined || body === undefined || url === undefined) return null;
  return { title, body, url, ...(tag ? { tag } : {}), ...(icon ? { icon } : {}) };
}

/** The page a notification opens: an http(s) address from its data, else the app's start. */
function targetOf(sw: ServiceWorkerGlobalScope, data: unknown): URL {
  const url = typeof data === 'object' && data !== null && 'url' in data && typeof data.url === 'string' ? data.url : sw.registration.scope;
  try {
    const target = new URL(url, sw.registration.scope);
    return target.protocol === 'https:' || target.protocol === 'http:' ? target : new URL(sw.registration.scope);
  } catch {
    return new URL(sw.registration.scope);
  }
}

async function openOrFocus(sw: ServiceWorkerGlobalScope, target: URL): Promise<void> {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === target.origin);
  if (open) {
    const focused = await open.focus();
    if (focused.url !== target.href) await focused.navigate(target.href).catch(() => null);
    return;
  }
  await sw.clients.openWindow(target.href);
}

export function installPushHandlers(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('push', (event) => {
    const message = messageOf(event);
    if (!message) return;
    const options: NotificationOptions = { body: message.body, data: { url: message.url }, ...(message.tag ? { tag: message.tag } : {}), ...(message.icon ? { icon: message.icon } : {}) };
    event.waitUntil(sw.registration.showNotification(message.title, options));
  });

  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    event.waitUntil(openOrFocus(sw, targetOf(sw, event.notification.data)));
  });
}
