import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { readOfflineCard } from '../../cards/lib/offline-card-store';
import { installPushHandlers } from '../../push/sw-push';

/**
 * The app's service worker (issue 29, ADR 031). It precaches the app shell — the SPA's page and its hashed scripts,
 * styles and fonts — so the patient portal opens with no network, and Meu Cartão shows the card the device keeps
 * (IndexedDB). It caches **no API answer and no page of anyone's data**: the one API path it answers is the session
 * probe, and only when the network failed, from the record of the account enrolled on this device (kept per user by
 * the page, wiped at sign-out) — so what one account saw is never served to another.
 */
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install takes the open pages at once (it only adds an offline fallback); later versions wait for 'Atualizar'.
clientsClaim();

/** A navigation waits this long for the server before the app shell is served from the cache (a weak signal). */
const NAVIGATION_TIMEOUT_MS = 4_000;

async function fetchWithin(request: Request, ms: number): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await fetch(request, { signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * SPA pages come from the server while it answers (it names each route's chunks as preloads, and knows the host's
 * state); with no answer, the precached shell draws the page. "/" is the server's landing (ADR 019) and /api is data:
 * neither is handled here.
 */
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetchWithin(request, NAVIGATION_TIMEOUT_MS);
      } catch {
        return (await matchPrecache('index.html')) ?? Response.error();
      }
    },
    { denylist: [/^\/api(\/|$)/, /^\/$/] },
  ),
);

/**
 * GET /api/session with no network: the account whose card this device keeps is still the one signed in here, so the
 * patient portal opens as them and Meu Cartão shows the card from the device. Online, the server answers as always.
 */
registerRoute(
  ({ url, request }) => url.pathname === '/api/session' && request.method === 'GET',
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch {
      const record = await readOfflineCard().catch(() => null);
      return record ? Response.json(record.me, { headers: { 'cache-control': 'no-store' } }) : Response.error();
    }
  },
);

/** The page's 'Atualizar' (update prompt): the waiting version takes over, and the page reloads on controllerchange. */
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && 'type' in data && data.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Web Push (issue 29, ADR 032): a push shows the clinic's notification, a click opens the clinic's page.
installPushHandlers(self);
