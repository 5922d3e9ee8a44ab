import { request as playwrightRequest, type Page } from '@playwright/test';
import { outboxEmailSchema, type OutboxEmail } from '@carteirinha/shared/contracts/outbox';
import { z } from 'zod';
import { demoAccountRequest, expect } from './fixtures';
import { captchaHeaders } from './captcha';

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

function cpfCheckDigit(digits: readonly number[]): number {
  // Weights from length+1 down to 2 (Receita Federal's CPF rule).
  const sum = digits.reduce((total, digit, index) => total + digit * (digits.length + 1 - index), 0);
  const remainder = (sum * 10) % 11;
  return remainder === 10 ? 0 : remainder;
}

/** A random CPF with valid check digits, masked as people type it. */
export function validCpf(): string {
  const base = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (base.every((digit) => digit === base[0])) base[0] = ((base[0] ?? 0) + 1) % 10;
  const first = cpfCheckDigit(base);
  const digits = [...base, first, cpfCheckDigit([...base, first])].join('');
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
}

/** `http://<slug>.localhost:<port>`: a clinic's own host (the e2e server runs with MAIN_DOMAIN=localhost). */
export function clinicOrigin(baseURL: string | undefined, slug: string): string {
  const base = new URL(baseURL ?? 'http://127.0.0.1:3210');
  return `${base.protocol}//${slug}.localhost:${base.port}`;
}

/**
 * The newest e-mail to an address with this subject, read from the development outbox as the demo admin. E-mails are
 * sent after the answer, so it is waited for.
 */
export async function latestEmailTo(baseURL: string | undefined, to: string, subject: string): Promise<OutboxEmail> {
  const admin = await demoAccountRequest('admin', baseURL);
  try {
    let found: OutboxEmail | undefined;
    await expect
      .poll(async () => {
        const response = await admin.get(`/api/admin/outbox?q=${encodeURIComponent(to)}`);
        const page = z.object({ items: z.array(outboxEmailSchema) }).parse(await response.json());
        found = page.items.find((email) => email.subject === subject);
        return found !== undefined;
      })
      .toBe(true);
    if (!found) throw new Error(`no e-mail "${subject}" to ${to}`);
    return found;
  } finally {
    await admin.dispose();
  }
}

/** The path and query of the first link in an e-mail (its origin is the account's home, PUBLIC_URL here). */
export function linkPathIn(email: OutboxEmail): string {
  const link = new URL(/https?:\/\/\S+/.exec(email.text)?.[0] ?? '');
  return `${link.pathname}${link.search}`;
}

/**
 * Opens the sign-up's verification link, as its owner would from the mailbox. Opening it signs nobody in (ADR 006),
 * so it is done from a context of its own and the page keeps its session.
 */
export async function confirmEmail(baseURL: string | undefined, email: string): Promise<void> {
  const mail = await latestEmailTo(baseURL, email, 'Confirme seu email');
  const visitor = await playwrightRequest.newContext({ baseURL });
  try {
    expect((await visitor.get(linkPathIn(mail), { maxRedirects: 0 })).status()).toBe(302);
  } finally {
    await visitor.dispose();
  }
}

const signedUpSchema = z.object({ user: z.object({ id: z.string() }) });

/**
 * Creates an account on the platform's host through the API, in a request context of its own (the page keeps its
 * session, or stays signed out); answers the account's id. Its e-mail is not confirmed.
 */
export async function signUpElsewhere(baseURL: string | undefined, email: string, fullName: string, password = TEST_PASSWORD): Promise<string> {
  const context = await playwrightRequest.newContext({ baseURL });
  try {
    const response = await context.post('/api/auth/sign-up/email', { headers: await captchaHeaders(context), data: { name: fullName, email, password } });
    expect(response.status()).toBe(200);
    return signedUpSchema.parse(await response.json()).user.id;
  } finally {
    await context.dispose();
  }
}

/**
 * An account that an admin gave a role and then deactivated ('Desativar' in /admin/usuarios), made through the API in
 * request contexts of their own, so the page under test stays signed out.
 */
export async function deactivatedAccount(baseURL: string | undefined, password: string): Promise<string> {
  const email = uniqueEmail();
  const userId = await signUpElsewhere(baseURL, email, 'Pessoa Desativada', password);
  // An owner who confirmed the address keeps the password when given a role (others are invited: ADR 006).
  await confirmEmail(baseURL, email);
  const admin = await demoAccountRequest('admin', baseURL);
  try {
    expect((await admin.post('/api/admin/user-roles', { data: { email, role: 'admin' } })).status()).toBe(201);
    expect((await admin.delete(`/api/admin/user-roles/${userId}`)).status()).toBe(204);
  } finally {
    await admin.dispose();
  }
  return email;
}

/**
 * Creates an account on the platform's host through the API; the page's cookies then hold its session. Its owner
 * confirms the e-mail unless asked not to (a clinic can only be created by a confirmed owner, ADR 006).
 */
export async function signUpOnPlatform(page: Page, fullName = 'Pessoa de Teste', options: { confirm?: boolean } = {}): Promise<string> {
  const email = uniqueEmail();
  const response = await page.request.post('/api/auth/sign-up/email', { headers: await captchaHeaders(page.request), data: { name: fullName, email, password: TEST_PASSWORD } });
  expect(response.status()).toBe(200);
  if (options.confirm !== false) await confirmEmail(new URL(response.url()).origin, email);
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
  // The pointer leaves the toasts: sonner expands its stack and holds it while hovered, and the click that made the
  // toast left the pointer near the corner where they appear. Held open, three toasts cover the rows' buttons at the
  // foot of a desktop table until the test times out (seen once in CI, in Equipe).
  await page.mouse.move(0, 0);
}

/**
 * Closes every toast on screen, so that the next toast assertion can only pass on a toast the next step shows. A toast
 * also closes by itself after sonner's 4 s — on a slow machine, while axe analyses the page, or between counting the
 * toasts and clicking one — so each click is a try, and what is asserted is that none is left.
 */
export async function dismissToasts(page: Page): Promise<void> {
  const toasts = page.locator('[data-sonner-toast]');
  await expect(async () => {
    const close = toasts.first().getByRole('button', { name: 'Close toast' });
    if ((await close.count()) > 0) await close.dispatchEvent('click', undefined, { timeout: 1_000 });
    await expect(toasts).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

/** The root's computed value of a CSS custom property. */
export function cssVariable(page: Page, name: string): Promise<string> {
  return page.evaluate((variable) => getComputedStyle(document.documentElement).getPropertyValue(variable).trim(), name);
}
