import { messages } from '@carteirinha/shared/messages';
import { Workbox } from 'workbox-window';
import { toast } from '@/lib/toasts';

const SERVICE_WORKER_URL = '/service-worker.js';

/** A toast that stays until answered: 'Nova versão disponível', with 'Atualizar'. */
function promptUpdate(workbox: Workbox): void {
  toast.info(messages.pwa.updateAvailable, {
    description: messages.pwa.updateDescription,
    duration: Number.POSITIVE_INFINITY,
    action: {
      label: messages.pwa.updateAction,
      onClick: () => {
        // The new worker takes over; the page reloads once it controls it, so code and page match.
        workbox.addEventListener('controlling', () => window.location.reload());
        workbox.messageSkipWaiting();
      },
    },
  });
}

/**
 * Registers the service worker (issue 29, ADR 031) — after the first paint, outside any page's first load (the
 * JavaScript budgets). A new version that waits is offered with an update prompt; a first install takes over on the
 * next load. Where there are no service workers (an old browser, a blocked context), the app simply runs online.
 */
export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const workbox = new Workbox(SERVICE_WORKER_URL, { scope: '/' });
  workbox.addEventListener('waiting', () => promptUpdate(workbox));
  await workbox.register().catch(() => undefined);
}
