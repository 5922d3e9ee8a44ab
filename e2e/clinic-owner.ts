import type { Page } from '@playwright/test';
import { subscriptionPlanListSchema, subscriptionPlanSchema, type SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { onboardingClinicResponseSchema } from '@carteirinha/shared/contracts/tenant';
import { demoAccountRequest, expect } from './fixtures';
import { signUpOnPlatform, uniqueSlug, validCnpj } from './tenancy';

/**
 * A clinic as its new owner has it after signing up alone (issue 25): created through onboarding, approved by the
 * platform ('Aprovar Cadastro'), and its starter plan reviewed and saved once, so it is on sale. The page's cookies
 * hold the owner's session on the platform's host; the clinic's own site is `clinicOrigin(baseURL, slug)`.
 */
export type OwnedClinic = { id: string; name: string; slug: string; ownerEmail: string; plan: SubscriptionPlan };

export async function approvedClinicOfNewOwner(page: Page, baseURL: string | undefined): Promise<OwnedClinic> {
  const clinic = await approvedClinicWithPlanUnreviewed(page, baseURL);
  return { ...clinic, plan: await saveStarterPlan(page) };
}

/** The same clinic a step earlier: approved, its starter plan not yet reviewed, so nothing is on sale. */
export async function approvedClinicWithPlanUnreviewed(page: Page, baseURL: string | undefined): Promise<Omit<OwnedClinic, 'plan'>> {
  const ownerEmail = await signUpOnPlatform(page, 'Dona Nova');
  const slug = uniqueSlug('equipe');
  const name = `Clínica ${slug}`;
  const created = await page.request.post('/api/onboarding/clinic', { data: { name, cnpj: validCnpj(), slug } });
  expect(created.status(), await created.text()).toBe(201);
  const { clinicId } = onboardingClinicResponseSchema.parse(await created.json());

  const admin = await demoAccountRequest('admin', baseURL);
  try {
    expect((await admin.post(`/api/admin/clinics/${clinicId}/approve`)).status()).toBe(200);
  } finally {
    await admin.dispose();
  }
  return { id: clinicId, name, slug, ownerEmail };
}

/** The plan's form as 'Editar' opens it, saved as it is: what reviewing the starter plan sends (issue 25). */
export function planFormOf(plan: SubscriptionPlan): Record<string, unknown> {
  return {
    name: plan.name,
    description: plan.description ?? '',
    priceCents: plan.priceCents,
    dependentPriceCents: plan.dependentPriceCents,
    adhesionFeeCents: plan.adhesionFeeCents,
    billingCycle: plan.billingCycle,
    features: plan.features,
    maxMembers: plan.maxMembers,
    waitingDays: plan.waitingDays,
    discounts: plan.discounts,
    isActive: plan.isActive,
  };
}

/** The owner opens the starter plan and saves it as it is: reviewed, it goes on sale (issue 25). */
export async function saveStarterPlan(page: Page): Promise<SubscriptionPlan> {
  const { items } = subscriptionPlanListSchema.parse(await (await page.request.get('/api/clinic/subscription-plans')).json());
  const [plan] = items;
  if (!plan) throw new Error('a new clinic starts with one plan');
  const form = planFormOf(plan);
  const saved = await page.request.put(`/api/clinic/subscription-plans/${plan.id}`, { data: form });
  expect(saved.status(), await saved.text()).toBe(200);
  return subscriptionPlanSchema.parse(await saved.json());
}
