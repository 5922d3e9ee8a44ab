import { expect, test } from '../fixtures';
import { TEST_PASSWORD, clinicOrigin, uniqueEmail } from '../tenancy';
import { addVirtualAuthenticator } from '../webauthn';

// A patient on a clinic's own host (ADR 029): signs up with the captcha on (the form solves it in the background),
// adds a passkey at 'Segurança', signs out, sees the pt-BR message of a cancelled ceremony, and signs in with the
// passkey alone.
test('a patient adds a passkey on the clinic host, signs out and signs in with it alone', async ({ page, baseURL }) => {
  const demo = clinicOrigin(baseURL, 'demo');
  const authenticator = await addVirtualAuthenticator(page);

  await page.goto(`${demo}/auth?tab=cadastrar`);
  const signUp = page.getByRole('tabpanel', { name: 'Cadastrar' });
  await signUp.getByLabel('Nome Completo').fill('Paciente da Passkey');
  await signUp.getByLabel('Email').fill(uniqueEmail());
  await signUp.getByLabel('Senha').fill(TEST_PASSWORD);
  // The proof of work ran while the form was filled: the server refuses a sign-up without it.
  await expect(signUp.getByTestId('captcha-status')).toHaveText('Verificação de segurança concluída.');
  await signUp.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(`${demo}/paciente`);

  await page.getByRole('link', { name: 'Segurança' }).click();
  await expect(page.getByRole('heading', { name: 'Segurança', level: 1 })).toBeVisible();
  await expect(page.getByText('Nenhuma chave de acesso cadastrada.')).toBeVisible();
  await page.getByLabel('Nome da chave').fill('Celular');
  await page.getByRole('button', { name: 'Adicionar chave de acesso' }).click();
  await expect(page.getByText('Chave de acesso adicionada!')).toBeVisible();
  const passkeys = page.getByRole('list', { name: 'Chaves de acesso' });
  await expect(passkeys.getByRole('listitem')).toHaveCount(1);
  await expect(passkeys.getByRole('listitem')).toContainText('Celular');
  await expect(passkeys.getByRole('listitem')).toContainText('demo.localhost');
  expect(await authenticator.credentialCount()).toBe(1);

  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).not.toHaveURL(/\/paciente/);
  await page.goto(`${demo}/auth`);

  // The device's PIN or biometrics refused: the ceremony ends, says why, and offers the password.
  await authenticator.setUserVerified(false);
  await page.getByRole('button', { name: 'Entrar com passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Operação cancelada' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Entrar com email e senha' })).toBeVisible();
  await expect(page).toHaveURL(`${demo}/auth`);

  await authenticator.setUserVerified(true);
  await page.getByRole('button', { name: 'Entrar com passkey' }).click();
  await expect(page).toHaveURL(`${demo}/paciente`);
  await expect(page.getByRole('link', { name: 'Segurança' })).toBeVisible();
});
