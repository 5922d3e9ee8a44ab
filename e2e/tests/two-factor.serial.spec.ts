import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { passkeyListSchema } from '@carteirinha/shared/contracts/passkeys';
import { addDemoSession, expect, test } from '../fixtures';
import { addVirtualAuthenticator, platformByName } from '../webauthn';

/**
 * What the authenticator app shows for the key printed on the enrolment screen, now or `stepsAhead` 30 s steps
 * later (the server accepts one step either side, and each code once).
 */
async function codeFor(secret: string, stepsAhead = 0): Promise<string> {
  const step = Math.floor(Date.now() / 30_000) + stepsAhead;
  return createOTP(base32.decode(secret.replace(/\s/g, '')), { digits: 6, period: 30 }).hotp(step);
}

/** Saves 'Exigir 2FA para administradores' in admin Configurações, on the platform's host at `origin` ('' for the base URL). */
async function setAdminTwoFactor(page: Page, required: boolean, origin = ''): Promise<void> {
  await page.goto(`${origin}/admin/configuracoes`);
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

// Also platform-wide: the demo admin must have a second factor, and enrols a passkey instead of TOTP (ADR 029). On
// `localhost`, the platform's host by name: WebAuthn refuses the suite's IP address as relying party.
test('an admin satisfies the two-factor requirement with a passkey, alone or after the password', async ({ page, baseURL }) => {
  const platform = platformByName(baseURL);
  const authenticator = await addVirtualAuthenticator(page);
  await addDemoSession(page.context(), 'admin', platform);
  await setAdminTwoFactor(page, true, platform);

  // The enrolment offers a passkey beside the authenticator app; the session that adds it has passed the factor.
  await page.goto(`${platform}/admin`);
  await expect(page.getByRole('heading', { name: 'Ative a verificação em duas etapas' })).toBeVisible();
  await page.getByRole('button', { name: 'Adicionar chave de acesso' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  expect(await authenticator.credentialCount()).toBe(1);

  // The passkey alone, with the device's verification, is two factors: straight to the portal.
  await page.context().clearCookies();
  await page.goto(`${platform}/auth`);
  await page.getByRole('button', { name: 'Entrar com passkey' }).click();
  await expect(page).toHaveURL(`${platform}/admin`);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // After the password, the passkey is the second factor ('Usar chave de segurança').
  await page.context().clearCookies();
  await page.goto(`${platform}/auth`);
  await page.getByLabel('Email').fill(DEMO_ACCOUNTS.admin);
  await page.getByLabel('Senha').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page.getByRole('button', { name: 'Usar chave de segurança' }).click();
  await expect(page).toHaveURL(`${platform}/admin`);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // Back to the demo's state: no requirement, and the demo admin without a passkey.
  await setAdminTwoFactor(page, false, platform);
  const listed = await page.request.get(`${platform}/api/passkeys`);
  expect(listed.status()).toBe(200);
  const ids = passkeyListSchema.parse(await listed.json()).passkeys.map((passkey) => passkey.id);
  expect(ids).toHaveLength(1);
  for (const id of ids) expect((await page.request.delete(`${platform}/api/passkeys/${id}`, { headers: { origin: platform } })).status()).toBe(204);
});
