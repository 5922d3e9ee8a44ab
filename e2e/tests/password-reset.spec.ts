import { request as playwrightRequest } from '@playwright/test';
import { outboxEmailSchema } from '@carteirinha/shared/contracts/outbox';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { z } from 'zod';
import { expect, test } from '../fixtures';

/** Reads the newest e-mail to an address from the development outbox, as the demo admin. */
async function latestEmailTo(baseURL: string, to: string) {
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    expect((await admin.post('/api/auth/sign-in/email', { data: { email: DEMO_ACCOUNTS.admin, password: DEMO_PASSWORD } })).status()).toBe(200);
    const response = await admin.get(`/api/admin/outbox?q=${encodeURIComponent(to)}`);
    const page = z.object({ items: z.array(outboxEmailSchema) }).parse(await response.json());
    const email = page.items[0];
    if (!email) throw new Error(`no e-mail to ${to}`);
    return email;
  } finally {
    await admin.dispose();
  }
}

test('a forgotten password is reset through the e-mailed link', async ({ page, visit, baseURL }) => {
  const email = `reset.${Date.now()}@teste.dev`;
  await visit('/auth');
  await page.getByRole('tab', { name: 'Cadastrar' }).click();
  const signUp = page.getByRole('tabpanel', { name: 'Cadastrar' });
  await signUp.getByLabel('Nome Completo').fill('Rita Esquecida');
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Senha').fill('senha-antiga');
  await signUp.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page.getByRole('tab', { name: 'Entrar' })).toBeVisible();

  await page.getByRole('button', { name: 'Esqueceu a senha?' }).click();
  await page.getByRole('dialog').getByLabel('Email').fill(email);
  await page.getByRole('dialog').getByRole('button', { name: 'Enviar link' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Verifique seu email' }).first()).toBeVisible();

  const resetMail = await latestEmailTo(baseURL ?? '', email);
  expect(resetMail.subject).toBe('Redefinição de senha');
  const link = new URL(/https?:\/\/\S+/.exec(resetMail.text)?.[0] ?? '');
  await visit(`${link.pathname}${link.search}`);
  await page.getByLabel('Nova senha').fill('senha-nova-123');
  await page.getByLabel('Confirmar senha').fill('senha-nova-123');
  await page.getByRole('button', { name: 'Redefinir senha' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Senha redefinida!' }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  const signIn = page.getByRole('tabpanel', { name: 'Entrar' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Senha').fill('senha-nova-123');
  await signIn.getByRole('button', { name: 'Entrar' }).click();
  // Signed in with the new password: an account without a clinic yet goes on to onboarding.
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page.getByText(`Conectado como ${email}`)).toBeVisible();
});

test('an invalid reset link says so and offers the way back', async ({ page, visit }) => {
  await visit('/auth/redefinir-senha?token=invalido');
  await page.getByLabel('Nova senha').fill('senha-nova-123');
  await page.getByLabel('Confirmar senha').fill('senha-nova-123');
  await page.getByRole('button', { name: 'Redefinir senha' }).click();
  await expect(page.getByTestId('reset-invalid-token')).toContainText('Link inválido ou expirado');
  await expect(page.getByRole('link', { name: 'Voltar para o login' })).toBeVisible();
});
