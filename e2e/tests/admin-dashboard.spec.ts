import type { Page } from '@playwright/test';
import { clinicDetailSchema, adminClinicSchema } from '@carteirinha/shared/contracts/clinics';
import { adminDashboardSchema } from '@carteirinha/shared/contracts/dashboard';
import { pageOf } from '@carteirinha/shared/contracts/pagination';
import { formatMoney } from '@carteirinha/shared/format';
import { createClinicViaApi, deleteClinicViaApi, uniqueCnpj, uniqueSuffix } from '../admin-data';
import { expect, test } from '../fixtures';

function kpiCard(page: Page, title: string) {
  return page.getByRole('group', { name: title });
}

test.describe('/admin (Dashboard)', () => {
  test.beforeEach(async ({ signInAs, visit, page }) => {
    await signInAs('admin');
    await visit('/admin');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  });

  test('the KPIs, recent clinics and alerts are the figures the server computes', async ({ page }) => {
    // Other tests change clinics meanwhile: compare a fresh page with the answer read right after it.
    await expect(async () => {
      await page.reload();
      await expect(kpiCard(page, 'Receita Mensal')).toHaveAttribute('aria-busy', 'false');
      const dashboard = adminDashboardSchema.parse(await (await page.request.get('/api/admin/dashboard')).json());
      const { kpis } = dashboard;
      await expect(kpiCard(page, 'Clínicas Ativas')).toContainText(String(kpis.activeClinics), { timeout: 1000 });
      await expect(kpiCard(page, 'Total de Pacientes')).toContainText(String(kpis.totalPatients), { timeout: 1000 });
      await expect(kpiCard(page, 'Assinaturas Ativas')).toContainText(String(kpis.activeSubscriptions), { timeout: 1000 });
      await expect(kpiCard(page, 'Receita Mensal')).toContainText(formatMoney(kpis.monthlyRevenueCents), { timeout: 1000 });

      const recent = page.getByRole('list', { name: 'Clínicas recentes' }).getByRole('listitem');
      await expect(recent).toHaveCount(dashboard.recentClinics.length, { timeout: 1000 });
      for (const [index, clinic] of dashboard.recentClinics.entries()) {
        await expect(recent.nth(index)).toContainText(clinic.name, { timeout: 1000 });
      }

      if (dashboard.alerts.length === 0) {
        await expect(page.getByText('Nenhum alerta no momento')).toBeVisible({ timeout: 1000 });
      } else {
        await expect(page.getByRole('list', { name: 'Alertas' }).getByRole('listitem')).toHaveCount(dashboard.alerts.length, { timeout: 1000 });
      }
    }).toPass({ timeout: 20_000 });
    expect(Number(await kpiCard(page, 'Total de Pacientes').getByText(/^\d+$/).textContent())).toBeGreaterThanOrEqual(1);
  });

  test('Aprovar Cadastro approves a clinic in trial', async ({ page }) => {
    const clinic = await createClinicViaApi(page.request, { name: `Clínica Trial ${uniqueSuffix()}`, status: 'trial' });
    try {
      await page.reload();
      await expect(page.getByRole('list', { name: 'Alertas' })).toContainText(`${clinic.name} aguarda aprovação`);

      await page.getByRole('button', { name: 'Aprovar Cadastro' }).click();
      const dialog = page.getByRole('dialog', { name: 'Aprovar Cadastro' });
      const item = dialog.getByRole('listitem').filter({ hasText: clinic.name });
      await expect(item).toBeVisible();
      await item.getByRole('button', { name: `Aprovar ${clinic.name}` }).click();
      await expect(page.getByText('Cadastro aprovado com sucesso!')).toBeVisible();
      await expect(item).toHaveCount(0);

      const approved = clinicDetailSchema.parse(await (await page.request.get(`/api/admin/clinics/${clinic.id}`)).json());
      expect(approved.status).toBe('active');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('list', { name: 'Alertas' }).getByText(`${clinic.name} aguarda aprovação`)).toHaveCount(0);
    } finally {
      await deleteClinicViaApi(page.request, clinic.id);
    }
  });

  test('Nova Clínica opens the clinic form and the new clinic shows among the recent ones', async ({ page }) => {
    const suffix = uniqueSuffix();
    const name = `Clínica Painel ${suffix}`;
    const cnpj = uniqueCnpj();
    await page.getByRole('button', { name: 'Nova Clínica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova Clínica' });
    await expect(dialog.getByLabel('CNPJ')).toHaveAttribute('placeholder', '00.000.000/0000-00');
    await dialog.getByLabel('Nome').fill(name);
    await dialog.getByLabel('CNPJ').fill(cnpj);
    await dialog.getByLabel('Subdomínio').fill(`painel-${suffix}`);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('Clínica criada com sucesso!')).toBeVisible();
    await expect(dialog).toBeHidden();
    try {
      await expect(page.getByRole('list', { name: 'Clínicas recentes' })).toContainText(name);
    } finally {
      const created = pageOf(adminClinicSchema).parse(await (await page.request.get(`/api/admin/clinics?q=${cnpj}`)).json()).items;
      for (const clinic of created) await deleteClinicViaApi(page.request, clinic.id);
    }
  });

  test('Criar Plano opens the plan form and Novo Usuário goes to the users page', async ({ page }) => {
    await page.getByRole('button', { name: 'Criar Plano' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo Plano' });
    await expect(dialog.getByLabel('Preço (R$)')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();

    const newUser = page.getByRole('link', { name: 'Novo Usuário' });
    await expect(newUser).toHaveAttribute('href', '/admin/usuarios?novo=1');
    await newUser.click();
    await expect(page).toHaveURL(/\/admin\/usuarios\?novo=1$/);
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  });
});
