import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';

export type DemoAccount = keyof typeof DEMO_ACCOUNTS;

/** Fails on serious or critical accessibility violations of what the page shows now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = blocking.map((v) => `${v.id} (${v.impact}): ${v.help} → ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `accessibility violations on ${page.url()}`).toEqual([]);
}

/** The web's "who is signed in" request (apps/web/src/app/session.ts), or /api/me, which it replaced. */
function isSessionProbe(url: string): boolean {
  return /\/api\/(session|me)(\?|$)/.test(url);
}

type Fixtures = {
  /** Console errors the test expects (e.g. the not-found screen logs the path); anything else fails the test. */
  allowConsoleErrors: RegExp[];
  /** Signs in as a demo account through the API, sharing cookies with the page (tests of sign-in use the form). */
  signInAs: (account: DemoAccount) => Promise<void>;
  /** Opens a path, waits for it to settle, and checks it with axe-core. */
  visit: (path: string) => Promise<void>;
};

export const test = base.extend<Fixtures>({
  allowConsoleErrors: [[], { option: true }],

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
    // Every page a test ends on is checked for accessibility too.
    if (page.url().startsWith('http')) await expectAccessible(page);
    expect(errors, 'unexpected console errors').toEqual([]);
  },

  signInAs: async ({ page }, use) => {
    await use(async (account) => {
      const response = await page.request.post('/api/auth/sign-in/email', {
        data: { email: DEMO_ACCOUNTS[account], password: DEMO_PASSWORD },
      });
      expect(response.status()).toBe(200);
    });
  },

  visit: async ({ page }, use) => {
    await use(async (path) => {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await expectAccessible(page);
    });
  },
});

export { expect };
