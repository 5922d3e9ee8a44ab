import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { platformSettingsSchema } from '@carteirinha/shared/contracts/settings';
import { expect, test } from '../fixtures';

const SAVED = 'Configurações salvas com sucesso!';

async function readSettings(page: Page) {
  const response = await page.request.get('/api/admin/settings');
  expect(response.status()).toBe(200);
  return platformSettingsSchema.parse(await response.json());
}

function toggle(page: Page, label: string) {
  return page.getByRole('switch', { name: label });
}

test.describe('/admin/configuracoes', () => {
  // One settings row for the whole platform: these tests read and write it one after another.
  test.describe.configure({ mode: 'serial' });

  test.beforeEach(async ({ signInAs, visit }) => {
    await signInAs('admin');
    await visit('/admin/configuracoes');
  });

  test('saves every section and reads it back after a reload', async ({ page }) => {
    const original = await readSettings(page);
    await expect(page.getByRole('heading', { name: 'Configurações', level: 1 })).toBeVisible();
    // The demo seed's choices are said on the screen.
    await expect(page.getByText('Desativada pelos dados de demonstração')).toBeVisible();
    await expect(page.getByLabel('Domínio Principal')).toHaveAttribute('readonly', '');

    await page.getByLabel('Telefone').fill('(11) 4002-8922');
    const cancellations = toggle(page, 'Cancelamentos');
    const wasOn = (await cancellations.getAttribute('aria-checked')) === 'true';
    await cancellations.click();
    await page.getByLabel('Timeout de sessão (minutos)').fill('45');
    await page.getByLabel('Retenção (dias)').fill('21');
    await page.getByRole('button', { name: 'Salvar Alterações' }).click();

    // A longer timeout weakens security: the password is asked again, and a wrong one saves nothing.
    const confirm = page.getByRole('dialog', { name: 'Confirme sua senha' });
    await confirm.getByLabel('Sua senha').fill('errada');
    await confirm.getByRole('button', { name: 'Salvar' }).click();
    await expect(confirm.getByText('Senha incorreta')).toBeVisible();
    expect((await readSettings(page)).sessionTimeoutMinutes).toBe(original.sessionTimeoutMinutes);
    await confirm.getByLabel('Sua senha').fill(DEMO_PASSWORD);
    await confirm.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(confirm).toBeHidden();

    await page.reload();
    await expect(page.getByLabel('Telefone')).toHaveValue('(11) 4002-8922');
    await expect(toggle(page, 'Cancelamentos')).toHaveAttribute('aria-checked', String(!wasOn));
    await expect(page.getByLabel('Timeout de sessão (minutos)')).toHaveValue('45');
    await expect(page.getByLabel('Retenção (dias)')).toHaveValue('21');
    const saved = await readSettings(page);
    expect(saved).toMatchObject({ phone: '(11) 4002-8922', notifyCancellations: !wasOn, sessionTimeoutMinutes: 45, backupRetentionDays: 21 });

    // Put the shared demo database back as it was for the other tests.
    await page.getByLabel('Timeout de sessão (minutos)').fill(String(original.sessionTimeoutMinutes));
    await page.getByLabel('Retenção (dias)').fill(String(original.backupRetentionDays));
    await toggle(page, 'Cancelamentos').click();
    await page.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    expect(await readSettings(page)).toMatchObject({ sessionTimeoutMinutes: original.sessionTimeoutMinutes, notifyCancellations: wasOn });
  });

  test('refuses a bad value with its message and saves nothing', async ({ page }) => {
    const before = await readSettings(page);
    await page.getByLabel('Timeout de sessão (minutos)').fill('2');
    await page.getByLabel('Email de Suporte').fill('suporte@');
    await page.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(page.getByText('Timeout deve ser entre 5 e 720 minutos').first()).toBeVisible();
    await expect(page.getByText('Email inválido').first()).toBeVisible();
    expect(await readSettings(page)).toEqual(before);
  });

  test('Testar Conexão talks to a real SMTP server and reports both outcomes', async ({ page }) => {
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      onAuth: (auth, _session, callback) =>
        auth.username === 'mailer' && auth.password === 'senha-smtp' ? callback(null, { user: 'mailer' }) : callback(new Error('Invalid username or password')),
      logger: false,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as AddressInfo).port;
    try {
      await page.getByLabel('Servidor SMTP').fill('127.0.0.1');
      await page.getByLabel('Porta').fill(String(port));
      await page.getByLabel('Usuário').fill('mailer');
      await page.getByLabel('Senha', { exact: true }).fill('senha-smtp');
      await page.getByRole('button', { name: 'Testar Conexão' }).click();
      await expect(page.getByText('Conexão SMTP bem-sucedida')).toBeVisible();

      await page.getByLabel('Senha', { exact: true }).fill('errada');
      await page.getByRole('button', { name: 'Testar Conexão' }).click();
      await expect(page.getByText(/Falha na conexão SMTP: .*Invalid/)).toBeVisible();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // Testing saves nothing: e-mail still goes where it went.
    expect((await readSettings(page)).smtpHost).toBeNull();
  });

  test('Fazer Backup Agora writes a backup and the last-backup line shows it', async ({ page }) => {
    await page.getByRole('button', { name: 'Fazer Backup Agora' }).click();
    await expect(page.getByText('Backup concluído com sucesso!')).toBeVisible();
    const { lastBackup } = await readSettings(page);
    expect(lastBackup?.sizeBytes).toBeGreaterThan(1000);
    await expect(page.getByTestId('last-backup')).toHaveText(/^Último backup: \d{2}\/\d{2}\/\d{4}/);
  });
});
