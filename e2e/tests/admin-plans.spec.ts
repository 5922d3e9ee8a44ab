import type { Page } from '@playwright/test';
import { planSummarySchema, platformPlanListSchema, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { formatMoney } from '@carteirinha/shared/format';
import { SUPPORT_LEVEL_LABELS } from '@carteirinha/shared/contracts/plans';
import { uniqueSuffix } from '../admin-data';
import { expect, test } from '../fixtures';

/** The platform plans of the demo seed, cheapest first ("sob consulta" last). */
const SEED_PLANS = ['Starter', 'Professional', 'Enterprise'];

/** The plan's SLA as the comparison shows it: pt-BR decimals, or a dash without one. */
function slaText(percent: number | null): string {
  return percent === null ? '-' : `${String(percent).replace('.', ',')}%`;
}

/** What each row of specification §9's comparison shows for a plan, read from the plan's own data. */
const COMPARISON_ROWS: [string, (plan: PlatformPlanRecord) => string][] = [
  ['Preço', (plan) => (plan.priceCents === null ? 'Sob consulta' : formatMoney(plan.priceCents))],
  ['Limite de pacientes', (plan) => (plan.maxPatients === null ? 'Ilimitado' : String(plan.maxPatients))],
  ['Clínicas parceiras', (plan) => (plan.maxClinics === null ? 'Ilimitado' : String(plan.maxClinics))],
  ['Domínio personalizado', (plan) => (plan.customDomain ? 'Sim' : 'Não')],
  ['Whitelabel completo', (plan) => (plan.fullWhitelabel ? 'Sim' : 'Não')],
  ['App mobile', (plan) => (plan.mobileApp ? 'Sim' : 'Não')],
  ['Relatórios avançados', (plan) => (plan.advancedReports ? 'Sim' : 'Não')],
  ['Suporte', (plan) => SUPPORT_LEVEL_LABELS[plan.supportLevel]],
  ['SLA', (plan) => slaText(plan.slaUptimePercent)],
];

function summaryCard(page: Page, title: string) {
  return page.getByRole('group', { name: title });
}

function planCard(page: Page, name: string) {
  return page.getByRole('article', { name, exact: true });
}

function comparisonTable(page: Page) {
  return page.getByRole('table', { name: 'Comparativo de recursos e limites dos planos' });
}

async function readPlans(page: Page): Promise<PlatformPlanRecord[]> {
  const response = await page.request.get('/api/admin/plans');
  expect(response.status()).toBe(200);
  return platformPlanListSchema.parse(await response.json()).items;
}

/** 'Total de Planos' as the page shows it. Only the CRUD test below adds or removes plans, so it is stable. */
async function shownPlanCount(page: Page): Promise<number> {
  const card = summaryCard(page, 'Total de Planos');
  await expect(card).toHaveAttribute('aria-busy', 'false');
  return Number(await card.getByText(/^\d+$/).textContent());
}

test.describe('/admin/planos', () => {
  test.beforeEach(async ({ signInAs, visit, page }) => {
    await signInAs('admin');
    await visit('/admin/planos');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gestão de Planos');
  });

  test('shows one card per plan with the data the server holds', async ({ page }) => {
    // The seed's plans: the CRUD test below adds and removes one of its own meanwhile.
    const plans = (await readPlans(page)).filter((plan) => SEED_PLANS.includes(plan.name));
    expect(plans.map((plan) => plan.name)).toEqual(SEED_PLANS);

    for (const plan of plans) {
      const card = planCard(page, plan.name);
      await expect(card).toContainText(plan.priceCents === null ? 'Sob consulta' : formatMoney(plan.priceCents));
      await expect(card).toContainText(plan.isActive ? 'Ativo' : 'Inativo');
      await expect(card).toContainText(`Limite pacientes: ${plan.maxPatients ?? 'Ilimitado'}`);
      await expect(card.getByRole('listitem')).toHaveText(plan.features);
      await expect(card.getByText('Mais Popular')).toHaveCount(plan.popular ? 1 : 0);
      await expect(card.getByRole('button', { name: `Editar plano ${plan.name}` })).toBeVisible();
      await expect(card.getByRole('button', { name: `Excluir plano ${plan.name}` })).toBeVisible();
    }
    await expect(planCard(page, 'Professional').getByText('Mais Popular')).toBeVisible();
    await expect(planCard(page, 'Enterprise')).toContainText('Sob consulta');
  });

  test('the summary cards show the figures the server computes', async ({ page }) => {
    // Clinics made by other tests move the subscriptions and the MRR: compare a fresh page with a fresh answer.
    await expect(async () => {
      await page.reload();
      await expect(summaryCard(page, 'MRR da Plataforma')).toHaveAttribute('aria-busy', 'false');
      const summary = planSummarySchema.parse(await (await page.request.get('/api/admin/plans/summary')).json());
      await expect(summaryCard(page, 'Total de Planos')).toContainText(String(summary.planCount), { timeout: 1000 });
      await expect(summaryCard(page, 'Clínicas Assinantes')).toContainText(String(summary.activeSubscriptions), { timeout: 1000 });
      await expect(summaryCard(page, 'MRR da Plataforma')).toContainText(formatMoney(summary.mrrCents), { timeout: 1000 });
      // The change against last month is shown exactly when the server has one to compare with.
      if (summary.mrrChangePercent === null) {
        await expect(summaryCard(page, 'MRR da Plataforma')).not.toContainText('vs mês anterior', { timeout: 1000 });
      } else {
        const sign = summary.mrrChangePercent > 0 ? '+' : '';
        await expect(summaryCard(page, 'MRR da Plataforma')).toContainText(`${sign}${summary.mrrChangePercent}% vs mês anterior`, { timeout: 1000 });
      }
    }).toPass({ timeout: 20_000 });
  });

  test('the comparison table is specification §9, built from the plans', async ({ page }) => {
    await expect(page.getByRole('heading', { level: 2, name: 'Comparativo de Planos' })).toBeVisible();
    // The CRUD test below adds a plan meanwhile: compare a fresh page with the list read right after it.
    await expect(async () => {
      await page.reload();
      const table = comparisonTable(page);
      await expect(table).toBeVisible({ timeout: 5000 });
      const plans = await readPlans(page);
      await expect(table.getByRole('columnheader')).toHaveText(['Recurso', ...plans.map((plan) => plan.name)], { timeout: 1000 });
      await expect(table.getByRole('rowheader')).toHaveText(COMPARISON_ROWS.map(([label]) => label), { timeout: 1000 });
      for (const [label, expected] of COMPARISON_ROWS) {
        await expect(table.getByRole('row', { name: new RegExp(`^${label}`) }).getByRole('cell')).toHaveText(plans.map(expected), { timeout: 1000 });
      }
    }).toPass({ timeout: 20_000 });
    // The seed's plans read as §9 has them.
    const enterprise = comparisonTable(page).getByRole('columnheader', { name: 'Enterprise' });
    await expect(enterprise).toBeVisible();
    await expect(comparisonTable(page).getByRole('row', { name: /^SLA/ })).toContainText('99,9%');
    await expect(comparisonTable(page).getByRole('row', { name: /^Suporte/ })).toContainText('Dedicado');
  });

  test('creates, edits and deletes a plan, and the plan count follows', async ({ page }) => {
    const name = `Plano E2E ${uniqueSuffix()}`;
    const before = await shownPlanCount(page);

    await page.getByRole('button', { name: 'Novo Plano' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo Plano' });
    // Money is typed as pt-BR people write it, with a decimal comma.
    await expect(dialog.getByLabel('Preço (R$)')).toHaveAttribute('inputmode', 'decimal');
    await expect(dialog.getByLabel('Preço (R$)')).toHaveAccessibleDescription(/Deixe em branco para um plano sob consulta/);
    await expect(dialog.getByLabel('Limite de pacientes')).toHaveAccessibleDescription('Deixe em branco para ilimitado.');
    await expect(dialog.getByRole('checkbox', { name: 'Ativo' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Mais Popular' })).not.toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Domínio personalizado' })).toBeChecked();
    await expect(dialog.getByLabel('Suporte')).toHaveValue('email');
    await dialog.getByLabel('Nome').fill(name);
    // Dearer than the seed's priced plans, so the clinic form's default (the first plan) does not change under other tests.
    await dialog.getByLabel('Preço (R$)').fill('1.234,56');
    await dialog.getByLabel('Descrição').fill('Plano criado pelo teste');
    await dialog.getByLabel('Recursos').fill('Recurso E2E um\n\n  Recurso E2E dois  \nRecurso E2E um');
    await dialog.getByLabel('Limite de pacientes').fill('50');
    await dialog.getByRole('checkbox', { name: 'Whitelabel completo' }).click();
    await dialog.getByLabel('Suporte').selectOption({ label: 'Dedicado' });
    await dialog.getByLabel('SLA (%)').fill('99,5');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('Plano criado com sucesso!')).toBeVisible();
    await expect(dialog).toBeHidden();

    const card = planCard(page, name);
    await expect(card).toContainText('R$ 1.234,56');
    await expect(card).toContainText('Plano criado pelo teste');
    // A feature typed twice is listed once.
    await expect(card.getByRole('listitem')).toHaveText(['Recurso E2E um', 'Recurso E2E dois']);
    await expect(card).toContainText('Limite pacientes: 50');
    await expect(card).toContainText('Ativo');
    await expect(summaryCard(page, 'Total de Planos')).toContainText(String(before + 1));
    await expect(comparisonTable(page).getByRole('columnheader', { name })).toBeVisible();
    const column = (await readPlans(page)).findIndex((plan) => plan.name === name);
    const cellOf = (label: string) => comparisonTable(page).getByRole('row', { name: new RegExp(`^${label}`) }).getByRole('cell').nth(column);
    await expect(cellOf('Whitelabel completo')).toHaveText('Sim');
    await expect(cellOf('App mobile')).toHaveText('Não');
    await expect(cellOf('Suporte')).toHaveText('Dedicado');
    await expect(cellOf('SLA')).toHaveText('99,5%');

    // The landing page sells it at once, at the admin's price.
    const landing = await page.context().newPage();
    await landing.goto('/');
    const offered = landing.locator('#pricing').getByRole('listitem').filter({ has: landing.getByRole('heading', { name, exact: true }) });
    await expect(offered).toContainText('R$ 1.234,56/mês');
    await expect(offered).toContainText('Plano criado pelo teste');

    // Editar: the form opens with the plan's values, the price in pt-BR.
    await card.getByRole('button', { name: `Editar plano ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Editar Plano' });
    await expect(edit.getByLabel('Nome')).toHaveValue(name);
    await expect(edit.getByLabel('Preço (R$)')).toHaveValue('1234,56');
    await expect(edit.getByLabel('SLA (%)')).toHaveValue('99,5');
    await expect(edit.getByRole('checkbox', { name: 'Whitelabel completo' })).toBeChecked();
    await expect(edit.getByLabel('Recursos')).toHaveValue('Recurso E2E um\nRecurso E2E dois');
    await expect(edit.getByLabel('Limite de pacientes')).toHaveValue('50');
    const renamed = `${name} Editado`;
    await edit.getByLabel('Nome').fill(renamed);
    await edit.getByLabel('Limite de pacientes').fill('');
    await edit.getByRole('checkbox', { name: 'Ativo' }).click();
    await edit.getByRole('checkbox', { name: 'Mais Popular' }).click();
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('Plano atualizado com sucesso!')).toBeVisible();
    await expect(edit).toBeHidden();
    const edited = planCard(page, renamed);
    await expect(edited).toContainText('Inativo');
    await expect(edited).toContainText('Mais Popular');
    await expect(edited).toContainText('Limite pacientes: Ilimitado');
    // Inactive: no longer offered on the landing page.
    await landing.reload();
    await expect(landing.locator('#pricing').getByRole('heading', { name: 'Starter', exact: true })).toBeVisible();
    await expect(landing.locator('#pricing').getByRole('heading', { name: renamed, exact: true })).toHaveCount(0);
    await landing.close();

    // Sob consulta: an empty price saves the plan without one (as the seed's Enterprise), and a price can come back.
    await edited.getByRole('button', { name: `Editar plano ${renamed}` }).click();
    const toOnRequest = page.getByRole('dialog', { name: 'Editar Plano' });
    await toOnRequest.getByLabel('Preço (R$)').fill('');
    await toOnRequest.getByRole('button', { name: 'Salvar' }).click();
    await expect(toOnRequest).toBeHidden();
    await expect(edited).toContainText('Sob consulta');
    await expect(edited).not.toContainText('/mês');
    expect((await readPlans(page)).find((plan) => plan.name === renamed)?.priceCents).toBeNull();

    await edited.getByRole('button', { name: `Editar plano ${renamed}` }).click();
    const toPriced = page.getByRole('dialog', { name: 'Editar Plano' });
    const price = toPriced.getByLabel('Preço (R$)');
    await expect(price).toHaveValue('');
    // What the number input cannot read ('1e') is refused (specification §5), not taken for "sob consulta".
    await price.pressSequentially('1e');
    await toPriced.getByRole('button', { name: 'Salvar' }).click();
    await expect(price).toHaveAccessibleDescription(/Preço deve ser um número maior ou igual a zero/);
    await expect(price).toHaveAttribute('aria-invalid', 'true');
    await expect(toPriced).toBeVisible();
    // Nor is a limit the number input cannot read taken for "Ilimitado".
    await price.fill('1234,56');
    const limit = toPriced.getByLabel('Limite de pacientes');
    await limit.pressSequentially('1e');
    await toPriced.getByRole('button', { name: 'Salvar' }).click();
    await expect(limit).toHaveAccessibleDescription(/Use um número inteiro maior que zero/);
    await expect(toPriced).toBeVisible();
    await limit.fill('');
    await toPriced.getByRole('button', { name: 'Salvar' }).click();
    await expect(toPriced).toBeHidden();
    await expect(edited).toContainText('R$ 1.234,56/mês');
    expect((await readPlans(page)).find((plan) => plan.name === renamed)?.priceCents).toBe(123_456);

    // Excluir: 'Confirmar Exclusão' names the plan.
    await edited.getByRole('button', { name: `Excluir plano ${renamed}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirmar Exclusão' });
    await expect(confirm).toContainText(renamed);
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await expect(page.getByText('Plano excluído com sucesso!')).toBeVisible();
    await expect(planCard(page, renamed)).toHaveCount(0);
    await expect(summaryCard(page, 'Total de Planos')).toContainText(String(before));
  });

  test('Enterprise, sold "sob consulta", saves as it is: no price has to be made up', async ({ page }) => {
    const before = (await readPlans(page)).find((plan) => plan.name === 'Enterprise')!;
    expect(before.priceCents).toBeNull();
    await planCard(page, 'Enterprise').getByRole('button', { name: 'Editar plano Enterprise' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar Plano' });
    await expect(dialog.getByLabel('Preço (R$)')).toHaveValue('');
    await expect(dialog.getByLabel('Preço (R$)')).toHaveAttribute('placeholder', 'Sob consulta');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('Plano atualizado com sucesso!')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(planCard(page, 'Enterprise')).toContainText('Sob consulta');
    // Other tests may put clinics on it meanwhile; the plan itself is as it was.
    const { clinicCount: _clinicCount, ...unchanged } = before;
    expect((await readPlans(page)).find((plan) => plan.name === 'Enterprise')).toMatchObject(unchanged);
  });

  test('shows what is missing under each field and keeps the dialog open', async ({ page }) => {
    await page.getByRole('button', { name: 'Novo Plano' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo Plano' });
    await dialog.getByLabel('Preço (R$)').fill('-5');
    await dialog.getByLabel('Limite de pacientes').fill('0');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(dialog.getByLabel('Nome')).toHaveAccessibleDescription('Nome é obrigatório');
    await expect(dialog.getByLabel('Preço (R$)')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByLabel('Preço (R$)')).toHaveAccessibleDescription(/Preço deve ser um número maior ou igual a zero/);
    await expect(dialog.getByLabel('Recursos')).toHaveAccessibleDescription(/Informe ao menos um recurso, um por linha/);
    await expect(dialog.getByLabel('Limite de pacientes')).toHaveAccessibleDescription(/Use um número inteiro maior que zero/);
    await expect(dialog).toBeVisible();
  });

  test('a plan that clinics are on cannot be deleted: the error toast says why and the plan stays', async ({ page }) => {
    await planCard(page, 'Professional').getByRole('button', { name: 'Excluir plano Professional' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirmar Exclusão' });
    await expect(confirm).toContainText('Professional');
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await expect(page.getByText(/^Erro ao excluir plano: Este plano está em uso por \d+ clínica\(s\) e não pode ser excluído\. Desative-o em vez disso\.$/)).toBeVisible();
    await expect(planCard(page, 'Professional')).toBeVisible();
    expect((await readPlans(page)).map((plan) => plan.name)).toContain('Professional');
  });

  test('fits a phone: Salvar in reach on the long form, and the comparison one plan at a time', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 700 });
    await page.getByRole('button', { name: 'Novo Plano' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo Plano' });
    await expect(dialog.getByLabel('SLA (%)')).toBeAttached();
    // The footer stays at the bottom of the screen while the form scrolls.
    await expect(dialog.getByRole('button', { name: 'Salvar' })).toBeInViewport();
    await expect(dialog.getByRole('button', { name: 'Cancelar' })).toBeInViewport();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();

    // No table to scroll sideways: each plan is its own block with every row of §9.
    await expect(comparisonTable(page)).toBeHidden();
    const enterprise = page.getByRole('region', { name: 'Enterprise' });
    await enterprise.scrollIntoViewIfNeeded();
    await expect(enterprise.getByRole('term')).toHaveText(COMPARISON_ROWS.map(([label]) => label));
    await expect(enterprise.getByRole('definition').last()).toHaveText('99,9%');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
