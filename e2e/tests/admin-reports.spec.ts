import fs from 'node:fs/promises';
import type { Download, Locator, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { reportSummarySchema, type ReportSummary } from '@carteirinha/shared/contracts/reports';
import { DEMO_ACCOUNTS } from '@carteirinha/shared/constants';
import { expect, test } from '../fixtures';
import { captchaHeaders } from '../captcha';
import { dismissToasts } from '../tenancy';

/** A period nobody creates anything in while the tests run (the calendars go back to 2000). */
const EMPTY = { from: '2001-01-01', to: '2001-12-31' };
const MONTHS = ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'];
const BOM = '\uFEFF';

/** Today's calendar day in São Paulo, as the period filter takes it (yyyy-MM-dd). */
function todayInSaoPaulo(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

function reportCard(page: Page, title: 'Clínicas' | 'Usuários' | 'Planos') {
  return page.getByRole('region', { name: title, exact: true });
}

async function expectToast(page: Page, title: string) {
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: title }).first()).toBeVisible();
}

/** One of the dialog's two calendars, by its label. */
function calendar(dialog: Locator, label: 'Data Inicial' | 'Data Final') {
  return dialog.getByRole('group', { name: label });
}

/** Picks a day (yyyy-MM-dd) on a calendar as a person would: the year, the month, then the day. */
async function pickDay(dialog: Locator, label: 'Data Inicial' | 'Data Final', day: string) {
  const [year, month, date] = day.split('-').map(Number);
  const picker = calendar(dialog, label);
  await picker.getByRole('combobox', { name: 'Escolha o ano' }).selectOption(String(year));
  await picker.getByRole('combobox', { name: 'Escolha o mês' }).selectOption(String((month ?? 1) - 1));
  await picker.getByRole('button', { name: new RegExp(`\\b${date} de ${MONTHS[(month ?? 1) - 1]} de ${year}`) }).click();
  const [y, mo, d] = day.split('-');
  await expect(picker.getByTestId('chosen-date')).toHaveText(`Escolhida: ${d}/${mo}/${y}`);
}

/** Waits for the page's own summary request for the period (or for all time) and returns what it answered. */
function summaryAnswer(page: Page, period: { from: string; to: string } | null): Promise<ReportSummary> {
  return page
    .waitForResponse((r) => {
      const url = new URL(r.url());
      if (url.pathname !== '/api/admin/reports/summary') return false;
      return period ? url.searchParams.get('from') === period.from && url.searchParams.get('to') === period.to : !url.searchParams.has('from');
    })
    .then(async (response) => reportSummarySchema.parse(await response.json()));
}

async function expectFigures(page: Page, summary: ReportSummary) {
  await expect(reportCard(page, 'Clínicas').getByTestId('report-count')).toHaveText(String(summary.clinics));
  await expect(reportCard(page, 'Usuários').getByTestId('report-count')).toHaveText(String(summary.users));
  await expect(reportCard(page, 'Planos').getByTestId('report-count')).toHaveText(String(summary.plans));
  const stats = page.getByRole('region', { name: 'Estatísticas Gerais' });
  await expect(stats.getByRole('group', { name: 'Total de Clínicas' })).toContainText(String(summary.clinics));
  await expect(stats.getByRole('group', { name: 'Total de Usuários' })).toContainText(String(summary.users));
  await expect(stats.getByRole('group', { name: 'Total de Planos' })).toContainText(String(summary.plans));
  await expect(stats.getByRole('group', { name: 'Planos Ativos' })).toContainText(String(summary.activePlans));
}

async function choosePeriod(page: Page, from: string, to: string) {
  await page.getByRole('button', { name: 'Filtrar Período' }).click();
  const dialog = page.getByRole('dialog', { name: 'Filtrar por Período' });
  await pickDay(dialog, 'Data Inicial', from);
  await pickDay(dialog, 'Data Final', to);
  await dialog.getByRole('button', { name: 'Aplicar Filtro' }).click();
  return dialog;
}

async function signUpUser(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, email: string) {
  const context = await playwright.request.newContext({ baseURL });
  try {
    const response = await context.post('/api/auth/sign-up/email', { headers: await captchaHeaders(context), data: { email, password: 'senha-e2e-123', name: 'Pessoa Relatório' } });
    expect(response.status()).toBe(200);
  } finally {
    await context.dispose();
  }
}

/** Reads a downloaded CSV as text, byte order mark included. */
async function readDownload(download: Download): Promise<string> {
  const path = await download.path();
  return fs.readFile(path, 'utf8');
}

test.describe('/admin/relatorios', () => {
  test.beforeEach(async ({ signInAs }) => {
    await signInAs('admin');
  });

  test('shows the all-time figures the server answered', async ({ page, visit }) => {
    const answered = summaryAnswer(page, null);
    await visit('/admin/relatorios');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Relatórios');
    const summary = await answered;
    await expectFigures(page, summary);
    // The demo seed: one clinic, four accounts, the platform's three plans.
    expect(summary.clinics).toBeGreaterThanOrEqual(1);
    expect(summary.users).toBeGreaterThanOrEqual(4);
    expect(summary.plans).toBeGreaterThanOrEqual(1);
    for (const title of ['Clínicas', 'Usuários', 'Planos'] as const) {
      await expect(reportCard(page, title).getByRole('button', { name: 'Exportar CSV' })).toBeEnabled();
      await expect(reportCard(page, title).getByRole('button', { name: 'Exportar PDF' })).toBeEnabled();
    }
  });

  test('validates the period with the specified messages', async ({ page, visit }) => {
    await visit('/admin/relatorios');
    await page.getByRole('button', { name: 'Filtrar Período' }).click();
    const dialog = page.getByRole('dialog', { name: 'Filtrar por Período' });
    await expect(calendar(dialog, 'Data Inicial').getByTestId('chosen-date')).toHaveText('Nenhuma data escolhida');

    await dialog.getByRole('button', { name: 'Aplicar Filtro' }).click();
    await expectToast(page, 'Por favor, selecione ambas as datas');
    await dismissToasts(page);

    // Each step starts with no toast on screen: its assertion can only pass on the toast it caused.
    await pickDay(dialog, 'Data Inicial', '2025-03-10');
    await dialog.getByRole('button', { name: 'Aplicar Filtro' }).click();
    await expectToast(page, 'Por favor, selecione ambas as datas');
    await dismissToasts(page);

    await pickDay(dialog, 'Data Final', '2025-03-01');
    await dialog.getByRole('button', { name: 'Aplicar Filtro' }).click();
    await expectToast(page, 'Data inicial não pode ser maior que a data final');
    // Nothing was applied.
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Período:' })).toHaveCount(0);
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/relatorios$/);

    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
  });

  test('applies a period: the figures, the address and a reload follow it', async ({ page, visit }) => {
    const allTime = summaryAnswer(page, null);
    await visit('/admin/relatorios');
    await allTime;

    const answered = summaryAnswer(page, EMPTY);
    const dialog = await choosePeriod(page, EMPTY.from, EMPTY.to);
    await expectToast(page, 'Período: 01/01/2001 até 31/12/2001');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\?de=2001-01-01&ate=2001-12-31$/);
    await expect(page.getByRole('main').getByText('Período: 01/01/2001 até 31/12/2001', { exact: true })).toBeVisible();
    const empty = await answered;
    expect(empty).toEqual({ clinics: 0, users: 0, plans: 0, activePlans: 0 });
    await expectFigures(page, empty);

    await page.reload();
    await expect(page.getByRole('main').getByText('Período: 01/01/2001 até 31/12/2001', { exact: true })).toBeVisible();
    await expect(reportCard(page, 'Clínicas').getByTestId('report-count')).toHaveText('0');

    // The dialog opens on the period in use: each calendar on its day, selected.
    await page.getByRole('button', { name: 'Filtrar Período' }).click();
    const reopened = page.getByRole('dialog', { name: 'Filtrar por Período' });
    await expect(calendar(reopened, 'Data Inicial').getByTestId('chosen-date')).toHaveText('Escolhida: 01/01/2001');
    await expect(calendar(reopened, 'Data Inicial').getByRole('gridcell', { selected: true })).toHaveText('1');
    await expect(calendar(reopened, 'Data Final').getByTestId('chosen-date')).toHaveText('Escolhida: 31/12/2001');
    await expect(calendar(reopened, 'Data Final').getByRole('gridcell', { selected: true })).toHaveText('31');
    await page.keyboard.press('Escape');

    const cleared = summaryAnswer(page, null);
    await page.getByRole('button', { name: 'Limpar filtro' }).click();
    await expect(page).toHaveURL(/\/admin\/relatorios$/);
    const summary = await cleared;
    expect(summary.clinics).toBeGreaterThanOrEqual(1);
    await expectFigures(page, summary);
  });

  test('counts and exports only what was created in the period', async ({ page, visit, playwright, baseURL }) => {
    const email = `e2e.relatorio.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@teste.dev`;
    await signUpUser(playwright, baseURL, email);
    const today = todayInSaoPaulo();
    await visit(`/admin/relatorios?de=${today}&ate=${today}`);
    await expect(reportCard(page, 'Usuários').getByTestId('report-count')).not.toHaveText(/^(0|—)$/);

    const downloading = page.waitForEvent('download');
    const requested = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/admin/reports/usuarios.csv');
    await reportCard(page, 'Usuários').getByRole('button', { name: 'Exportar CSV' }).click();
    expect(new URL((await requested).url()).search).toBe(`?from=${today}&to=${today}`);
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('relatorio-usuarios.csv');
    const csv = await readDownload(download);
    expect(csv.startsWith(BOM)).toBe(true);
    const lines = csv.slice(1).trim().split(/\r?\n/);
    expect(lines[0]).toBe('Email;Função;Criado em');
    expect(lines.some((line) => line.startsWith(`${email};`))).toBe(true);
    // Every row of the file was created within the period.
    const [day, month, year] = today.split('-').reverse();
    for (const line of lines.slice(1)) expect(line.endsWith(`;${day}/${month}/${year}`)).toBe(true);
  });

  test('exports the clinics as CSV with the specified columns, and says so once the file is saved', async ({ page, visit }) => {
    await visit('/admin/relatorios');
    const card = reportCard(page, 'Clínicas');
    await expect(card.getByTestId('report-count')).not.toHaveText(/^(0|—)$/);

    // The server is held until the page has had time to show a toast too early.
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/reports/clinicas.csv', async (route) => {
      await held;
      await route.continue();
    });
    const downloading = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Exportar CSV' }).click();
    await expect(card.getByRole('button', { name: 'Exportando...' })).toBeDisabled();
    await page.waitForTimeout(500);
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Relatório exportado com sucesso!' })).toHaveCount(0);
    release?.();
    const download = await downloading;
    await expectToast(page, 'Relatório exportado com sucesso!');
    expect(download.suggestedFilename()).toBe('relatorio-clinicas.csv');

    const csv = await readDownload(download);
    expect(csv.startsWith(BOM)).toBe(true);
    const lines = csv.slice(1).trim().split(/\r?\n/);
    expect(lines[0]).toBe('Nome;CNPJ;Status;Cidade;Estado;Criado');
    const demo = lines.find((line) => line.startsWith('Clínica Demo;'));
    expect(demo).toBeDefined();
    const fields = demo!.split(';');
    expect(fields).toHaveLength(6);
    expect(fields[1]).toBe('11.222.333/0001-81');
    expect(fields[2]).toBe('Ativa');
    expect(fields[5]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  });

  test('says the server refusal of an export, with no file and no success toast, when the session is gone', async ({ page, visit }) => {
    await visit('/admin/relatorios');
    const card = reportCard(page, 'Clínicas');
    await expect(card.getByTestId('report-count')).not.toHaveText(/^(0|—)$/);
    let downloads = 0;
    page.on('download', () => (downloads += 1));

    // The session ends behind the page's back (as after the inactivity timeout on another tab).
    await page.context().clearCookies();
    const refused = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/admin/reports/clinicas.csv');
    await card.getByRole('button', { name: 'Exportar CSV' }).click();
    expect((await refused).status()).toBe(401);
    await expectToast(page, 'Você precisa estar logado para continuar');
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Relatório exportado com sucesso!' })).toHaveCount(0);
    expect(downloads).toBe(0);
  });

  test('opens the print view of a report and prints it once loaded', async ({ page, visit, context }) => {
    // The print dialog cannot be driven by a test: count the calls instead.
    await context.addInitScript(() => {
      const calls = { count: 0 };
      Object.assign(window, { __printCalls: calls });
      window.print = () => {
        calls.count += 1;
      };
    });
    await visit('/admin/relatorios');
    const card = reportCard(page, 'Usuários');
    await expect(card.getByTestId('report-count')).not.toHaveText(/^(0|—)$/);

    const opening = page.waitForEvent('popup');
    await card.getByRole('button', { name: 'Exportar PDF' }).click();
    await expectToast(page, 'Gerando PDF para impressão...');
    const printView = await opening;

    await expect(printView).toHaveURL(/\/admin\/relatorios\/imprimir\/usuarios$/);
    await expect(printView).toHaveTitle('Relatório de Usuários');
    await expect(printView.getByRole('heading', { level: 1 })).toHaveText('Relatório de Usuários');
    await expect(printView.getByText('Todo o período')).toBeVisible();
    const table = printView.getByRole('table', { name: 'Relatório de Usuários' });
    // Fewer columns than the CSV (Email, Função, Criado em).
    await expect(table.getByRole('columnheader')).toHaveText(['Email', 'Função']);
    await expect(table.getByRole('row').filter({ hasText: DEMO_ACCOUNTS.admin })).toContainText('Super Admin');
    await expect.poll(() => printView.evaluate(() => (window as unknown as { __printCalls: { count: number } }).__printCalls.count)).toBe(1);
    await printView.close();
  });

  test('refuses to export an empty report', async ({ page, visit }) => {
    await visit(`/admin/relatorios?de=${EMPTY.from}&ate=${EMPTY.to}`);
    const card = reportCard(page, 'Planos');
    await expect(card.getByTestId('report-count')).toHaveText('0');

    let downloads = 0;
    page.on('download', () => (downloads += 1));
    let popups = 0;
    page.on('popup', () => (popups += 1));

    await card.getByRole('button', { name: 'Exportar CSV' }).click();
    await expectToast(page, 'Nenhum dado disponível para exportar');
    await reportCard(page, 'Clínicas').getByRole('button', { name: 'Exportar PDF' }).click();
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Nenhum dado disponível para exportar' })).toHaveCount(2);
    expect(downloads).toBe(0);
    expect(popups).toBe(0);
  });
});
