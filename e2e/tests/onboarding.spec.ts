import type { Page } from '@playwright/test';
import { TRIAL_DAYS } from '@carteirinha/shared/constants';
import { formatDate } from '@carteirinha/shared/format';
import { expect, test } from '../fixtures';
import { TEST_PASSWORD, clinicOrigin, confirmEmail, expectToast, signUpOnPlatform, uniqueEmail, uniqueSlug, validCnpj } from '../tenancy';

function createForm(page: Page) {
  return page.getByRole('form', { name: 'Criar minha clínica' });
}

/** The validation message under a field, found through the field's own aria-describedby. */
async function expectFieldError(page: Page, label: string, message: string) {
  const field = createForm(page).getByLabel(label, { exact: true });
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await expect(createForm(page).getByText(message)).toBeVisible();
}

test.describe('sign-up on the platform host leads to onboarding', () => {
  test("'Criar Minha Plataforma' → sign-up → onboarding → a clinic in trial, admin in /clinica", async ({ page, visit, baseURL }) => {
    await visit('/');
    await page.getByRole('link', { name: 'Criar Minha Plataforma' }).click();
    await expect(page).toHaveURL(/\/auth\?tab=cadastrar$/);
    const signUp = page.getByRole('tabpanel', { name: 'Cadastrar' });
    const email = uniqueEmail();
    await signUp.getByLabel('Nome Completo').fill('Helena Fundadora');
    await signUp.getByLabel('Email').fill(email);
    await signUp.getByLabel('Senha').fill(TEST_PASSWORD);
    await signUp.getByRole('button', { name: 'Cadastrar' }).click();

    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vamos começar');
    await expect(page.getByRole('tab', { name: 'Criar minha clínica' })).toHaveAttribute('aria-selected', 'true');

    // A clinic is created by whoever holds the mailbox (ADR 006): the page asks for the e-mailed link first.
    const notice = page.getByTestId('confirm-email-notice');
    await expect(notice).toContainText(`Para criar a sua clínica, confirme primeiro o seu email: abra o link que enviamos para ${email}.`);
    await expect(createForm(page)).toHaveCount(0);
    await confirmEmail(baseURL, email);
    await page.reload();
    await expect(notice).toHaveCount(0);

    const slug = uniqueSlug('helena');
    const form = createForm(page);
    await form.getByLabel('Nome da clínica').fill('Clínica Helena');
    await form.getByLabel('CNPJ').fill(validCnpj());
    await form.getByLabel('Endereço').fill(slug);
    await expect(page.getByTestId('site-preview')).toHaveText(`Seu site: ${clinicOrigin(baseURL, slug)}`);
    await form.getByRole('button', { name: 'Criar Minha Plataforma' }).click();

    await expect(page).toHaveURL(/\/clinica$/);
    await expect(page.getByTestId('current-clinic')).toHaveText('Clínica Helena');
    await expect(page.getByTestId('current-user')).toContainText('Admin de Clínica');
    const trialEnd = formatDate(new Date(Date.now() + TRIAL_DAYS * 24 * 60 * 60 * 1000));
    await expect(page.getByTestId('trial-banner')).toHaveText(`Período de teste até ${trialEnd}`);

    // Onboarding is over: /onboarding and /auth now lead to the portal.
    await page.goto('/onboarding');
    await expect(page).toHaveURL(/\/clinica$/);
  });

  test('suggests the address from the name until the user types one', async ({ page, visit }) => {
    await signUpOnPlatform(page);
    await visit('/onboarding');
    const form = createForm(page);
    await form.getByLabel('Nome da clínica').fill('Clínica São José & Filhos');
    await expect(form.getByLabel('Endereço')).toHaveValue('clinica-sao-jose-filhos');
    await expect(page.getByTestId('site-preview')).toContainText('//clinica-sao-jose-filhos.localhost:');

    await form.getByLabel('Endereço').fill('saojose');
    await form.getByLabel('Nome da clínica').fill('Clínica São José Centro');
    await expect(form.getByLabel('Endereço')).toHaveValue('saojose');
  });

  test('shows each problem under its field: bad CNPJ, reserved or taken address, short name', async ({ page, visit }) => {
    await signUpOnPlatform(page);
    await visit('/onboarding');
    const form = createForm(page);
    await form.getByLabel('Nome da clínica').fill('Cl');
    await form.getByLabel('CNPJ').fill('11.111.111/1111-11');
    await form.getByLabel('Endereço').fill('admin');
    await form.getByRole('button', { name: 'Criar Minha Plataforma' }).click();
    await expectFieldError(page, 'Nome da clínica', 'Nome da clínica deve ter no mínimo 3 caracteres');
    await expectFieldError(page, 'CNPJ', 'CNPJ inválido');
    await expectFieldError(page, 'Endereço do site (subdomínio)', 'Este endereço é reservado. Escolha outro.');

    await form.getByLabel('Endereço').fill('Não Vale!');
    await expectFieldError(page, 'Endereço do site (subdomínio)', 'Use de 3 a 40 letras minúsculas');

    // Only the server knows that "demo" is taken: its 409 lands on the field too.
    await form.getByLabel('Nome da clínica').fill('Clínica Nova');
    await form.getByLabel('CNPJ').fill(validCnpj());
    await form.getByLabel('Endereço').fill('demo');
    await form.getByRole('button', { name: 'Criar Minha Plataforma' }).click();
    await expectToast(page, 'Erro ao criar clínica', 'Este endereço já está em uso. Escolha outro.');
    await expectFieldError(page, 'Endereço do site (subdomínio)', 'Este endereço já está em uso. Escolha outro.');
    await expect(page).toHaveURL(/\/onboarding$/);
  });

  test("'Sou paciente' finds a clinic and continues on its own site", async ({ page, visit, baseURL }) => {
    await signUpOnPlatform(page);
    await visit('/onboarding');
    await page.getByRole('tab', { name: 'Sou paciente' }).click();
    await expect(page.getByText('Pacientes se cadastram no site da própria clínica.', { exact: false })).toBeVisible();
    await page.getByLabel('Buscar clínica por nome ou cidade').fill('d');
    await expect(page.getByText('Digite ao menos 2 letras para buscar')).toBeVisible();
    await page.getByLabel('Buscar clínica por nome ou cidade').fill('demo');
    const results = page.getByRole('list', { name: 'Clínicas encontradas' });
    const demo = results.getByRole('listitem').filter({ hasText: 'Clínica Demo' });
    await expect(demo).toContainText('São Paulo / SP');
    await expect(demo.getByRole('link', { name: 'Continuar em Clínica Demo' })).toHaveAttribute(
      'href',
      `${clinicOrigin(baseURL, 'demo')}/auth?tab=cadastrar`,
    );

    await page.getByLabel('Buscar clínica por nome ou cidade').fill('zzzz-nenhuma');
    await expect(page.getByText('Nenhuma clínica encontrada')).toBeVisible();
  });

  test('a signed-in user with no role is always brought back to onboarding, and can sign out', async ({ page, visit }) => {
    await signUpOnPlatform(page);
    for (const path of ['/auth', '/paciente', '/clinica/configuracoes', '/admin']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/onboarding$/);
    }
    await visit('/onboarding');
    await page.getByRole('button', { name: 'Sair' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Entrar' })).toBeVisible();
    await page.goto('/onboarding');
    await expect(page).toHaveURL(/\/auth$/);
  });
});
