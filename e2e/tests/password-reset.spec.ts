import { expect, test } from '../fixtures';
import { latestEmailTo, linkPathIn } from '../tenancy';

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

  // The link is built from the account's home (PUBLIC_URL for an account without a clinic), never from the request.
  const resetMail = await latestEmailTo(baseURL, email, 'Redefinição de senha');
  await visit(linkPathIn(resetMail));
  await page.getByLabel('Nova senha').fill('senha-nova-123');
  await page.getByLabel('Confirmar senha').fill('senha-nova-123');
  await page.getByRole('button', { name: 'Redefinir senha' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Senha redefinida!' }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  const signIn = page.getByRole('tabpanel', { name: 'Entrar' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Senha').fill('senha-nova-123');
  await signIn.getByRole('button', { name: 'Entrar', exact: true }).click();
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
