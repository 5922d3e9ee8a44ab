import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { expect, test } from '../fixtures';

/**
 * What the authenticator app shows for the key printed on the enrolment screen, now or `stepsAhead` 30 s steps
 * later (the server accepts one step either side, and each code once).
 */
async function codeFor(secret: string, stepsAhead = 0): Promise<string> {
  const step = Math.floor(Date.now() / 30_000) + stepsAhead;
  return createOTP(base32.decode(secret.replace(/\s/g, '')), { digits: 6, period: 30 }).hotp(step);
}

async function setAdminTwoFactor(page: Page, required: boolean): Promise<void> {
  await page.goto('/admin/configuracoes');
  const toggle = page.getByRole('switch', { name: 'Autenticação em dois fatores' });
  if ((await toggle.getAttribute('aria-checked')) !== String(required)) await toggle.click();
  await page.getByRole('button', { name: 'Salvar Alterações' }).click();
  if (!required) {
    // Turning two-factor off weakens security: the password is asked again.
    const confirm = page.getByRole('dialog', { name: 'Confirme sua senha' });
    await confirm.getByLabel('Sua senha').fill(DEMO_PASSWORD);
    await confirm.getByRole('button', { name: 'Salvar' }).click();
  }
  await expect(page.getByText('Configurações salvas com sucesso!')).toBeVisible();
}

// Turns two-factor on for every admin, so it runs in its own Playwright project after all other tests.
test('an admin enrols in two-factor when the platform requires it, and then signs in with a code', async ({ page, signInAs }) => {
  await signInAs('admin');
  await setAdminTwoFactor(page, true);

  // The portal is replaced by the enrolment until a factor is set up.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Ative a verificação em duas etapas' })).toBeVisible();
  await page.getByLabel('Confirme sua senha para continuar').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByTestId('backup-codes').getByRole('listitem')).toHaveCount(10);
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';

  await page.getByLabel('Código de verificação').fill('000000');
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText('Código inválido ou expirado')).toBeVisible();
  await page.getByLabel('Código de verificação').fill(await codeFor(secret));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText('Verificação em duas etapas ativada!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // Signing in again asks for the code after the password.
  await page.context().clearCookies();
  await page.goto('/auth');
  await page.getByLabel('Email').fill(DEMO_ACCOUNTS.admin);
  await page.getByLabel('Senha').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Verificação em duas etapas' })).toBeVisible();
  await page.getByLabel('Código de verificação').fill(await codeFor(secret, 1));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // Back to the demo's state: no requirement, and the demo admin without a factor.
  await setAdminTwoFactor(page, false);
  const disabled = await page.request.post('/api/auth/two-factor/disable', {
    headers: { origin: new URL(page.url()).origin },
    data: { password: DEMO_PASSWORD },
  });
  expect(disabled.status()).toBe(200);
});
