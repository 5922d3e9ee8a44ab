import type { Page } from '@playwright/test';
import { clinicPayoutListSchema, type Payout } from '@carteirinha/shared/contracts/payouts';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { addDemoSession, expect, expectCardShows, test } from '../fixtures';
import { expectToast } from '../tenancy';

/*
 * Issue 26, Financeiro and Repasses on Clínica Demo's payouts (the seed builds one per closed month of its charges, all
 * but the last paid): the clinic_admin reads the four cards and the payouts, on a desktop and on a phone; the
 * receptionist is refused; the platform admin pays the waiting payout and the clinic sees it 'Pago' with the date.
 * In order, in one worker: the last test pays Clínica Demo's waiting payout, which the first reads as waiting.
 */
test.describe.configure({ mode: 'serial' });

const m = messages.payouts;
const PHONE = { width: 390, height: 844 };

function period(payout: Pick<Payout, 'period'>): string {
  return `${payout.period.slice(5, 7)}/${payout.period.slice(0, 4)}`;
}

/** The row of a payout's month: its first cell (a later month's date may appear in another row's 'Data Pagamento'). */
function rowOfMonth(table: ReturnType<Page['getByRole']>, month: string) {
  return table.getByRole('row', { name: new RegExp(`^${month} `) });
}

async function financeFigures(page: Page) {
  const response = await page.request.get('/api/clinic/payouts');
  expect(response.status()).toBe(200);
  return clinicPayoutListSchema.parse(await response.json());
}

function statCard(page: Page, title: string) {
  return page.getByRole('group', { name: title });
}

test('the clinic_admin reads the four cards and the payouts month by month, with their lines (desktop)', async ({ page, signInAs, visit }) => {
  await signInAs('clinicAdmin');
  const figures = await financeFigures(page);
  const paid = figures.items.filter((payout) => payout.status === 'pago');
  const waiting = figures.items.find((payout) => payout.status === 'pendente');
  expect(paid.length).toBeGreaterThan(0);
  expect(waiting).toBeDefined();

  await visit('/clinica/financeiro');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(m.title);
  await expect(page.getByText(messages.common.noData)).toHaveCount(0);
  await expect(statCard(page, m.monthGross)).toContainText(formatMoney(figures.summary.monthGrossCents));
  await expect(statCard(page, m.monthAttendances)).toContainText(String(figures.summary.monthAttendances));
  await expect(statCard(page, m.pendingNet)).toContainText(formatMoney(figures.summary.pendingNetCents));
  await expect(statCard(page, m.paidNet)).toContainText(formatMoney(figures.summary.paidNetCents));
  // Each waiting payout is in 'Repasse Pendente', and nothing paid is.
  expect(figures.summary.pendingNetCents).toBe(figures.items.filter((payout) => payout.status !== 'pago').reduce((sum, payout) => sum + payout.netCents, 0));

  const table = page.getByRole('table', { name: m.tableTitle });
  for (const header of [m.columns.period, m.columns.attendances, m.columns.gross, 'Taxa (10%)', m.columns.net, m.columns.status, m.columns.paidAt]) {
    await expect(table.getByRole('columnheader', { name: header })).toBeVisible();
  }
  for (const payout of figures.items) {
    const row = rowOfMonth(table, period(payout));
    await expect(row).toContainText(formatMoney(payout.grossCents));
    await expect(row).toContainText(formatMoney(payout.feeCents));
    await expect(row).toContainText(formatMoney(payout.netCents));
    await expect(row).toContainText(m.statuses[payout.status]);
    await expect(row).toContainText(payout.paidAt ? formatDate(payout.paidAt) : '-');
  }

  // 'Detalhes': the charges that make the oldest payout, adding up to its gross.
  const oldest = figures.items.at(-1);
  if (!oldest) throw new Error('no payout');
  await table.getByRole('button', { name: `${m.details}: ${period(oldest)}` }).click();
  const dialog = page.getByRole('dialog', { name: formatMessage(m.detailsTitle, { period: period(oldest) }) });
  await expect(dialog.getByRole('row').filter({ hasText: m.lineKinds.recebimento }).first()).toBeVisible();
  await expect(dialog).toContainText(formatMoney(oldest.grossCents));
});

test('on a 390 px phone every payout is a card with every value in view', async ({ page, signInAs, visit }) => {
  await signInAs('clinicAdmin');
  const figures = await financeFigures(page);
  await page.setViewportSize(PHONE);
  await visit('/clinica/financeiro');
  await expect(statCard(page, m.paidNet)).toContainText(formatMoney(figures.summary.paidNetCents));
  const cards = page.getByRole('list', { name: m.tableTitle }).getByRole('listitem');
  await expect(cards).toHaveCount(figures.items.length);
  const [newest] = figures.items;
  if (!newest) throw new Error('no payout');
  const card = cards.first();
  await expect(card).toContainText(period(newest));
  await expectCardShows(card, [
    [m.columns.attendances, String(newest.attendances)],
    [m.columns.gross, formatMoney(newest.grossCents)],
    ['Taxa (10%)', formatMoney(newest.feeCents)],
    [m.columns.net, formatMoney(newest.netCents)],
    [m.columns.status, m.statuses[newest.status]],
    [m.columns.paidAt, newest.paidAt ? formatDate(newest.paidAt) : '-'],
  ]);
  await expect(card.getByRole('button', { name: `${m.details}: ${period(newest)}` })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});

test('a receptionist has no Financeiro: not in the sidebar, and its address says Acesso restrito', async ({ page, signInAs, visit }) => {
  await signInAs('clinicStaff');
  await visit('/clinica');
  const sidebar = page.getByRole('navigation', { name: 'Menu lateral' });
  await expect(sidebar.getByRole('link', { name: 'Atendimentos' })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: messages.adminLayout.nav.finance })).toHaveCount(0);
  await visit('/clinica/financeiro');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.accessDenied.title);
  await expect(page.getByText(messages.accessDenied.text)).toBeVisible();
  expect((await page.request.get('/api/clinic/payouts')).status()).toBe(403);
});

test("the platform admin marks the waiting payout paid, and the clinic sees 'Pago' with today's date", async ({ page, browser, signInAs, visit, baseURL }) => {
  await signInAs('admin');
  await visit('/admin');
  await page.getByRole('navigation', { name: 'Menu lateral' }).getByRole('link', { name: messages.adminLayout.nav.payouts }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(m.adminTitle);
  await page.getByLabel(m.statusFilter).selectOption({ label: m.statuses.pendente });
  const table = page.getByRole('table', { name: m.adminTitle });
  const row = table.getByRole('row').filter({ hasText: 'Clínica Demo' }).first();
  await expect(row).toContainText(m.statuses.pendente);
  const rowText = (await row.innerText()).match(/\d{2}\/\d{4}/);
  const month = rowText?.[0];
  if (!month) throw new Error('no period in the row');

  await row.getByRole('button', { name: `${m.markProcessing}: Clínica Demo ${month}` }).click();
  await expectToast(page, m.markedProcessing);
  await page.getByLabel(m.statusFilter).selectOption({ label: m.statuses.processando });
  const processing = table.getByRole('row').filter({ hasText: 'Clínica Demo' }).filter({ hasText: month });
  await expect(processing).toContainText(m.statuses.processando);
  await processing.getByRole('button', { name: `${m.markPaid}: Clínica Demo ${month}` }).click();
  const confirm = page.getByRole('alertdialog', { name: m.confirmPaidTitle });
  await expect(confirm).toContainText('Clínica Demo');
  await confirm.getByRole('button', { name: m.markPaid }).click();
  await expectToast(page, m.markedPaid);
  await expect(confirm).toBeHidden();

  // The clinic's admin, in a browser of their own, sees it paid today.
  const clinicContext = await browser.newContext({ baseURL, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  try {
    await addDemoSession(clinicContext, 'clinicAdmin', baseURL);
    const clinicPage = await clinicContext.newPage();
    await clinicPage.goto('/clinica/financeiro');
    const paidRow = rowOfMonth(clinicPage.getByRole('table', { name: m.tableTitle }), month);
    await expect(paidRow).toContainText(m.statuses.pago);
    await expect(paidRow).toContainText(formatDate(new Date().toISOString()));
    await expect(clinicPage.getByRole('group', { name: m.pendingNet })).toContainText(formatMoney(0));
  } finally {
    await clinicContext.close();
  }
});
