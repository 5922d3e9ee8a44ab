import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { adminClinicSchema } from '@carteirinha/shared/contracts/clinics';
import { pageOf } from '@carteirinha/shared/contracts/pagination';
import { onboardingClinicResponseSchema } from '@carteirinha/shared/contracts/tenant';
import { setClinicStatusViaApi } from '../admin-data';
import { addDemoSession, demoAccountRequest, expect } from '../fixtures';
import { TEST_PASSWORD, clinicOrigin, deactivatedAccount, latestEmailTo, linkPathIn, signUpElsewhere, signUpOnPlatform, uniqueEmail, uniqueSlug, validCnpj, confirmEmail } from '../tenancy';
import { DESKTOP, expectToast, toPhone, type Scenario } from './scenario';

/** The pages anyone can open: the landing page and a clinic's site ('/'), signing in and up, onboarding, the 404. */

/** A 1×1 PNG: the smallest real image the server will sniff and re-encode. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

function signInTab(page: Page) {
  return page.getByRole('tabpanel', { name: 'Entrar' });
}

function signUpTab(page: Page) {
  return page.getByRole('tabpanel', { name: 'Cadastrar' });
}

async function submitSignIn(page: Page, email: string, password: string) {
  await signInTab(page).getByLabel('Email').fill(email);
  await signInTab(page).getByLabel('Senha').fill(password);
  await signInTab(page).getByRole('button', { name: 'Entrar', exact: true }).click();
}

async function fillSignUp(page: Page, fullName: string, email: string, password: string) {
  await signUpTab(page).getByLabel('Nome Completo').fill(fullName);
  await signUpTab(page).getByLabel('Email').fill(email);
  await signUpTab(page).getByLabel('Senha').fill(password);
}

function createForm(page: Page) {
  return page.getByRole('form', { name: 'Criar minha clínica' });
}

/** Signs in on a clinic's own host from the page itself: only the browser resolves `*.localhost`. */
async function signInOnSite(page: Page, email: string, password: string) {
  const status = await page.evaluate(
    async (credentials) => (await fetch('/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })).status,
    { email, password },
  );
  expect(status).toBe(200);
}

/** The demo admin invites `email` to Clínica Demo's team ('Novo Usuário'); answers the clinic's name. */
async function inviteToDemo(baseURL: string, email: string): Promise<string> {
  const admin = await demoAccountRequest('admin', baseURL);
  try {
    const demo = pageOf(adminClinicSchema).parse(await (await admin.get('/api/admin/clinics?q=demo&pageSize=100')).json()).items.find((clinic) => clinic.slug === 'demo');
    if (!demo) throw new Error('no Clínica Demo');
    expect((await admin.post('/api/admin/user-roles', { data: { email, role: 'clinic_staff', clinicId: demo.id } })).status()).toBe(201);
    return demo.name;
  } finally {
    await admin.dispose();
  }
}

export const PUBLIC_SCENARIOS: readonly Scenario[] = [
  {
    name: 'the landing page, signed out and signed in',
    states: [
      '/ — platform landing, signed out, desktop',
      '/ — platform landing, signed out, phone',
      '/ — platform landing, signed in (Meu portal), phone',
      '/ — platform landing, signed in (Meu portal), desktop',
    ],
    run: async ({ page, signInAs, check }) => {
      await page.goto('/');
      await expect(page.locator('#pricing').getByRole('heading', { name: 'Professional' })).toBeVisible();
      await check('/ — platform landing, signed out, desktop');
      await toPhone(page);
      await check('/ — platform landing, signed out, phone');
      await signInAs('admin');
      await page.reload();
      await expect(page.getByRole('banner').getByRole('link', { name: 'Meu portal' })).toBeVisible();
      await check('/ — platform landing, signed in (Meu portal), phone');
      await page.setViewportSize(DESKTOP);
      await check('/ — platform landing, signed in (Meu portal), desktop');
    },
  },
  {
    name: "the e-mail confirmation link's notice, and the landing page of an account without a clinic",
    states: [
      "/ — platform landing, 'Email confirmado!' toast, desktop",
      '/ — platform landing, signed in without a role, desktop',
      "/ — platform landing, 'Email confirmado!' toast, phone",
      '/ — platform landing, signed in without a role, phone',
    ],
    run: async ({ page, context, baseURL, check }) => {
      for (const phone of [false, true]) {
        const email = uniqueEmail();
        await signUpElsewhere(baseURL, email, 'Pessoa Confirmando');
        const mail = await latestEmailTo(baseURL, email, 'Confirme seu email');
        if (phone) await toPhone(page);
        // Opened from the mailbox in a browser that is signed out (confirming signs nobody in, ADR 006).
        await context.clearCookies();
        await page.goto(linkPathIn(mail));
        await expectToast(page, 'Email confirmado!');
        await check(`/ — platform landing, 'Email confirmado!' toast, ${phone ? 'phone' : 'desktop'}`);
        const signedIn = await page.request.post('/api/auth/sign-in/email', { data: { email, password: TEST_PASSWORD } });
        expect(signedIn.status()).toBe(200);
        await page.goto('/');
        await expect(page.getByRole('banner').getByRole('link', { name: 'Continuar cadastro' })).toBeVisible();
        await check(`/ — platform landing, signed in without a role, ${phone ? 'phone' : 'desktop'}`);
      }
    },
  },
  {
    name: "Clínica Demo's site, signed out and signed in, and a host where no clinic is",
    states: [
      '/ — clinic site (Clínica Demo), desktop',
      '/ — clinic site (Clínica Demo), phone',
      '/ — clinic site, signed-in patient (Meu portal), phone',
      '/ — clinic site, signed-in patient (Meu portal), desktop',
      '/ — unknown clinic host (Clínica não encontrada)',
      '/precos — price table of Clínica Demo, desktop',
      '/precos — price table of Clínica Demo, phone',
      '/precos — a past day with no prices',
    ],
    run: async ({ page, context, baseURL, check }) => {
      const demo = clinicOrigin(baseURL, 'demo');
      await page.goto(`${demo}/`);
      await expect(page.getByTestId('clinic-plan')).toHaveCount(2);
      await check('/ — clinic site (Clínica Demo), desktop');
      await toPhone(page);
      await check('/ — clinic site (Clínica Demo), phone');
      await addDemoSession(context, 'patient', demo);
      await page.reload();
      await expect(page.getByRole('banner').getByRole('link', { name: 'Meu portal' })).toBeVisible();
      await check('/ — clinic site, signed-in patient (Meu portal), phone');
      await page.setViewportSize(DESKTOP);
      await check('/ — clinic site, signed-in patient (Meu portal), desktop');

      const response = await page.goto(`${clinicOrigin(baseURL, 'nao-existe')}/`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Clínica não encontrada' })).toBeVisible();
      await check('/ — unknown clinic host (Clínica não encontrada)');

      await page.goto(`${demo}/precos`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tabela de preços');
      await expect(page.getByTestId('price-table-date')).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await check('/precos — price table of Clínica Demo, desktop');
      await toPhone(page);
      await check('/precos — price table of Clínica Demo, phone');
      await page.goto(`${demo}/precos?data=2020-01-01`);
      await expect(page.getByText('Nenhum preço registrado nesta data.')).toBeVisible();
      await check('/precos — a past day with no prices');
    },
  },
  {
    name: "a new clinic's life: onboarding, its portal and identity, its site awaiting approval, approved, then suspended",
    states: [
      '/onboarding — confirm-email notice',
      '/onboarding — create-clinic form',
      '/onboarding — field errors',
      '/onboarding — server refusal (address taken): field error and toast',
      "/onboarding — 'Sou paciente' with results",
      "/onboarding — 'Sou paciente' with no result (empty state)",
      '/onboarding — create-clinic form filled, with the site preview',
      "/clinica — new clinic in trial, awaiting approval, with the 'Clínica criada!' toast",
      '/ — clinic site awaiting approval',
      '/auth — Cadastrar offered nowhere: clinic awaiting approval',
      '/clinica/configuracoes — new clinic (Identidade visual)',
      '/clinica/configuracoes — Identidade visual with field errors',
      '/ — clinic site awaiting approval, with its own colour and logo',
      '/ — clinic site approved, signed-in owner (Meu portal)',
      '/clinica — suspended clinic (Clínica suspensa)',
    ],
    run: async ({ page, baseURL, check }) => {
      const email = await signUpOnPlatform(page, 'Helena Fundadora', { confirm: false });
      await page.goto('/onboarding');
      await expect(page.getByTestId('confirm-email-notice')).toBeVisible();
      await check('/onboarding — confirm-email notice');
      await confirmEmail(baseURL, email);
      await page.reload();
      const form = createForm(page);
      await expect(form.getByLabel('Plano')).not.toHaveValue('');
      await check('/onboarding — create-clinic form');

      await form.getByLabel('Nome da clínica').fill('Cl');
      await form.getByLabel('CNPJ').fill('11.111.111/1111-11');
      await form.getByLabel('Endereço').fill('admin');
      await form.getByRole('button', { name: 'Criar Minha Plataforma' }).click();
      await expect(form.getByLabel('CNPJ', { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await check('/onboarding — field errors');
      // Only the server knows that "demo" is taken.
      await form.getByLabel('Nome da clínica').fill('Clínica Acessível');
      await form.getByLabel('CNPJ').fill(validCnpj());
      await form.getByLabel('Endereço').fill('demo');
      await form.getByRole('button', { name: 'Criar Minha Plataforma' }).click();
      await expectToast(page, 'Erro ao criar clínica');
      await check('/onboarding — server refusal (address taken): field error and toast');
      await page.getByRole('tab', { name: 'Sou paciente' }).click();
      const search = page.getByLabel('Buscar clínica por nome ou cidade');
      await search.fill('demo');
      await expect(page.getByRole('list', { name: 'Clínicas encontradas' }).getByRole('listitem').filter({ hasText: 'Clínica Demo' })).toBeVisible();
      await check("/onboarding — 'Sou paciente' with results");
      await search.fill('zzzz-nenhuma');
      await expect(page.getByText('Nenhuma clínica encontrada')).toBeVisible();
      await check("/onboarding — 'Sou paciente' with no result (empty state)");

      await page.getByRole('tab', { name: 'Criar minha clínica' }).click();
      const slug = uniqueSlug('acessivel');
      await form.getByLabel('Nome da clínica').fill('Clínica Acessível');
      await form.getByLabel('CNPJ').fill(validCnpj());
      await form.getByLabel('Endereço').fill(slug);
      await expect(page.getByTestId('site-preview')).toContainText(`//${slug}.localhost:`);
      await check('/onboarding — create-clinic form filled, with the site preview');
      const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/onboarding/clinic' && r.request().method() === 'POST');
      await createForm(page).getByRole('button', { name: 'Criar Minha Plataforma' }).click();
      const { clinicId } = onboardingClinicResponseSchema.parse(await (await created).json());
      await expect(page).toHaveURL(/\/clinica$/);
      await expectToast(page, 'Clínica criada!');
      await expect(page.getByTestId('trial-banner')).toBeVisible();
      await check("/clinica — new clinic in trial, awaiting approval, with the 'Clínica criada!' toast");

      const site = clinicOrigin(baseURL, slug);
      await page.goto(`${site}/`);
      await expect(page.getByRole('heading', { name: 'Aguardando aprovação' })).toBeVisible();
      await check('/ — clinic site awaiting approval');
      await page.goto(`${site}/auth?tab=cadastrar`);
      await expect(page.getByTestId('awaiting-approval-note')).toBeVisible();
      await check('/auth — Cadastrar offered nowhere: clinic awaiting approval');

      await page.goto('/clinica/configuracoes');
      const identity = page.getByRole('form', { name: 'Identidade visual' });
      await expect(identity.getByLabel('Nome de exibição')).toHaveValue('Clínica Acessível');
      await check('/clinica/configuracoes — new clinic (Identidade visual)');
      await identity.getByLabel('Nome de exibição').fill('A');
      await identity.getByLabel('Cor principal', { exact: true }).fill('#12');
      await identity.getByRole('button', { name: 'Salvar Alterações' }).click();
      await expect(identity.getByText('Use uma cor no formato #RRGGBB')).toBeVisible();
      await check('/clinica/configuracoes — Identidade visual with field errors');
      await identity.getByLabel('Nome de exibição').fill('Sorriso Acessível');
      await identity.getByLabel('Cor principal', { exact: true }).fill('#7C3AED');
      await identity.getByRole('button', { name: 'Salvar Alterações' }).click();
      await expectToast(page, 'Identidade visual salva com sucesso!');
      await page.getByTestId('logo-file-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: TINY_PNG });
      await expectToast(page, 'Logo atualizado com sucesso!');
      await page.goto(`${site}/`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sorriso Acessível');
      await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /^\/uploads\/logos\//);
      await check('/ — clinic site awaiting approval, with its own colour and logo');

      const admin = await demoAccountRequest('admin', baseURL);
      try {
        expect((await admin.post(`/api/admin/clinics/${clinicId}/approve`)).status()).toBe(200);
        await signInOnSite(page, email, TEST_PASSWORD);
        await page.goto(`${site}/`);
        await expect(page.getByRole('banner').getByRole('link', { name: 'Meu portal' })).toBeVisible();
        await check('/ — clinic site approved, signed-in owner (Meu portal)');

        await setClinicStatusViaApi(admin, clinicId, 'suspended');
      } finally {
        await admin.dispose();
      }
      await page.goto('/clinica');
      await expect(page.getByRole('heading', { level: 1, name: 'Clínica suspensa' })).toBeVisible();
      await check('/clinica — suspended clinic (Clínica suspensa)');
    },
  },
  {
    name: 'signing in and up on the platform: the forms, their messages and the forgotten-password dialog',
    states: [
      '/auth — Entrar tab, desktop',
      '/auth — validation toast on the Entrar tab',
      "/auth — error toast 'Erro ao entrar' (wrong password)",
      "/auth — dialog 'Esqueceu a senha?'",
      "/auth — 'Verifique seu email' toast after 'Esqueceu a senha?'",
      '/auth — Cadastrar tab, desktop',
      '/auth — validation toast on the Cadastrar tab',
      "/auth — Cadastrar tab with the 'Verifique seu email' toast",
      '/auth — Cadastrar tab filled, desktop',
      '/auth — Entrar tab, phone',
      '/auth — Cadastrar tab filled, phone',
    ],
    run: async ({ page, check }) => {
      await page.goto('/auth');
      await expect(page.getByRole('tab', { name: 'Entrar' })).toHaveAttribute('aria-selected', 'true');
      await check('/auth — Entrar tab, desktop');
      await submitSignIn(page, 'nao-e-email', 'demo123');
      await expectToast(page, 'Erro de validação');
      await check('/auth — validation toast on the Entrar tab');
      await submitSignIn(page, uniqueEmail(), 'senha-errada');
      await expectToast(page, 'Email ou senha incorretos');
      await check("/auth — error toast 'Erro ao entrar' (wrong password)");

      await page.getByRole('button', { name: 'Esqueceu a senha?' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByLabel('Email')).toBeVisible();
      await check("/auth — dialog 'Esqueceu a senha?'");
      await dialog.getByLabel('Email').fill(uniqueEmail());
      await dialog.getByRole('button', { name: 'Enviar link' }).click();
      await expectToast(page, 'Verifique seu email');
      await check("/auth — 'Verifique seu email' toast after 'Esqueceu a senha?'");
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);

      await page.getByRole('tab', { name: 'Cadastrar' }).click();
      await expect(signUpTab(page).getByLabel('Nome Completo')).toBeVisible();
      await check('/auth — Cadastrar tab, desktop');
      await fillSignUp(page, 'Al', uniqueEmail(), 'senha123');
      await signUpTab(page).getByRole('button', { name: 'Cadastrar' }).click();
      await expectToast(page, 'Nome deve ter no mínimo 3 caracteres');
      await check('/auth — validation toast on the Cadastrar tab');
      // A registered address: the form says nothing of it (issue 12, item 9).
      await fillSignUp(page, 'Paulo Repetido', DEMO_ACCOUNTS.patient, 'senha-repetida-1');
      await signUpTab(page).getByRole('button', { name: 'Cadastrar' }).click();
      await expectToast(page, 'Este email já pode ter uma conta');
      await check("/auth — Cadastrar tab with the 'Verifique seu email' toast");
      await fillSignUp(page, 'Helena Nova', 'quem.cadastra@teste.dev', 'senha-nova-1');
      await check('/auth — Cadastrar tab filled, desktop');

      await page.goto('/auth');
      await toPhone(page);
      await expect(page.getByRole('tab', { name: 'Entrar' })).toHaveAttribute('aria-selected', 'true');
      await check('/auth — Entrar tab, phone');
      await page.getByRole('tab', { name: 'Cadastrar' }).click();
      await fillSignUp(page, 'Helena Nova', 'quem.cadastra@teste.dev', 'senha-nova-1');
      await check('/auth — Cadastrar tab filled, phone');
    },
  },
  {
    name: 'a deactivated account is told so',
    states: ["/auth — error toast 'Erro ao entrar' (deactivated account)"],
    run: async ({ page, baseURL, check }) => {
      const email = await deactivatedAccount(baseURL, 'senha-desativada-1');
      await page.goto('/auth');
      await submitSignIn(page, email, 'senha-desativada-1');
      await expectToast(page, 'Esta conta foi desativada. Fale com o administrador da plataforma.');
      await check("/auth — error toast 'Erro ao entrar' (deactivated account)");
    },
  },
  {
    name: "Clínica Demo's own sign-in page",
    states: ['/auth — clinic site, Entrar tab', '/auth — clinic site, error toast (account of another clinic)', '/auth — clinic site, Cadastrar tab'],
    run: async ({ page, baseURL, check }) => {
      const demo = clinicOrigin(baseURL, 'demo');
      await page.goto(`${demo}/auth`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clínica Demo');
      await check('/auth — clinic site, Entrar tab');
      await submitSignIn(page, DEMO_ACCOUNTS.admin, DEMO_PASSWORD);
      await expectToast(page, 'Esta conta não pertence a esta clínica. Entre pelo site da sua clínica.');
      await check('/auth — clinic site, error toast (account of another clinic)');
      await page.goto(`${demo}/auth?tab=cadastrar`);
      await expect(page.getByRole('tab', { name: 'Cadastrar' })).toHaveAttribute('aria-selected', 'true');
      await check('/auth — clinic site, Cadastrar tab');
    },
  },
  {
    name: 'the reset-password page, from a real link and from a spent one',
    states: ['/auth/redefinir-senha — form (valid link)', '/auth/redefinir-senha — invalid or expired link'],
    run: async ({ page, baseURL, check }) => {
      const email = uniqueEmail();
      await signUpElsewhere(baseURL, email, 'Rita Esquecida');
      await page.goto('/auth');
      await page.getByRole('button', { name: 'Esqueceu a senha?' }).click();
      await page.getByRole('dialog').getByLabel('Email').fill(email);
      await page.getByRole('dialog').getByRole('button', { name: 'Enviar link' }).click();
      await expectToast(page, 'Verifique seu email');
      const mail = await latestEmailTo(baseURL, email, 'Redefinição de senha');
      await page.goto(linkPathIn(mail));
      await expect(page.getByLabel('Nova senha')).toBeVisible();
      await check('/auth/redefinir-senha — form (valid link)');
      await page.goto('/auth/redefinir-senha?token=invalido');
      await page.getByLabel('Nova senha').fill('senha-nova-123');
      await page.getByLabel('Confirmar senha').fill('senha-nova-123');
      await page.getByRole('button', { name: 'Redefinir senha' }).click();
      await expect(page.getByTestId('reset-invalid-token')).toContainText('Link inválido ou expirado');
      await check('/auth/redefinir-senha — invalid or expired link');
    },
  },
  {
    name: 'the invitation page, on a desktop and on a phone, and a link that is not valid',
    states: ['/auth/aceitar-convite — invitation, desktop', '/auth/aceitar-convite — invitation, phone', '/auth/aceitar-convite — invalid or spent link'],
    run: async ({ page, baseURL, check }) => {
      const email = uniqueEmail();
      const clinicName = await inviteToDemo(baseURL, email);
      const mail = await latestEmailTo(baseURL, email, `Você foi convidado para ${clinicName}`);
      await page.goto(linkPathIn(mail));
      await expect(page.getByTestId('invitation-welcome')).toBeVisible();
      await check('/auth/aceitar-convite — invitation, desktop');
      await toPhone(page);
      await check('/auth/aceitar-convite — invitation, phone');
      await page.goto('/auth/aceitar-convite?token=invalido');
      await expect(page.getByTestId('reset-invalid-token')).toBeVisible();
      await check('/auth/aceitar-convite — invalid or spent link');
    },
  },
  {
    name: "the 404 page, on the platform's host and on a clinic's",
    states: ['* — platform 404, desktop', '* — platform 404, phone', '* — clinic 404, desktop', '* — clinic 404, phone'],
    allowConsoleErrors: [/404 Error: User attempted to access non-existent route/],
    run: async ({ page, baseURL, check }) => {
      await page.goto('/nao-existe-mesmo');
      await expect(page.getByTestId('not-found-brand')).toHaveText('Carteirinha');
      await check('* — platform 404, desktop');
      await toPhone(page);
      await check('* — platform 404, phone');
      await page.setViewportSize(DESKTOP);
      await page.goto(`${clinicOrigin(baseURL, 'demo')}/pagina-perdida`);
      await expect(page.getByTestId('not-found-brand')).toHaveText('Clínica Demo');
      await check('* — clinic 404, desktop');
      await toPhone(page);
      await check('* — clinic 404, phone');
    },
  },
];
