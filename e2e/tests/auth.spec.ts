import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { expect, test } from '../fixtures';
import { deactivatedAccount } from '../tenancy';

function uniqueEmail(): string {
  return `e2e.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@teste.dev`;
}

function signInForm(page: Page) {
  return page.getByRole('tabpanel', { name: 'Entrar' });
}

function signUpForm(page: Page) {
  return page.getByRole('tabpanel', { name: 'Cadastrar' });
}

async function expectToast(page: Page, title: string, description: string) {
  // Earlier toasts may still be on screen: look for one with both texts.
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: title }).filter({ hasText: description });
  await expect(toast.first()).toBeVisible();
}

async function fillSignIn(page: Page, email: string, password: string) {
  const form = signInForm(page);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Senha').fill(password);
  await form.getByRole('button', { name: 'Entrar', exact: true }).click();
}

async function fillSignUp(page: Page, fullName: string, email: string, password: string) {
  await page.getByRole('tab', { name: 'Cadastrar' }).click();
  const form = signUpForm(page);
  await form.getByLabel('Nome Completo').fill(fullName);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Senha').fill(password);
  await form.getByRole('button', { name: 'Cadastrar' }).click();
}

test.describe('/auth', () => {
  test('shows both tabs and goes back home', async ({ page, visit }) => {
    await visit('/auth');
    await expect(page.getByRole('tab', { name: 'Entrar' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'Cadastrar' }).click();
    await expect(signUpForm(page).getByLabel('Nome Completo')).toBeVisible();
    await page.getByRole('button', { name: 'Voltar para home' }).or(page.getByRole('link', { name: 'Voltar para home' })).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('validates the sign-in form with the specified messages', async ({ page, visit }) => {
    await visit('/auth');
    await fillSignIn(page, 'nao-e-email', 'demo123');
    await expectToast(page, 'Erro de validação', 'Email inválido');

    await fillSignIn(page, 'alguem@teste.dev', '123');
    await expectToast(page, 'Erro de validação', 'Senha deve ter no mínimo 6 caracteres');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('validates the sign-up form with the specified messages', async ({ page, visit }) => {
    await visit('/auth');
    await fillSignUp(page, 'Al', uniqueEmail(), 'senha123');
    await expectToast(page, 'Erro de validação', 'Nome deve ter no mínimo 3 caracteres');

    await fillSignUp(page, 'Alice Souza', 'invalido@', 'senha123');
    await expectToast(page, 'Erro de validação', 'Email inválido');

    await fillSignUp(page, 'Alice Souza', uniqueEmail(), '12345');
    await expectToast(page, 'Erro de validação', 'Senha deve ter no mínimo 6 caracteres');
  });

  test('rejects a wrong password with "Email ou senha incorretos"', async ({ page, visit }) => {
    await visit('/auth');
    await fillSignIn(page, DEMO_ACCOUNTS.patient, 'senha-errada');
    await expectToast(page, 'Erro ao entrar', 'Email ou senha incorretos');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('tells a deactivated account so, and does not let it in', async ({ page, visit, baseURL }) => {
    const email = await deactivatedAccount(baseURL, 'senha-desativada-1');
    await visit('/auth');
    await fillSignIn(page, email, 'senha-desativada-1');
    await expectToast(page, 'Erro ao entrar', 'Esta conta foi desativada. Fale com o administrador da plataforma.');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('answers a sign-up of a registered e-mail without telling whether it exists', async ({ page, visit }) => {
    await visit('/auth');
    await fillSignUp(page, 'Paulo Repetido', DEMO_ACCOUNTS.patient, 'senha-repetida-1');
    // The owner is told by e-mail; the form neither says "already registered" nor signs anyone in (issue 12, item 9).
    await expectToast(page, 'Verifique seu email', 'Este email já pode ter uma conta');
    await expect(page).toHaveURL(/\/auth$/);
  });

  const redirects = [
    ['admin', '/admin', 'Admin Portal'],
    ['clinicAdmin', '/clinica', 'Portal Clínica'],
    ['clinicStaff', '/clinica', 'Portal Clínica'],
    ['patient', '/paciente', 'Portal do Paciente'],
  ] as const;
  for (const [account, path, brand] of redirects) {
    test(`signs ${account} in and lands on ${path}`, async ({ page, visit }) => {
      await visit('/auth');
      await fillSignIn(page, DEMO_ACCOUNTS[account], DEMO_PASSWORD);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      // 'Login realizado!' belongs to /auth: it does not sit over the portal (issue 13).
      await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
      await expect(page.getByText(brand, { exact: true }).first()).toBeVisible();

      // A signed-in user who opens /auth again is sent to their dashboard.
      await page.goto('/auth');
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    });
  }

  test('signs up a new person on the platform, who goes on to onboarding and can sign out', async ({ page, visit }) => {
    await visit('/auth');
    await fillSignUp(page, 'Beatriz Nova', uniqueEmail(), 'senha-nova-1');
    await expect(page).toHaveURL(/\/onboarding$/);
    // 'Cadastro realizado!' belongs to /auth: it does not sit over onboarding (issue 13).
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
    await expect(page.getByText('Conectado como', { exact: false })).toBeVisible();
    await page.getByRole('button', { name: 'Sair' }).click();
    await expect(page.getByRole('tab', { name: 'Entrar' })).toBeVisible();
  });

  test('sends a password-reset link without telling whether the e-mail exists', async ({ page, visit }) => {
    await visit('/auth');
    await page.getByRole('button', { name: 'Esqueceu a senha?' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill(uniqueEmail());
    await dialog.getByRole('button', { name: 'Enviar link' }).click();
    await expectToast(page, 'Verifique seu email', 'Se houver uma conta com este email');
  });
});
