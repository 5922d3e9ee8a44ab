import type { Page } from '@playwright/test';
import { adminClinicSchema, clinicDetailSchema, clinicSummarySchema } from '@carteirinha/shared/contracts/clinics';
import { pageOf } from '@carteirinha/shared/contracts/pagination';
import { platformPlanListSchema } from '@carteirinha/shared/contracts/plans';
import { formatCnpj, formatMoney } from '@carteirinha/shared/format';
import { createClinicViaApi, deleteClinicViaApi, planWithCustomDomain, uniqueCnpj, uniqueSuffix } from '../admin-data';
import { expect, expectCardShows, test } from '../fixtures';

function clinicsTable(page: Page) {
  return page.getByRole('table', { name: 'Clínicas da plataforma' });
}

function clinicRow(page: Page, text: string) {
  return clinicsTable(page).getByRole('row').filter({ hasText: text });
}

function summaryCard(page: Page, title: string) {
  return page.getByRole('group', { name: title });
}

/** Types a search and waits until the table shows the server's answer to it (the table keeps old rows meanwhile). */
async function search(page: Page, term: string) {
  const answered = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === '/api/admin/clinics' && url.searchParams.get('q') === term.trim();
  });
  await page.getByRole('searchbox', { name: 'Buscar clínicas' }).fill(term);
  expect((await answered).status()).toBe(200);
  // A table on a desktop, a list of cards on a phone: whichever shows the rows says when they are the answer's.
  await expect(clinicsTable(page).or(page.getByRole('list', { name: 'Clínicas da plataforma' }))).toHaveAttribute('aria-busy', 'false');
}

async function openRowAction(page: Page, clinicName: string, action: 'Visualizar' | 'Editar' | 'Excluir') {
  await page.getByRole('button', { name: `Ações da clínica ${clinicName}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test.describe('/admin/clinicas: managing clinics', () => {
  test.beforeEach(async ({ signInAs, visit, page }) => {
    await signInAs('admin');
    await visit('/admin/clinicas');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gestão de Clínicas');
  });

  test('the four summary cards show the counts the server computes', async ({ page }) => {
    // Other tests add and remove clinics meanwhile: compare a fresh page with the answer read right after it.
    await expect(async () => {
      await page.reload();
      await expect(summaryCard(page, 'Total de Clínicas')).toHaveAttribute('aria-busy', 'false');
      const response = await page.request.get('/api/admin/clinics/summary');
      const summary = clinicSummarySchema.parse(await response.json());
      await expect(summaryCard(page, 'Total de Clínicas')).toContainText(String(summary.total), { timeout: 1000 });
      await expect(summaryCard(page, 'Ativas')).toContainText(`${summary.active}${summary.activePercent}% do total`, { timeout: 1000 });
      await expect(summaryCard(page, 'Em Trial')).toContainText(String(summary.trial), { timeout: 1000 });
      await expect(summaryCard(page, 'Suspensas')).toContainText(String(summary.suspended), { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
  });

  test('creates, finds, views, edits and deletes a clinic', async ({ page }) => {
    const suffix = uniqueSuffix();
    const name = `Clínica E2E ${suffix}`;
    const cnpj = uniqueCnpj();
    const slug = `e2e-${suffix}`;
    const plans = platformPlanListSchema.parse(await (await page.request.get('/api/admin/plans')).json()).items;
    const firstPlan = plans.find((plan) => plan.isActive)!;

    // Nova Clínica: starts active, on the first plan of the list, each option with its price.
    await page.getByRole('button', { name: 'Nova Clínica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova Clínica' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('CNPJ')).toHaveAttribute('placeholder', '00.000.000/0000-00');
    await expect(dialog.getByLabel('Plano')).toHaveValue(firstPlan.id);
    await expect(dialog.getByLabel('Plano').locator('option:checked')).toHaveText(`${firstPlan.name} - ${formatMoney(firstPlan.priceCents!)}`);
    await expect(dialog.getByLabel('Plano').locator('option', { hasText: 'Enterprise' })).toHaveText('Enterprise - Sob consulta');
    await expect(dialog.getByLabel('Status')).toHaveValue('active');

    await dialog.getByLabel('Nome').fill(name);
    await dialog.getByLabel('CNPJ').fill(formatCnpj(cnpj));
    await dialog.getByLabel('Subdomínio').fill(slug);
    await dialog.getByLabel('Cidade').fill('Campinas');
    await dialog.getByLabel('UF').fill('sp');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('Clínica criada com sucesso!')).toBeVisible();
    await expect(dialog).toBeHidden();

    // Server-side search, by name and by the CNPJ's digits.
    await search(page, name.toUpperCase());
    const row = clinicRow(page, name);
    await expect(row.getByRole('cell')).toHaveText([
      new RegExp(`^${name}\\s*Criada em \\d{2}/\\d{2}/\\d{4}$`),
      formatCnpj(cnpj),
      // The Domínio column shows the host of the clinic's site (issue 13, item 14).
      new RegExp(`^${slug}\\.localhost(:\\d+)?$`),
      'Ativa',
      firstPlan.name,
      '0',
      '-',
      '',
      // What a cell shows, not the copy folded into the first cell for narrow screens (hidden at this width).
    ], { useInnerText: true });
    await search(page, cnpj.slice(0, 10));
    await expect(clinicRow(page, formatCnpj(cnpj))).toHaveCount(1);

    // Visualizar: the clinic's record from the server, in a dialog that names it — no toast saying the same (issue 13).
    const listed = pageOf(adminClinicSchema).parse(await (await page.request.get(`/api/admin/clinics?q=${cnpj}`)).json()).items[0]!;
    const detail = clinicDetailSchema.parse(await (await page.request.get(`/api/admin/clinics/${listed.id}`)).json());
    await openRowAction(page, name, 'Visualizar');
    const view = page.getByRole('dialog', { name });
    await expect(view).toBeVisible();
    await expect(page.getByText(`Visualizando: ${name}`)).toHaveCount(0);
    await expect(view.getByText(formatCnpj(cnpj))).toBeVisible();
    await expect(view.getByRole('link', { name: detail.url })).toHaveAttribute('href', detail.url);
    await expect(view.getByText('Campinas/SP')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(view).toBeHidden();

    // Editar: the form opens with the clinic's values; a new name and status are saved.
    await openRowAction(page, name, 'Editar');
    const edit = page.getByRole('dialog', { name: 'Editar Clínica' });
    await expect(edit.getByLabel('Nome')).toHaveValue(name);
    await expect(edit.getByLabel('CNPJ')).toHaveValue(formatCnpj(cnpj));
    await expect(edit.getByLabel('UF')).toHaveValue('SP');
    const renamed = `${name} Editada`;
    await edit.getByLabel('Nome').fill(renamed);
    await edit.getByLabel('Status').selectOption('suspended');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('Clínica atualizada com sucesso!')).toBeVisible();
    await expect(edit).toBeHidden();
    await search(page, renamed);
    await expect(clinicRow(page, renamed).getByRole('cell').nth(3)).toHaveText('Suspensa');

    // Excluir: confirmed in 'Confirmar Exclusão', then gone.
    await openRowAction(page, renamed, 'Excluir');
    const confirm = page.getByRole('alertdialog', { name: 'Confirmar Exclusão' });
    await expect(confirm).toContainText(renamed);
    await expect(confirm).toContainText('Esta ação não pode ser desfeita.');
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await expect(page.getByText('Clínica excluída com sucesso!')).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(clinicsTable(page).getByRole('cell', { name: 'Nenhuma clínica encontrada' })).toBeVisible();
  });

  test('shows field errors under the fields and keeps the dialog open', async ({ page }) => {
    await page.getByRole('button', { name: 'Nova Clínica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova Clínica' });
    await dialog.getByLabel('CNPJ').fill('11.111.111/1111-11');
    await dialog.getByLabel('Subdomínio').fill('Não Vale');
    await dialog.getByRole('button', { name: 'Salvar' }).click();

    await expect(dialog.getByLabel('CNPJ')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByLabel('CNPJ')).toHaveAccessibleDescription('CNPJ inválido');
    await expect(dialog.getByLabel('Nome')).toHaveAccessibleDescription('Nome é obrigatório');
    await expect(dialog.getByLabel('Subdomínio')).toHaveAccessibleDescription(/Use de 3 a 40 letras minúsculas/);
    await expect(dialog).toBeVisible();

    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
  });

  test('a CNPJ already in use is refused by the server and the dialog stays open', async ({ page }) => {
    const suffix = uniqueSuffix();
    await page.getByRole('button', { name: 'Nova Clínica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova Clínica' });
    await dialog.getByLabel('Nome').fill(`Clínica Duplicada ${suffix}`);
    // Clínica Demo's CNPJ.
    await dialog.getByLabel('CNPJ').fill('11.222.333/0001-81');
    await dialog.getByLabel('Subdomínio').fill(`dup-${suffix}`);
    await dialog.getByRole('button', { name: 'Salvar' }).click();

    await expect(page.getByText(/^Erro ao criar clínica: .+/)).toBeVisible();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Nome')).toHaveValue(`Clínica Duplicada ${suffix}`);
  });

  test('a clinic with patients cannot be deleted: the error toast says why and the clinic stays', async ({ page }) => {
    await search(page, 'Clínica Demo');
    await openRowAction(page, 'Clínica Demo', 'Excluir');
    const confirm = page.getByRole('alertdialog', { name: 'Confirmar Exclusão' });
    await expect(confirm).toContainText('Clínica Demo');
    await confirm.getByRole('button', { name: 'Excluir' }).click();

    await expect(page.getByText(/^Erro ao excluir clínica: .+/)).toBeVisible();
    await expect(clinicRow(page, 'Clínica Demo')).toBeVisible();
    const demo = await page.request.get('/api/admin/clinics?q=11222333000181');
    expect(pageOf(adminClinicSchema).parse(await demo.json()).items).toHaveLength(1);
  });

  test("every clinic links to its site, by its own domain or its sub-domain, and with no payment its revenue reads '-'", async ({ page }) => {
    const suffix = uniqueSuffix();
    const plan = await planWithCustomDomain(page.request);
    const withDomain = await createClinicViaApi(page.request, { name: `Clínica Domínio ${suffix}`, domain: `cartao-${suffix}.exemplo.com.br`, planId: plan.id });
    const withSlug = await createClinicViaApi(page.request, { name: `Clínica Subdomínio ${suffix}`, slug: `sub-${suffix}` });
    try {
      await search(page, withDomain.name);
      const row = clinicRow(page, withDomain.name);
      expect(withDomain.url).toBe(`http://${withDomain.domain}`);
      await expect(row.getByRole('link', { name: withDomain.domain! })).toHaveAttribute('href', withDomain.url);
      expect(withDomain.revenueCents).toBeNull();
      await expect(row.getByRole('cell').nth(6)).toHaveText('-');

      // The sub-domain on the platform, with the platform's scheme and port.
      await search(page, withSlug.name);
      const origin = new URL(page.url());
      expect(withSlug.url).toBe(`${origin.protocol}//sub-${suffix}.localhost:${origin.port}`);
      await expect(clinicRow(page, withSlug.name).getByRole('link', { name: `sub-${suffix}` })).toHaveAttribute('href', withSlug.url);
    } finally {
      await deleteClinicViaApi(page.request, withDomain.id);
      await deleteClinicViaApi(page.request, withSlug.id);
    }
  });

  test('deleting the only clinic of the last page goes back to the page before', async ({ page }) => {
    // 21 clinics of one search: a full first page of 20 and one on the second.
    const marker = `Paginada ${uniqueSuffix()}`;
    const created: string[] = [];
    try {
      for (let index = 0; index < 21; index += 1) {
        created.push((await createClinicViaApi(page.request, { name: `${marker} ${String(index).padStart(2, '0')}` })).id);
      }
      await search(page, marker);
      const pager = page.getByRole('navigation', { name: 'Paginação' });
      await expect(pager).toContainText('Página 1 de 2');
      await pager.getByRole('button', { name: 'Próxima' }).click();
      await expect(pager).toContainText('Página 2 de 2');
      // Newest first: the first one made is alone on page 2.
      const oldest = `${marker} 00`;
      await expect(clinicsTable(page).getByRole('row').filter({ hasText: marker })).toHaveCount(1);

      await openRowAction(page, oldest, 'Excluir');
      await page.getByRole('alertdialog', { name: 'Confirmar Exclusão' }).getByRole('button', { name: 'Excluir' }).click();
      await expect(page.getByText('Clínica excluída com sucesso!')).toBeVisible();

      // Back on page 1 with its 20 clinics (all of them now fit on one page), never an empty page 2.
      await expect(clinicsTable(page).getByRole('row').filter({ hasText: marker })).toHaveCount(20);
      await expect(clinicsTable(page).getByText('Nenhuma clínica encontrada')).toHaveCount(0);
      await expect(pager).toHaveCount(0);
    } finally {
      for (const id of created) await deleteClinicViaApi(page.request, id);
    }
  });

  test('on a phone each clinic is a card with every value and its actions in sight', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await search(page, 'Clínica Demo');
    // No table to scroll sideways: the list of cards, each value with its label.
    await expect(clinicsTable(page)).toHaveCount(0);
    const card = page.getByRole('list', { name: 'Clínicas da plataforma' }).getByRole('listitem').filter({ hasText: 'Clínica Demo' });
    await expect(card.getByRole('button', { name: 'Ações da clínica Clínica Demo' })).toBeInViewport();
    await expectCardShows(card, [
      ['CNPJ', '11.222.333/0001-81'],
      ['Status', 'Ativa'],
      ['Plano', 'Professional'],
      ['Pacientes', ''],
      ['Pagamentos de Pacientes', ''],
    ]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    // The summary cards sit two by two, their figures level however their titles wrap.
    const figures = page.locator('[data-slot="stat-card-value"]');
    await expect(figures).toHaveCount(4);
    const [first, second, third] = [await figures.nth(0).boundingBox(), await figures.nth(1).boundingBox(), await figures.nth(2).boundingBox()];
    expect(first!.y).toBe(second!.y);
    expect(third!.y).toBeGreaterThan(first!.y);
  });
});
