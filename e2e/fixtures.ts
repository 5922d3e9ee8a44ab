import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, request, type APIRequestContext, type BrowserContext, type Locator, type Page, type Request } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { claimSession, staffSessionsStillValid, type DemoAccount } from './session-pool';

export type { DemoAccount };

/**
 * Waits for the transitions and fades under way (a button taking the clinic's colours once the session is known, a
 * toast fading in) to end: axe measures the colours a person sees once the page is still. Endless animations (a
 * spinner) are left running.
 */
async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const ending = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/**
 * Fails on serious or critical accessibility violations of what the page shows now. The states axe checks are listed
 * in tests/accessibility.spec.ts, the one spec that calls it.
 */
/**
 * A record shown as a card of a list (a DataTable on a phone): each label is there as a term, and its value (when
 * given) somewhere on the card.
 */
export async function expectCardShows(card: Locator, labelled: ReadonlyArray<readonly [label: string, value: string]>): Promise<void> {
  for (const [label, value] of labelled) {
    await expect(card.getByRole('term').and(card.getByText(label, { exact: true }))).toBeVisible();
    if (value) await expect(card).toContainText(value);
  }
}

export async function expectAccessible(page: Page): Promise<void> {
  await animationsSettled(page);
  // Legacy mode runs axe.run in the page itself: the default finishes every analysis in a new blank page, about
  // 0.9 s against 0.2 s, for cross-origin frames, which the app has none of (same violations, checked on six pages with
  // planted faults). Only violations are collected in full: they are all that is asserted.
  const results = await new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] }).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = blocking.map((v) => `${v.id} (${v.impact}): ${v.help} → ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `accessibility violations on ${page.url()}`).toEqual([]);
}

/** The web's "who is signed in" request (apps/web/src/app/session.ts), or /api/me, which it replaced. */
function isSessionProbe(url: string): boolean {
  return /\/api\/(session|me)(\?|$)/.test(url);
}

/** Accounts whose sessions end after Configurações' inactivity timeout (apps/server/src/modules/auth/session-limits.ts). */
const STAFF_ACCOUNTS: ReadonlySet<DemoAccount> = new Set(['admin', 'clinicAdmin', 'clinicStaff']);

/** Longer than any test runs: a staff session handed to a test must outlive it. */
const LONGEST_TEST_MS = 3 * 60_000;

type SessionCookie = { name: string; value: string; domain: string; path: string; expires: number; httpOnly: boolean; secure: boolean; sameSite: 'Strict' | 'Lax' | 'None' };

function originOf(url: string | undefined): string {
  if (!url) throw new Error('no baseURL: playwright.config.ts sets it');
  return new URL(url).origin;
}

/**
 * A session of `account` made before the run (e2e/session-pool.ts), as a cookie of `url`'s host; null in a run so
 * long that the staff's pooled sessions are past the inactivity timeout, when signing in is the only way left.
 */
function pooledSession(account: DemoAccount, url: string): SessionCookie | null {
  if (STAFF_ACCOUNTS.has(account) && !staffSessionsStillValid(Date.now(), LONGEST_TEST_MS)) return null;
  const session = claimSession(account);
  return { ...session, domain: new URL(url).hostname, path: '/', expires: session.expires ?? -1 };
}

/**
 * Signs in on the host at `origin`, which need not be the context's base URL (a clinic's own host, or the platform by
 * name for WebAuthn): the session cookie belongs to the host that answered.
 */
async function signInThroughApi(api: APIRequestContext, account: DemoAccount, origin: string): Promise<void> {
  const response = await api.post(`${origin}/api/auth/sign-in/email`, { data: { email: DEMO_ACCOUNTS[account], password: DEMO_PASSWORD } });
  expect(response.status()).toBe(200);
}

/**
 * Signs a browser context in as a demo account on the site at `url` (the platform's, or a clinic's own host), with a
 * session made directly in the database; the context's pages and `page.request` share it.
 */
export async function addDemoSession(context: BrowserContext, account: DemoAccount, url: string | undefined): Promise<void> {
  const origin = originOf(url);
  const session = pooledSession(account, origin);
  if (session) await context.addCookies([session]);
  else await signInThroughApi(context.request, account, origin);
}

/**
 * A request context of its own signed in as a demo account (reading the outbox as the admin, say), so the page keeps
 * its own session. Dispose of it when done.
 */
export async function demoAccountRequest(account: DemoAccount, baseURL: string | undefined): Promise<APIRequestContext> {
  const origin = originOf(baseURL);
  const session = pooledSession(account, origin);
  if (session) return request.newContext({ baseURL: origin, storageState: { cookies: [session], origins: [] } });
  const api = await request.newContext({ baseURL: origin });
  await signInThroughApi(api, account, origin);
  return api;
}

/** What the app shows while it loads: a spinner, or a region marked busy (a table, a figure, a search). */
const LOADING = '[data-slot="spinner"], [aria-busy="true"]';

/**
 * How long the page must go without a request in flight before it counts as settled. Playwright's 'networkidle' waits
 * 500 ms after the last request of every page; with the loading markers also checked, a short pause is enough to
 * span the step from one request to the next that its answer starts (a route's chunk, then its data).
 */
const QUIET_MS = 150;

/** Counts a page's requests in flight, from now on. */
/**
 * The captcha's Web Worker (ALTCHA, ADR 029) works in the background while a form is filled, and is ended once it has
 * solved: its script's request may then never report an end. A page does not wait for it to be settled.
 */
function isBackgroundWork(request: Request): boolean {
  return /\/assets\/pbkdf2-[\w-]+\.js$/.test(new URL(request.url()).pathname);
}

function trackRequests(page: Page): { quietForMs: () => number; stop: () => void } {
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  const started = (request: Request) => {
    if (isBackgroundWork(request)) return;
    inFlight.add(request);
    lastChange = Date.now();
  };
  const ended = (request: Request) => {
    inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    quietForMs: () => (inFlight.size > 0 ? 0 : Date.now() - lastChange),
    stop: () => {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}

type Fixtures = {
  /** Console errors the test expects (e.g. the not-found screen logs the path); anything else fails the test. */
  allowConsoleErrors: RegExp[];
  /**
   * Signs the page in as a demo account with a session made directly in the database (shared with page.request), as
   * CONVENTIONS.md asks; tests of signing in use the form or the API instead.
   */
  signInAs: (account: DemoAccount) => Promise<void>;
  /** Opens a path and waits for it to settle: no request in flight, nothing loading on screen. */
  visit: (path: string) => Promise<void>;
};

export const test = base.extend<Fixtures>({
  allowConsoleErrors: [[], { option: true }],

  // The context is reused from test to test (reuseContext in playwright.config.ts), and Playwright's reset leaves
  // what a test changes at run time through these calls: put back as a fresh context has them.
  context: async ({ context }, use) => {
    let closed = false;
    context.once('close', () => {
      closed = true;
    });
    await use(context);
    if (closed) return;
    await context.clearPermissions();
    await context.setGeolocation(null);
    await context.setOffline(false);
    await context.setExtraHTTPHeaders({});
  },

  page: async ({ page, allowConsoleErrors }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      // Chromium reports every failed response as a console error of its own. Those a test provokes on purpose (a wrong
      // password's 401, a refused form's 400) are expected; the session probe, asked on every page load, must never
      // fail for a visitor who is simply signed out (issue 13), so its failures count.
      if (/Failed to load resource/.test(text) && !isSessionProbe(message.location().url)) return;
      if (!allowConsoleErrors.some((pattern) => pattern.test(text))) errors.push(text);
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await use(page);
    expect(errors, 'unexpected console errors').toEqual([]);
  },

  signInAs: async ({ page, baseURL }, use) => {
    await use((account) => addDemoSession(page.context(), account, baseURL));
  },

  visit: async ({ page }, use) => {
    await use(async (path) => {
      const requests = trackRequests(page);
      try {
        await page.goto(path);
        await expect(async () => {
          expect(requests.quietForMs(), 'time without a request in flight').toBeGreaterThanOrEqual(QUIET_MS);
          expect(await page.locator(LOADING).count(), 'spinners and busy regions on screen').toBe(0);
        }).toPass({ intervals: [50], timeout: 30_000 });
      } finally {
        requests.stop();
      }
    });
  },
});

export { expect };
