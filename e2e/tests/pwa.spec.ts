import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { validateCardResponseSchema } from '@carteirinha/shared/contracts/cards';
import { chromiumLaunchOptions } from '../chromium';
import { demoAccountRequest, expect, test } from '../fixtures';
import { startNetworkSwitch, type NetworkSwitch } from '../network-switch';
import { paidPatientOnDemo } from '../patient-api';
import { E2E_PORT } from '../ports';

// The installable app (issue 29). Service workers are blocked in the rest of the suite (playwright.config.ts); here
// they run, as on a patient's phone.
test.use({ serviceWorkers: 'allow' });

/** Waits until the service worker is installed (the app shell precached) and controls the page. */
async function serviceWorkerControls(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);
}

/** Enrols this browser for the offline card on Meu Cartão and answers the QR's text, a code this device computed. */
async function enrolThisDevice(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Usar sem internet neste aparelho' }).click();
  await expect(page.getByText('Pronto: este aparelho mostra o cartão mesmo sem internet.')).toBeVisible();
  const token = page.getByTestId('card-token-text');
  await expect(token).toHaveText(/^D1\.\d{16}\.[1-3]\.\d{8}$/);
  return (await token.textContent()) ?? '';
}

async function validateAtTheDesk(baseURL: string | undefined, cardToken: string) {
  const desk = await demoAccountRequest('clinicStaff', baseURL);
  try {
    const response = await desk.post('/api/clinic/card-validations', { data: { cardToken, source: 'qrcode' } });
    expect(response.status()).toBe(200);
    return validateCardResponseSchema.parse(await response.json());
  } finally {
    await desk.dispose();
  }
}

test.describe('the offline card', () => {
  let wire: NetworkSwitch;
  test.beforeEach(async () => {
    wire = await startNetworkSwitch(E2E_PORT);
  });
  test.afterEach(async () => {
    await wire.close();
  });
  // While the network is away Chromium reports each refused request (the portal's data, the tenant) as a console error.
  test.use({ allowConsoleErrors: [/net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|CONNECTION_CLOSED|FAILED)/] });

  test('Meu Cartão opens and rotates its QR with the server away, and the code validates once it is back', async ({ page, baseURL }) => {
    const origin = `http://demo.localhost:${wire.port}`;
    const patient = await paidPatientOnDemo(page, baseURL, 'Paciente Offline', 'Plano Individual', origin);
    await page.goto(`${origin}/paciente/cartao`);
    await serviceWorkerControls(page);
    await enrolThisDevice(page);

    wire.goOffline();
    // The page's clock is ours from the reload on (time still runs), so the step can be skipped below.
    await page.clock.install();
    await page.reload();
    await expect(page.getByTestId('offline-banner')).toContainText('Você está sem internet. O cartão foi confirmado como válido em');
    await expect(page.getByTestId('patient-card')).toContainText(patient.fullName);
    await expect(page.getByTestId('card-qr').locator('svg')).toBeVisible();
    const shown = page.getByTestId('card-token-text');
    await expect(shown).toHaveText(new RegExp(`^D1\\.${patient.card.number}\\.[1-3]\\.\\d{8}$`));
    const offlineToken = (await shown.textContent()) ?? '';

    // The code keeps changing with no network: it is computed on the device, step by step.
    await page.clock.fastForward('00:35');
    await expect(shown).not.toHaveText(offlineToken);
    await expect(shown).toHaveText(/^D1\./);

    // Nothing reached the server while it was away, though the browser did try (the reload, the portal's data).
    expect(wire.relayedWhileOffline).toEqual([]);
    expect(wire.refusedWhileOffline()).toBeGreaterThan(0);

    wire.goOnline();
    const answer = await validateAtTheDesk(baseURL, offlineToken);
    expect(answer).toMatchObject({ valid: true, outcome: 'valid', card: { number: patient.card.number }, person: { name: patient.fullName } });
  });

  test('signing out leaves nothing of the card on the device, and its codes stop validating', async ({ page, baseURL }) => {
    const origin = `http://demo.localhost:${wire.port}`;
    const patient = await paidPatientOnDemo(page, baseURL, 'Paciente Sai', 'Plano Individual', origin);
    await page.goto(`${origin}/paciente/cartao`);
    await serviceWorkerControls(page);
    const token = await enrolThisDevice(page);
    expect(await storedOnDevice(page)).toContain(patient.card.number);

    await page.getByRole('button', { name: 'Sair' }).click();
    await expect(page).toHaveURL(/\/auth/);

    const left = await storedOnDevice(page);
    expect(left).not.toContain(patient.card.number);
    expect(left).not.toContain(patient.email);
    expect(left).not.toContain('CryptoKey');
    // The server forgot the device: a copy of its secret is worth nothing.
    expect(await validateAtTheDesk(baseURL, token)).toMatchObject({ valid: false, outcome: 'not_found' });
  });
});

/**
 * Everything the page's origin keeps: every IndexedDB record (a CryptoKey named as such), every Cache Storage entry
 * that is not the app's own code, and localStorage — as one text to search.
 */
async function storedOnDevice(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const found: string[] = [];
    const describe = (value: unknown): string =>
      JSON.stringify(value, (_key, inner: unknown) => (inner instanceof CryptoKey ? 'CryptoKey' : inner));
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const name = info.name;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const storeName of Array.from(db.objectStoreNames)) {
        const values = await new Promise<unknown[]>((resolve, reject) => {
          const all = db.transaction(storeName).objectStore(storeName).getAll();
          all.onsuccess = () => resolve(all.result);
          all.onerror = () => reject(all.error);
        });
        found.push(...values.map(describe));
      }
      db.close();
    }
    for (const cacheName of await caches.keys()) {
      const cache = await caches.open(cacheName);
      for (const request of await cache.keys()) {
        if (cacheName.startsWith('workbox-precache')) continue;
        const response = await cache.match(request);
        found.push(request.url, (await response?.text()) ?? '');
      }
    }
    for (let index = 0; index < localStorage.length; index++) {
      const key = localStorage.key(index) ?? '';
      found.push(key, localStorage.getItem(key) ?? '');
    }
    return found.join('\n');
  });
}

test('on a clinic host the app is installable: no installability errors, the clinic manifest, a controlling worker', async ({ baseURL }) => {
  // A profile on disk: Chromium does not install apps from an incognito context, which a test's context is.
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-pwa-'));
  const context = await chromium.launchPersistentContext(profile, { ...chromiumLaunchOptions(), serviceWorkers: 'allow', locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await paidPatientOnDemo(page, baseURL, 'Paciente Instala');
    await page.goto(`${new URL(page.url()).origin}/paciente/app`);
    await expect(page.getByRole('heading', { name: 'Instalar o app', level: 1 })).toBeVisible();
    await serviceWorkerControls(page);

    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const { url, data } = await cdp.send('Page.getAppManifest');
    expect(url).toMatch(/\/api\/app\/manifest\.webmanifest$/);
    const manifest: unknown = JSON.parse(data ?? '{}');
    expect(manifest).toMatchObject({
      name: 'Clínica Demo',
      display: 'standalone',
      start_url: '/paciente',
      icons: expect.arrayContaining([expect.objectContaining({ sizes: '192x192', type: 'image/png' }), expect.objectContaining({ sizes: '512x512', type: 'image/png' })]),
    });
    // The icons are real PNGs of those sizes, drawn for the clinic.
    for (const size of [192, 512]) {
      const dimensions = await page.evaluate(async (px) => {
        const bitmap = await createImageBitmap(await (await fetch(`/api/app/icons/${px}.png`)).blob());
        return [bitmap.width, bitmap.height];
      }, size);
      expect(dimensions).toEqual([size, size]);
    }
  } finally {
    await context.close();
    await fs.rm(profile, { recursive: true, force: true });
  }
});
