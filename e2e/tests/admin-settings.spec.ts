import type { Page } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { platformSettingsSchema } from '@carteirinha/shared/contracts/settings';
import { messages } from '@carteirinha/shared/messages';
import { expect, test } from '../fixtures';
import { E2E_SMTP_PORT } from '../ports';

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
    // The demo seed's choices are said on the screen, once.
    await expect(page.getByRole('complementary', { name: 'Dados de demonstração' })).toContainText('a autenticação em dois fatores começou desativada');
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
    // Stored as digits, shown masked (issue 13 item 7).
    expect(saved).toMatchObject({ phone: '1140028922', notifyCancellations: !wasOn, sessionTimeoutMinutes: 45, backupRetentionDays: 21 });

    // Put the shared demo database back as it was for the other tests.
    await page.getByLabel('Timeout de sessão (minutos)').fill(String(original.sessionTimeoutMinutes));
    await page.getByLabel('Retenção (dias)').fill(String(original.backupRetentionDays));
    await toggle(page, 'Cancelamentos').click();
    await page.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    expect(await readSettings(page)).toMatchObject({ sessionTimeoutMinutes: original.sessionTimeoutMinutes, notifyCancellations: wasOn });
  });

  test('speaks to a platform admin, and keeps Salvar Alterações in reach on a phone', async ({ page }) => {
    for (const developerText of ['MAIN_DOMAIN', 'GOOGLE_CLIENT', 'desenvolvimento']) {
      await expect(page.getByRole('main')).not.toContainText(developerText);
    }
    await expect(page.getByRole('main')).toContainText('O login com Google ainda não foi configurado neste servidor');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const save = page.getByRole('region', { name: 'Salvar configurações' }).getByRole('button', { name: 'Salvar Alterações' });
    await expect(save).toBeInViewport();
    const bar = page.getByRole('region', { name: 'Salvar configurações' });
    await expect(bar).toContainText('Nenhuma alteração pendente');
    const phone = page.getByLabel('Telefone');
    await phone.fill((await phone.inputValue()) === '(11) 3333-1234' ? '(11) 3333-4321' : '(11) 3333-1234');
    await expect(bar).toContainText('Há alterações não salvas');
    // Half-way down the form the bar is still at the bottom of the screen.
    await page.getByLabel('Timeout de sessão (minutos)').scrollIntoViewIfNeeded();
    await expect(save).toBeInViewport();
    const box = await bar.boundingBox();
    expect(box && box.y + box.height).toBeGreaterThan(844 - 40);
  });

  test('lays the sections out in balanced rows: no card alone, none half empty', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const cards = await page
      .getByRole('form', { name: 'Configurações' })
      .locator('[data-slot="card"]')
      .evaluateAll((elements) =>
        elements.map((card) => {
          const box = card.getBoundingClientRect();
          const content = card.lastElementChild?.lastElementChild?.getBoundingClientRect();
          return { top: box.top, width: box.width, emptyBelow: box.bottom - (content?.bottom ?? box.bottom) };
        }),
      );
    expect(cards).toHaveLength(5);
    const fullWidth = Math.max(...cards.map((card) => card.width));
    for (const card of cards) {
      // A card spans the width or shares its row with another one.
      if (card.width < fullWidth - 1) expect(cards.filter((other) => Math.abs(other.top - card.top) < 1)).toHaveLength(2);
      // Its padding and little more below its last field.
      expect(card.emptyBelow).toBeLessThan(80);
    }
  });

  test('Telefone is masked when left, stored as digits and shown masked again (issue 13 item 7)', async ({ page }) => {
    const phone = page.getByLabel('Telefone');
    await phone.fill('11987654321');
    await phone.blur();
    await expect(phone).toHaveValue('(11) 98765-4321');
    await page.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    expect((await readSettings(page)).phone).toBe('11987654321');
    await page.reload();
    await expect(page.getByLabel('Telefone')).toHaveValue('(11) 98765-4321');

    // A wrong number keeps what was typed, with the shared validator's message; nothing is saved.
    await phone.fill('98765');
    await phone.blur();
    await expect(phone).toHaveValue('98765');
    await page.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(page.getByText('Telefone inválido').first()).toBeVisible();
    expect((await readSettings(page)).phone).toBe('11987654321');
  });

  test('asks before leaving with unsaved changes; Salvar Alterações waits for a change (issue 13 item 4)', async ({ page, context }) => {
    const save = page.getByRole('button', { name: 'Salvar Alterações' });
    await expect(save).toBeDisabled();
    const platformName = page.getByLabel('Nome da Plataforma');
    const original = await platformName.inputValue();
    await platformName.fill(`${original} (rascunho)`);
    await expect(save).toBeEnabled();

    // A link inside the app asks; 'Continuar editando' keeps the page and what was typed.
    await page.getByRole('link', { name: 'Clínicas' }).click();
    const question = page.getByRole('alertdialog', { name: 'Sair sem salvar?' });
    await expect(question).toBeVisible();
    await question.getByRole('button', { name: 'Continuar editando' }).click();
    await expect(page).toHaveURL(/\/admin\/configuracoes$/);
    await expect(platformName).toHaveValue(`${original} (rascunho)`);

    // Undoing the change needs no question, and nothing to save.
    await platformName.fill(original);
    await expect(save).toBeDisabled();
    await platformName.fill(`${original} (rascunho)`);

    // 'Sair sem salvar' leaves, and nothing was saved.
    await page.getByRole('link', { name: 'Clínicas' }).click();
    await page.getByRole('alertdialog', { name: 'Sair sem salvar?' }).getByRole('button', { name: 'Sair sem salvar' }).click();
    await expect(page).toHaveURL(/\/admin\/clinicas$/);
    expect((await readSettings(page)).platformName).toBe(original);

    // A reload or a closed tab gets the browser's own question (beforeunload), in a tab of its own.
    const tab = await context.newPage();
    await tab.goto('/admin/configuracoes');
    // A click first: Chromium shows the question only on a page the user has interacted with. Then the draft must be
    // rendered (the save button wakes) and the guard's effect run (after the next frame) before the tab closes.
    await tab.getByLabel('Nome da Plataforma').click();
    await tab.getByLabel('Nome da Plataforma').fill(`${original} (rascunho)`);
    await expect(tab.getByRole('button', { name: 'Salvar Alterações' })).toBeEnabled();
    await tab.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    const asked = tab.waitForEvent('dialog');
    const closed = tab.waitForEvent('close');
    await tab.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    // Answered, and the tab gone, within the test: the next test reuses the context (playwright.config.ts).
    await dialog.accept();
    await closed;
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

  test('Tamanho mínimo da senha: never below the specification, raised by the admin, lowered with the password (issue 12 item 8)', async ({ page }) => {
    const original = await readSettings(page);
    const field = page.getByLabel('Tamanho mínimo da senha');
    await expect(field).toHaveValue(String(original.passwordMinLength));
    await field.fill('5');
    await page.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(page.getByText('Tamanho mínimo da senha deve ser entre 6 e 64 caracteres').first()).toBeVisible();
    expect(await readSettings(page)).toEqual(original);

    // 10: every password the other browser tests sign up with is longer, so they are not disturbed meanwhile.
    await field.fill('10');
    await page.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    expect((await readSettings(page)).passwordMinLength).toBe(10);

    await field.fill(String(original.passwordMinLength));
    await page.getByRole('button', { name: 'Salvar Alterações' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirme sua senha' });
    await confirm.getByLabel('Sua senha').fill(DEMO_PASSWORD);
    await confirm.getByRole('button', { name: 'Salvar' }).click();
    await expect(confirm).toBeHidden();
    expect((await readSettings(page)).passwordMinLength).toBe(original.passwordMinLength);
  });

  test('Testar Conexão talks to a real SMTP server and reports both outcomes', async ({ page }) => {
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      onAuth: (auth, _session, callback) =>
        auth.username === 'mailer' && auth.password === 'senha-smtp' ? callback(null, { user: 'mailer' }) : callback(new Error('Invalid username or password')),
      logger: false,
    });
    await new Promise<void>((resolve) => server.listen(E2E_SMTP_PORT, '127.0.0.1', resolve));
    try {
      await page.getByLabel('Servidor SMTP').fill('127.0.0.1');
      await page.getByLabel('Porta').fill(String(E2E_SMTP_PORT));
      await page.getByLabel('Usuário').fill('mailer');
      await page.getByLabel('Senha', { exact: true }).fill('senha-smtp');
      await page.getByRole('button', { name: 'Testar Conexão' }).click();
      await expect(page.getByText('Conexão SMTP bem-sucedida')).toBeVisible();

      await page.getByLabel('Senha', { exact: true }).fill('errada');
      await page.getByRole('button', { name: 'Testar Conexão' }).click();
      // The kind of failure in pt-BR, not the server's own words.
      await expect(page.getByText(`Falha na conexão SMTP: ${messages.settings.smtpFailure.authentication}`)).toBeVisible();

      // Another port on the same machine is no SMTP server: refused without connecting.
      await page.getByLabel('Porta').fill('5432');
      await page.getByRole('button', { name: 'Testar Conexão' }).click();
      await expect(page.getByText(/Falha na conexão SMTP: porta não permitida/)).toBeVisible();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // Testing saves nothing: e-mail still goes where it went.
    expect((await readSettings(page)).smtpHost).toBeNull();
  });

  test('Fazer Backup Agora writes a backup and the last-backup line shows it', async ({ page }) => {
    await page.getByRole('button', { name: 'Fazer Backup Agora' }).click();
    // A real dump of the whole database: on a busy 2-core machine it takes longer than a page's usual answer (past the
    // 15 s a page's request gets, 27/11: the page now waits for the dump).
    await expect(page.getByText('Backup concluído com sucesso!')).toBeVisible({ timeout: 60_000 });
    const { lastBackup } = await readSettings(page);
    expect(lastBackup?.sizeBytes).toBeGreaterThan(1000);
    await expect(page.getByTestId('last-backup')).toHaveText(/^Último backup: \d{2}\/\d{2}\/\d{4}/);
  });
});
