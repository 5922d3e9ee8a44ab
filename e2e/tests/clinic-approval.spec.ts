import type { APIRequestContext, Page } from '@playwright/test';
import { outboxEmailSchema } from '@carteirinha/shared/contracts/outbox';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import { z } from 'zod';
import { setClinicStatusViaApi } from '../admin-data';
import { planFormOf } from '../clinic-owner';
import { subscriptionPlanListSchema } from '@carteirinha/shared/contracts/subscription-plans';
import { demoAccountRequest, expect, test } from '../fixtures';
import { TEST_PASSWORD, clinicOrigin, signUpOnPlatform, uniqueEmail, uniqueSlug, validCnpj } from '../tenancy';

/**
 * Issue 12, items 21 and 10 (ADR 010): a self-service clinic's site awaits 'Aprovar Cadastro' before it takes
 * patients, and a suspended clinic's team is told why instead of a failing portal.
 */

/** Runs `work` as the demo admin, in a request context of its own (the page keeps its own session). */
async function asAdmin<T>(baseURL: string, work: (admin: APIRequestContext) => Promise<T>): Promise<T> {
  const admin = await demoAccountRequest('admin', baseURL);
  try {
    return await work(admin);
  } finally {
    await admin.dispose();
  }
}

/** Opens the e-mail confirmation link sent to `email` (read from the development outbox). */
async function confirmEmail(page: Page, baseURL: string, email: string): Promise<void> {
  const text = await asAdmin(baseURL, async (admin) => {
    const response = await admin.get(`/api/admin/outbox?q=${encodeURIComponent(email)}`);
    const mail = z.object({ items: z.array(outboxEmailSchema) }).parse(await response.json()).items.find((item) => item.subject === messages.email.verifySubject);
    if (!mail) throw new Error(`no confirmation e-mail to ${email}`);
    return mail.text;
  });
  const link = new URL(/https?:\/\/\S+/.exec(text)?.[0] ?? '');
  expect((await page.request.get(`${link.pathname}${link.search}`)).ok()).toBe(true);
}

type SelfServiceClinic = { id: string; name: string; slug: string; email: string };

/** Someone signs up on the platform, confirms the e-mail and creates a clinic: a trial awaiting approval. */
async function selfServiceClinic(page: Page, baseURL: string): Promise<SelfServiceClinic> {
  const email = await signUpOnPlatform(page, 'Dona da Clínica');
  await confirmEmail(page, baseURL, email);
  const slug = uniqueSlug('pendente');
  const name = `Clínica ${slug}`;
  const response = await page.request.post('/api/onboarding/clinic', { data: { name, cnpj: validCnpj(), slug } });
  expect(response.status()).toBe(201);
  const { clinicId } = z.object({ clinicId: z.string() }).parse(await response.json());
  return { id: clinicId, name, slug, email };
}

test("a self-service clinic's site says it awaits approval, takes no patients, and opens once approved", async ({ page, visit, baseURL }) => {
  const clinic = await selfServiceClinic(page, baseURL ?? '');
  const site = clinicOrigin(baseURL, clinic.slug);

  await visit(`${site}/`);
  await expect(page).toHaveTitle(clinic.name);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(clinic.name);
  await expect(page.getByRole('heading', { name: 'Aguardando aprovação' })).toBeVisible();
  await expect(page.getByText(messages.tenancy.awaitingApproval)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Cadastrar' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Nossos planos' })).toHaveCount(0);

  // Sign-up is not offered there, and the server refuses it anyway.
  await visit(`${site}/auth?tab=cadastrar`);
  await expect(page.getByRole('tab', { name: 'Cadastrar' })).toHaveCount(0);
  await expect(page.getByTestId('awaiting-approval-note')).toHaveText(messages.tenancy.awaitingApprovalSignUp);
  // Sent from the page itself: only the browser resolves `*.localhost`.
  const refused = await page.evaluate(async (body) => {
    const response = await fetch('/api/auth/sign-up/email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer: unknown = await response.json();
    return { status: response.status, body: answer };
  }, { name: 'Paciente Cedo', email: uniqueEmail(), password: TEST_PASSWORD });
  expect(refused.status).toBe(403);
  expect(errorResponseSchema.parse(refused.body).error.message).toBe(messages.tenancy.awaitingApprovalSignUp);

  // Its owner signs in there and prepares the clinic, told that it awaits approval.
  await page.getByLabel('Email').fill(clinic.email);
  await page.getByLabel('Senha').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page).toHaveURL(`${site}/clinica`);
  await expect(page.getByTestId('awaiting-approval-banner')).toHaveText(messages.tenancy.awaitingApprovalBanner);

  // 'Aprovar Cadastro': the site opens to patients.
  await asAdmin(baseURL ?? '', async (admin) => {
    expect((await admin.post(`/api/admin/clinics/${clinic.id}/approve`)).status()).toBe(200);
  });
  await visit(`${site}/`);
  await expect(page.getByRole('heading', { name: 'Aguardando aprovação' })).toHaveCount(0);
  // Its signed-in owner is offered the portal rather than a sign-up (issue 13, item 14).
  await expect(page.getByRole('banner').getByRole('link', { name: messages.portalEntry.myPortal })).toBeVisible();
  // A new clinic starts with one plan it can edit (issue 14), off sale until its owner saves it once (issue 25): the
  // approved site offers nothing at a price the owner never set.
  await expect(page.getByTestId('clinic-plan')).toHaveCount(0);
  // The owner reviews it and saves it as it is — from the page on the clinic's host: only the browser resolves it.
  const { items } = subscriptionPlanListSchema.parse(await page.evaluate(async () => (await fetch('/api/clinic/subscription-plans')).json()));
  const [starter] = items;
  if (!starter) throw new Error('a new clinic starts with one plan');
  expect(starter).toMatchObject({ name: 'Plano Essencial', awaitingReview: true });
  const saved = await page.evaluate(
    async ({ id, form }) => (await fetch(`/api/clinic/subscription-plans/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(form) })).status,
    { id: starter.id, form: planFormOf(starter) },
  );
  expect(saved).toBe(200);
  await visit(`${site}/`);
  await expect(page.getByTestId('clinic-plan')).toHaveCount(1);
  await expect(page.getByTestId('clinic-plan')).toContainText('Plano Essencial');
});

test("a suspended clinic's admin signs in and is told why, instead of the portal", async ({ page, visit, baseURL }) => {
  const clinic = await selfServiceClinic(page, baseURL ?? '');
  await asAdmin(baseURL ?? '', (admin) => setClinicStatusViaApi(admin, clinic.id, 'suspended'));

  await visit('/clinica');
  await expect(page.getByRole('heading', { level: 1, name: 'Clínica suspensa' })).toBeVisible();
  await expect(page.getByTestId('clinic-closed')).toContainText(messages.tenancy.clinicSuspended);
  await expect(page.getByTestId('clinic-closed')).toContainText(clinic.name);
  // The server agrees: the clinic's endpoints answer CLINIC_INACTIVE.
  const api = await page.request.get('/api/clinic');
  expect(api.status()).toBe(403);
  expect(errorResponseSchema.parse(await api.json()).error.code).toBe('CLINIC_INACTIVE');

  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/auth(\?|$)/);
});
