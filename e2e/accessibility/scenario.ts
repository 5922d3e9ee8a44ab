import type { Browser, BrowserContext, Locator, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { expect, type DemoAccount } from '../fixtures';

/**
 * The pieces of tests/accessibility.spec.ts. A scenario brings pages into the states a person meets there and has
 * axe-core check each one with `check(state)`, in the order it lists them. Its states name their page by the path of
 * the web router: the spec's route table is these states grouped by page, and it fails when a page of the router has
 * none.
 */

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Runs axe on `on` (the scenario's page unless said), as the state named, which must be the scenario's next one. */
export type CheckState = (state: string, on?: Page) => Promise<void>;

export type ScenarioArgs = {
  page: Page;
  context: BrowserContext;
  browser: Browser;
  playwright: PlaywrightWorkerArgs['playwright'];
  /** The platform's origin (playwright.config.ts baseURL). */
  baseURL: string;
  signInAs: (account: DemoAccount) => Promise<void>;
  check: CheckState;
};

export type Scenario = {
  /** The test's title: what the scenario walks through. */
  name: string;
  /**
   * The states the scenario checks, in the order it reaches them, each as '<router path> — <what is on screen>' (with
   * the device when it matters): the route table of the spec is made of these.
   */
  states: readonly string[];
  /** Console errors that the states provoke on purpose (a 404 logs its path; a refused session probe is logged). */
  allowConsoleErrors?: RegExp[];
  /**
   * Changes what other tests read of the whole platform (Configurações, Clínica Demo's public plans): runs in the
   * 'platform-wide' project, after every other test, as the .serial.spec.ts files do.
   */
  platformWide?: boolean;
  run: (args: ScenarioArgs) => Promise<void>;
};

/** Waits for the layout of a phone-wide window: the portal's sidebar turns into a drawer behind a menu button. */
export async function toPhone(page: Page): Promise<void> {
  await page.setViewportSize(PHONE);
  await expect.poll(() => page.evaluate(() => window.matchMedia('(max-width: 767px)').matches)).toBe(true);
}

export function toasts(page: Page): Locator {
  return page.locator('[data-sonner-toast]');
}

export async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await expect(toasts(page).filter({ hasText: text }).first()).toBeVisible();
}

/**
 * Holds the requests to `url` until the function it answers is called: the page stays in its loading state meanwhile.
 * Then the held requests, and any later one, go on (to a route added after this one, else to the server).
 */
export async function holdResponses(page: Page, url: string | RegExp): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.fallback();
  });
  return release;
}

/** What the server answers when it refuses (a 4xx the client does not retry) or fails (a 5xx it retries once). */
export const REFUSED = { status: 403, contentType: 'application/json', body: JSON.stringify({ error: { code: 'FORBIDDEN', message: 'Você não tem permissão para fazer isso' } }) };
export const CRASHED = { status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Erro interno. Tente novamente em instantes.' } }) };
