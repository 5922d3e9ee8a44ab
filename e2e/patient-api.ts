import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

/**
 * A call to the API from the page, on the clinic's host: browsers resolve `<slug>.localhost`, Node's request client
 * does not, and the session cookie the sign-up sets is then the page's own.
 */
export async function callFromPage<T>(
  page: Page,
  path: string,
  parse: (body: unknown) => T,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  status = 200,
): Promise<T> {
  const answer = await page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, {
        method: init.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { status: response.status, text: await response.text() };
    },
    { path, init },
  );
  expect(answer.status, answer.text).toBe(status);
  return parse(JSON.parse(answer.text));
}
