import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { CAPTCHA_HEADER, captchaChallengeSchema } from '@carteirinha/shared/contracts/captcha';

/**
 * The captcha stays on in the browser suite (ADR 029; global-setup.ts makes its work small). The forms solve it in
 * the page, as a person's browser does; a sign-up a test makes through the API solves it here, as the widget would,
 * and sends it in the header the server reads.
 */
async function headersFor(challengeBody: unknown): Promise<Record<string, string>> {
  const challenge = captchaChallengeSchema.parse(challengeBody);
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the captcha challenge was not solved');
  return { [CAPTCHA_HEADER]: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64') };
}

/** A solved captcha for one submission through a request context (the platform's host). */
export async function captchaHeaders(api: APIRequestContext): Promise<Record<string, string>> {
  const answer = await api.get('/api/captcha/challenge');
  expect(answer.status(), await answer.text()).toBe(200);
  return headersFor(await answer.json());
}

/** A solved captcha for one submission the page sends itself (a clinic's host, which Node's client cannot reach). */
export async function captchaHeadersInPage(page: Page): Promise<Record<string, string>> {
  const challenge = await page.evaluate(async () => {
    const response = await fetch('/api/captcha/challenge');
    if (!response.ok) throw new Error(`GET /api/captcha/challenge answered ${response.status}`);
    return (await response.json()) as unknown;
  });
  return headersFor(challenge);
}
