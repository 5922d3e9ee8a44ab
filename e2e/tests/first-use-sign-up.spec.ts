import type { Page } from '@playwright/test';
import { adminClinicSchema } from '@carteirinha/shared/contracts/clinics';
import { pageOf } from '@carteirinha/shared/contracts/pagination';
import { publicPlatformPlanListSchema } from '@carteirinha/shared/contracts/plans';
import { expect, test } from '../fixtures';
import { TEST_PASSWORD, expectToast, latestEmailTo, linkPathIn, uniqueEmail, uniqueSlug, validCnpj } from '../tenancy';
import { captchaHeaders } from '../captcha';

/*
 * Issue 13, items 10–12: what a first-time user meets between the landing page and the portal — the sign-up tabs, the
 * plan chosen on the pricing card, the clinic awaiting approval, the invitation link and the e-mail confirmation.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

function toastWith(page: Page, text: string) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text });
}

for (const size of SIZES) {
  test.describe(`first use on ${size.name}`, () => {
    test.use({ viewport: size.viewport });

    test('switching the /auth tabs keeps what was typed in each (item 10)', async ({ page, visit }) => {
      await visit('/auth');
      const signIn = page.getByRole('tabpanel', { name: 'Entrar' });
      await signIn.getByLabel('Email').fill('quem.entra@teste.dev');

      await page.getByRole('tab', { name: 'Cadastrar' }).click();
      const signUp = page.getByRole('tabpanel', { name: 'Cadastrar' });
      await signUp.getByLabel('Nome Completo').fill('Helena Nova');
      await signUp.getByLabel('Email').fill('quem.cadastra@teste.dev');
      // Only the open tab's form is shown (and read by assistive technology).
      await expect(page.getByRole('tabpanel')).toHaveCount(1);
      await expect(page.getByLabel('Email')).toHaveCount(1);

      await page.getByRole('tab', { name: 'Entrar' }).click();
      await expect(signIn.getByLabel('Email')).toHaveValue('quem.entra@teste.dev');
      await page.getByRole('tab', { name: 'Cadastrar' }).click();
      await expect(signUp.getByLabel('Nome Completo')).toHaveValue('Helena Nova');
      await expect(signUp.getByLabel('Email')).toHaveValue('quem.cadastra@teste.dev');
    });

    test('the e-mail confirmation link says "Email confirmado" once and invites to sign in (item 12)', async ({ page, playwright, baseURL }) => {
      const email = uniqueEmail();
      const elsewhere = await playwright.request.newContext({ baseURL });
      try {
        const signedUp = await elsewhere.post('/api/auth/sign-up/email', { headers: await captchaHeaders(elsewhere), data: { name: 'Pessoa Confirmando', email, password: TEST_PASSWORD } });
        expect(signedUp.status()).toBe(200);
      } finally {
        await elsewhere.dispose();
      }
      const mail = await latestEmailTo(baseURL, email, 'Confirme seu email');

      // Opened from the mailbox in a browser that is signed out (confirming signs nobody in, ADR 006).
      await page.goto(linkPathIn(mail));
      await expectToast(page, 'Email confirmado!', 'Entre com o seu email e senha para continuar.');
      // The marker is taken out of the address, so a reload says nothing again.
      await expect(page).toHaveURL(/\/$/);

      const notice = toastWith(page, 'Email confirmado!');
      const box = await notice.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= size.viewport.width).toBe(true);
      await notice.getByRole('button', { name: 'Entrar', exact: true }).click();
      await expect(page).toHaveURL(/\/auth$/);
      await page.getByRole('tabpanel', { name: 'Entrar' }).getByLabel('Email').fill(email);
      await page.getByRole('tabpanel', { name: 'Entrar' }).getByLabel('Senha').fill(TEST_PASSWORD);
      await page.getByRole('tabpanel', { name: 'Entrar' }).getByRole('button', { name: 'Entrar', exact: true }).click();
      await expect(page).toHaveURL(/\/onboarding$/);

      await page.goto('/');
      await page.waitForLoadState('networkidle');
      await expect(toastWith(page, 'Email confirmado!')).toHaveCount(0);
    });
  });
}

test.describe('the plan chosen on the landing page', () => {
  test('carries through sign-up into onboarding, where it can be changed, and the owner learns the clinic awaits approval (item 10)', async ({
    page,
    visit,
    baseURL,
  }) => {
    const { items } = publicPlatformPlanListSchema.parse(await (await page.request.get('/api/public/plans')).json());
    const selfService = items.filter((plan) => plan.priceCents !== null).sort((a, b) => (a.priceCents ?? 0) - (b.priceCents ?? 0));
    expect(selfService.length).toBeGreaterThan(1);
    // Not the cheapest, which the server would take anyway.
    const chosen = selfService[selfService.length - 1]!;

    await visit('/');
    const card = page.locator('#pricing li').filter({ has: page.getByRole('heading', { name: chosen.name, exact: true }) });
    await card.getByRole('link', { name: 'Começar Agora' }).click();
    await expect(page).toHaveURL(new RegExp(`/auth\\?tab=cadastrar&plano=${chosen.id}$`));

    const signUp = page.getByRole('tabpanel', { name: 'Cadastrar' });
    const email = uniqueEmail();
    await signUp.getByLabel('Nome Completo').fill('Helena Fundadora');
    await signUp.getByLabel('Email').fill(email);
    await signUp.getByLabel('Senha').fill(TEST_PASSWORD);
    await signUp.getByRole('button', { name: 'Cadastrar' }).click();
    await expect(page).toHaveURL(new RegExp(`/onboarding\\?plano=${chosen.id}$`));

    // The owner opens the confirmation link in this browser: it lands on the site's root, and — still signed in, with
    // no clinic yet — takes them straight back to onboarding, where the plan they chose waits.
    const mail = await latestEmailTo(baseURL, email, 'Confirme seu email');
    await page.goto(linkPathIn(mail));
    await expect(page).toHaveURL(/\/onboarding$/);
    await expectToast(page, 'Email confirmado!', 'Agora é só criar a sua clínica.');
    const form = page.getByRole('form', { name: 'Criar minha clínica' });
    const plan = form.getByLabel('Plano');
    await expect(plan).toHaveValue(chosen.id);
    // Every self-service plan is offered, and nothing "sob consulta".
    await expect(plan.getByRole('option')).toHaveCount(selfService.length);

    // The site's address is named for what it is, with the whole address previewed.
    const slug = uniqueSlug('plano');
    await form.getByLabel('Nome da clínica').fill('Clínica do Plano');
    await form.getByLabel('CNPJ').fill(validCnpj());
    await form.getByLabel('Endereço do site (subdomínio)').fill(slug);
    await expect(page.getByTestId('site-preview')).toContainText(`//${slug}.localhost:`);

    // Changeable: the owner settles on another plan; that one is sent.
    const other = selfService[0]!;
    await plan.selectOption(other.id);
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/onboarding/clinic') && request.method() === 'POST');
    await form.getByRole('button', { name: 'Criar Minha Plataforma' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ planId: other.id, slug });

    await expect(page).toHaveURL(/\/clinica$/);
    await expectToast(page, 'Clínica criada!', 'aguarda a aprovação da Carteirinha');
  });
});

test.describe('the invitation link', () => {
  test.beforeEach(async ({ signInAs }) => {
    await signInAs('admin');
  });

  test("opens 'Aceitar convite' with the clinic and the role, creates the password and enters the portal (item 11)", async ({
    page,
    browser,
    baseURL,
  }) => {
    const clinics = pageOf(adminClinicSchema).parse(await (await page.request.get('/api/admin/clinics?q=demo&pageSize=100')).json());
    const demo = clinics.items.find((clinic) => clinic.slug === 'demo');
    expect(demo).toBeDefined();
    const email = uniqueEmail();
    const invited = await page.request.post('/api/admin/user-roles', { data: { email, role: 'clinic_staff', clinicId: demo!.id } });
    expect(invited.status()).toBe(201);
    const mail = await latestEmailTo(baseURL, email, `Você foi convidado para ${demo!.name}`);

    for (const size of SIZES) {
      const context = await browser.newContext({ baseURL, viewport: size.viewport });
      const invitee = await context.newPage();
      try {
        await invitee.goto(linkPathIn(mail));
        await expect(invitee).toHaveURL(/\/auth\/aceitar-convite\?token=/);
        await expect(invitee.getByRole('heading', { level: 1 })).toHaveText('Aceitar convite');
        await expect(invitee.getByTestId('invitation-welcome')).toHaveText(`Boas-vindas à equipe da ${demo!.name}! Você foi convidado como Atendente.`);
        await expect(invitee.getByText(`Crie uma senha para a conta ${email}.`)).toBeVisible();
        await expect(invitee.getByText('Redefinir senha')).toHaveCount(0);
      } finally {
        await context.close();
      }
    }

    const context = await browser.newContext({ baseURL });
    const invitee = await context.newPage();
    try {
      await invitee.goto(linkPathIn(mail));
      const form = invitee.getByRole('form', { name: 'Criar senha' });
      // The same password rules as sign-up.
      await form.getByLabel('Senha', { exact: true }).fill('123');
      await form.getByLabel('Confirmar senha').fill('123');
      await form.getByRole('button', { name: 'Criar senha' }).click();
      await expect(invitee.locator('[data-sonner-toast]').first()).toBeVisible();
      await expect(invitee).toHaveURL(/\/auth\/aceitar-convite/);

      await form.getByLabel('Senha', { exact: true }).fill(TEST_PASSWORD);
      await form.getByLabel('Confirmar senha').fill(TEST_PASSWORD);
      await form.getByRole('button', { name: 'Criar senha' }).click();
      await expect(invitee).toHaveURL(/\/clinica$/);
      await expectToast(invitee, 'Senha criada!');

      // The link is spent: opened again it says so.
      await invitee.goto(linkPathIn(mail));
      await expect(invitee.getByTestId('reset-invalid-token')).toBeVisible();
    } finally {
      await context.close();
    }

    // In /admin/usuarios the person is now simply 'Ativo'.
    const listed = await page.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`);
    expect((await listed.json()).items[0]).toMatchObject({ email, status: 'active', invitationPending: false });
  });
});
