import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Every account the tests create has this password. */
export const TEST_PASSWORD = 'senha-e2e-1';

export function uniqueEmail(): string {
  return `e2e.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@teste.dev`;
}

/** A slug nobody else in this run has: letters and digits, like a clinic would pick. */
export function uniqueSlug(prefix = 'clinica'): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

function cnpjCheckDigit(digits: readonly number[]): number {
  // Weights 2..9 from the right, repeating (Receita Federal's CNPJ check digit rule).
  const sum = digits.reduceRight((total, digit, index) => total + digit * (((digits.length - 1 - index) % 8) + 2), 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** A random numeric CNPJ (head office, "0001") with valid check digits, as 14 digits. */
export function validCnpj(): string {
  const root = Array.from({ length: 8 }, () => Math.floor(Math.random() * 10));
  const base = [...root, 0, 0, 0, 1];
  const first = cnpjCheckDigit(base);
  const second = cnpjCheckDigit([...base, first]);
  return [...base, first, second].join('');
}

/** `http://<slug>.localhost:<port>`: a clinic's own host (the e2e server runs with MAIN_DOMAIN=localhost). */
export function clinicOrigin(baseURL: string | undefined, slug: string): string {
  const base = new URL(baseURL ?? 'http://127.0.0.1:3210');
  return `${base.protocol}//${slug}.localhost:${base.port}`;
}

/** Creates an account on the platform's host through the API; the page's cookies then hold its session. */
export async function signUpOnPlatform(page: Page, fullName = 'Pessoa de Teste'): Promise<string> {
  const email = uniqueEmail();
  const response = await page.request.post('/api/auth/sign-up/email', { data: { name: fullName, email, password: TEST_PASSWORD } });
  expect(response.status()).toBe(200);
  return email;
}

export type TrialClinic = { name: string; slug: string; email: string };

/** A new account that went through onboarding by the API: signed in on the platform's host as its clinic_admin. */
export async function createTrialClinic(page: Page): Promise<TrialClinic> {
  const email = await signUpOnPlatform(page, 'Dona da Clínica');
  const slug = uniqueSlug();
  const name = `Clínica ${slug}`;
  const response = await page.request.post('/api/onboarding/clinic', { data: { name, cnpj: validCnpj(), slug } });
  expect(response.status()).toBe(201);
  return { name, slug, email };
}

/** A toast with both texts (earlier toasts may still be on screen). */
export async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  let toast = page.locator('[data-sonner-toast]').filter({ hasText: title });
  if (description) toast = toast.filter({ hasText: description });
  await expect(toast.first()).toBeVisible();
}

/** The root's computed value of a CSS custom property. */
export function cssVariable(page: Page, name: string): Promise<string> {
  return page.evaluate((variable) => getComputedStyle(document.documentElement).getPropertyValue(variable).trim(), name);
}
