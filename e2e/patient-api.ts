import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { patientCardListSchema, type PatientCard } from '@carteirinha/shared/contracts/cards';
import { subscriptionPlanListSchema } from '@carteirinha/shared/contracts/subscription-plans';
import { contractTermsSchema, createSubscriptionResponseSchema } from '@carteirinha/shared/contracts/subscriptions';
import { TEST_PASSWORD, clinicOrigin, uniqueEmail, validCpf } from './tenancy';
import { captchaHeadersInPage } from './captcha';

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

const anything = (body: unknown) => body;

export type PaidPatient = { fullName: string; email: string; suffix: string; paidCents: number; card: PatientCard };

/**
 * A new patient of Clínica Demo, signed up in `page` on the clinic's host, subscribed to `planName` by Pix and paid
 * (the embedded provider's simulation), with their card: the tests that must not touch the demo patient start here.
 * `demo` is the clinic's origin the page talks to (a stand-in in front of the server, in pwa.spec.ts).
 */
export async function paidPatientOnDemo(
  page: Page,
  baseURL: string | undefined,
  namePrefix: string,
  planName = 'Plano Individual',
  demo = clinicOrigin(baseURL, 'demo'),
): Promise<PaidPatient> {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const fullName = `${namePrefix} ${suffix}`;
  const email = uniqueEmail();
  await page.goto(`${demo}/auth`);
  await callFromPage(page, '/api/auth/sign-up/email', anything, { method: 'POST', headers: await captchaHeadersInPage(page), body: { name: fullName, email, password: TEST_PASSWORD } });
  const plans = await callFromPage(page, '/api/patient/subscription-plans', (body) => subscriptionPlanListSchema.parse(body));
  const plan = plans.items.find((item) => item.name === planName);
  if (!plan) throw new Error(`no ${planName} on sale at Clínica Demo`);
  const terms = await callFromPage(page, '/api/patient/terms', (body) => contractTermsSchema.parse(body));
  const created = await callFromPage(
    page,
    '/api/patient/subscriptions',
    (body) => createSubscriptionResponseSchema.parse(body),
    {
      method: 'POST',
      headers: { 'idempotency-key': `e2e-${suffix}` },
      body: { planId: plan.id, paymentMethod: 'pix', customerData: { name: fullName, email, cpfCnpj: validCpf() }, termsId: terms.id, acceptTerms: true },
    },
    201,
  );
  await callFromPage(page, `/api/patient/payments/${created.payment.id}/simulate`, anything, { method: 'POST', body: {} });
  const [card] = await cardsOnceIssued(page);
  if (!card) throw new Error('the new patient has no card');
  return { fullName, email, suffix, paidCents: created.payment.amountCents, card };
}

/**
 * The patient's cards once the paid subscription's are issued: a job issues them right after the payment is applied
 * (ADR 013), so the first read after 'pago' may come a moment before them, as 'Meu Cartão' does.
 */
export async function cardsOnceIssued(page: Page, count = 1): Promise<PatientCard[]> {
  let cards: PatientCard[] = [];
  await expect
    .poll(async () => {
      cards = await callFromPage(page, '/api/patient/cards', (body) => patientCardListSchema.parse(body).items);
      return cards.length;
    })
    .toBeGreaterThanOrEqual(count);
  return cards;
}
