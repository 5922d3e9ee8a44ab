import type { Page } from '@playwright/test';
import { adminClinicSchema } from '@carteirinha/shared/contracts/clinics';
import { pageOf } from '@carteirinha/shared/contracts/pagination';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import { expect, test } from '../fixtures';

const COLUMNS = ['Clínica', 'CNPJ', 'Domínio', 'Status', 'Plano', 'Pacientes', 'Pagamentos de Pacientes', 'Ações'];

function clinicsTable(page: Page) {
  return page.getByRole('table', { name: 'Clínicas da plataforma' });
}

function searchBox(page: Page) {
  return page.getByRole('searchbox', { name: 'Buscar clínicas' });
}

/**
 * Types a search and waits until the table shows the server's answer to it: while a search loads the table keeps the
 * previous rows (and is `aria-busy`), so asserting before that would read the old result.
 */
async function search(page: Page, term: string) {
  const answered = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === '/api/admin/clinics' && url.searchParams.get('q') === term.trim();
  });
  await searchBox(page).fill(term);
  expect((await answered).status()).toBe(200);
  await expect(clinicsTable(page)).toHaveAttribute('aria-busy', 'false');
}

test.describe('/admin/clinicas', () => {
  test.beforeEach(async ({ signInAs, visit, page }) => {
    await signInAs('admin');
    await visit('/admin/clinicas');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gestão de Clínicas');
  });

  test('lists the demo clinic with the data the server holds', async ({ page }) => {
    const table = clinicsTable(page);
    await expect(table.getByRole('columnheader')).toHaveText(COLUMNS);
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Buscar clínica ou CNPJ...');

    // The figures that change with use (creation date, patients, revenue) are read from the API the page reads.
    const response = await page.request.get('/api/admin/clinics?q=demo');
    expect(response.status()).toBe(200);
    const demo = pageOf(adminClinicSchema)
      .parse(await response.json())
      .items.find((clinic) => clinic.slug === 'demo');
    expect(demo).toBeDefined();

    const row = table.getByRole('row').filter({ hasText: 'Clínica Demo' });
    await expect(row.getByRole('cell')).toHaveText([
      `Clínica Demo Criada em ${formatDate(demo!.createdAt)}`,
      '11.222.333/0001-81',
      // The host of its site, not the bare slug (issue 13, item 14).
      new URL(demo!.url).host,
      'Ativa',
      'Professional',
      String(demo!.patientCount),
      demo!.revenueCents === null ? '-' : formatMoney(demo!.revenueCents),
      '',
      // What each cell shows: the copy folded into the first cell for narrow screens is hidden at this width.
    ], { useInnerText: true });
    await expect(row.getByRole('link', { name: new URL(demo!.url).host })).toHaveAttribute('href', demo!.url);
    expect(demo!.patientCount).toBeGreaterThanOrEqual(1);
    // The demo patient's first charge was paid by Pix (the seed): revenue is real money, not '-'.
    expect(demo!.revenueCents).toBeGreaterThan(0);

    // One actions menu per row, named after its clinic; no pager for a single page.
    await expect(row.getByRole('button', { name: 'Ações da clínica Clínica Demo' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Paginação' })).toHaveCount(0);
  });

  test('searches by name, case-insensitively, on the server', async ({ page }) => {
    await search(page, 'demo');
    await expect(clinicsTable(page).getByRole('row').filter({ hasText: 'Clínica Demo' })).toBeVisible();

    await search(page, 'CLÍNICA DeMo');
    await expect(clinicsTable(page).getByRole('row').filter({ hasText: 'Clínica Demo' })).toBeVisible();
  });

  test('searches by CNPJ digits, with or without the mask', async ({ page }) => {
    await search(page, '11222333');
    await expect(clinicsTable(page).getByRole('row').filter({ hasText: '11.222.333/0001-81' })).toBeVisible();

    await search(page, '11.222.333/0001');
    await expect(clinicsTable(page).getByRole('row').filter({ hasText: 'Clínica Demo' })).toBeVisible();
  });

  test('says so when nothing matches, and lists again when the search is cleared', async ({ page }) => {
    await search(page, 'nenhuma-clinica-com-este-nome');
    const table = clinicsTable(page);
    await expect(table.getByRole('cell', { name: 'Nenhuma clínica encontrada' })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: 'Clínica Demo' })).toHaveCount(0);


    await searchBox(page).fill('');
    await expect(table.getByRole('row').filter({ hasText: 'Clínica Demo' })).toBeVisible();
    await expect(table.getByText('Nenhuma clínica encontrada')).toHaveCount(0);
  });
});
