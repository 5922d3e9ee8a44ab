import type { APIRequestContext, PlaywrightWorkerArgs } from '@playwright/test';
import { adminClinicSchema, clinicDetailSchema, type AdminClinic, type ClinicStatus } from '@carteirinha/shared/contracts/clinics';
import type { ClinicFormInput } from '@carteirinha/shared/contracts/admin-clinics';
import { platformPlanListSchema, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { onboardingClinicResponseSchema } from '@carteirinha/shared/contracts/tenant';
import { expect } from './fixtures';
import { captchaHeaders } from './captcha';
import { confirmEmail } from './tenancy';

/**
 * Test data for the admin portal. The suite runs on two workers against one database, so every record a test makes
 * has a name, CNPJ and sub-domain of its own, and the test removes it afterwards.
 */

/** A short token that no other test run shares: time plus randomness, lower-case letters and digits. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
}

/** The two check digits of a numeric CNPJ (Receita Federal's modulo-11 rule). */
function cnpjCheckDigit(digits: number[]): number {
  const weights = digits.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const sum = digits.reduce((total, digit, index) => total + digit * weights[index]!, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A valid, random CNPJ as 14 digits (branch 0001), different on every call. */
export function uniqueCnpj(): string {
  const base = Array.from({ length: 8 }, () => Math.floor(Math.random() * 10));
  // A root of one repeated digit is rejected by validators; nudge it.
  if (new Set(base).size === 1) base[0] = (base[0]! + 1) % 10;
  const digits = [...base, 0, 0, 0, 1];
  digits.push(cnpjCheckDigit(digits));
  digits.push(cnpjCheckDigit(digits));
  return digits.join('');
}

/** Creates a clinic through the admin API (the page's cookies must belong to an admin). */
export async function createClinicViaApi(request: APIRequestContext, overrides: Partial<ClinicFormInput> = {}): Promise<AdminClinic> {
  const suffix = uniqueSuffix();
  const response = await request.post('/api/admin/clinics', {
    data: { name: `Clínica API ${suffix}`, cnpj: uniqueCnpj(), slug: `api-${suffix}`, planId: null, status: 'active', ...overrides },
  });
  expect(response.status(), await response.text()).toBe(201);
  return adminClinicSchema.parse(await response.json());
}

/** Removes a clinic the test made; a clinic already deleted by the test itself is fine. */
export async function deleteClinicViaApi(request: APIRequestContext, id: string): Promise<void> {
  const response = await request.delete(`/api/admin/clinics/${id}`);
  expect([204, 404]).toContain(response.status());
}

/** Puts a clinic in `status` through the admin API ('Editar' in /admin/clinicas), keeping every other field as it is. */
export async function setClinicStatusViaApi(request: APIRequestContext, clinicId: string, status: ClinicStatus): Promise<void> {
  const detail = clinicDetailSchema.parse(await (await request.get(`/api/admin/clinics/${clinicId}`)).json());
  const form: ClinicFormInput = { name: detail.name, cnpj: detail.cnpj, slug: detail.slug, planId: detail.planId, domain: '', city: detail.city ?? '', state: detail.state ?? '', status };
  const response = await request.put(`/api/admin/clinics/${clinicId}`, { data: form });
  expect(response.status(), await response.text()).toBe(200);
}

/** The first active plan that includes a custom domain: a clinic with its own domain must be on one. */
export async function planWithCustomDomain(request: APIRequestContext): Promise<PlatformPlanRecord> {
  const response = await request.get('/api/admin/plans');
  expect(response.status()).toBe(200);
  const plan = platformPlanListSchema.parse(await response.json()).items.find((candidate) => candidate.isActive && candidate.customDomain);
  expect(plan, 'an active plan with a custom domain').toBeDefined();
  return plan!;
}

export type PendingSignUp = { clinicId: string; name: string };

/**
 * A clinic created the way a newcomer does it: an account signs up on the platform and goes through onboarding. It
 * is in trial and awaits 'Aprovar Cadastro'. Done in a request context of its own, so the admin session of the page
 * stays as it is.
 */
export async function createPendingSignUp(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined): Promise<PendingSignUp> {
  const context = await playwright.request.newContext({ baseURL });
  try {
    const suffix = uniqueSuffix();
    const email = `e2e.cadastro.${suffix}@teste.dev`;
    const signUp = await context.post('/api/auth/sign-up/email', { headers: await captchaHeaders(context), data: { email, password: 'senha-e2e-123', name: 'Dona da Clínica' } });
    expect(signUp.status()).toBe(200);
    // Only an owner who confirmed the e-mail may create a clinic (ADR 006).
    await confirmEmail(baseURL, email);
    const name = `Clínica Cadastro ${suffix}`;
    const onboarding = await context.post('/api/onboarding/clinic', { data: { name, cnpj: uniqueCnpj(), slug: `cadastro-${suffix}` } });
    expect(onboarding.status(), await onboarding.text()).toBe(201);
    const { clinicId } = onboardingClinicResponseSchema.parse(await onboarding.json());
    return { clinicId, name };
  } finally {
    await context.dispose();
  }
}
