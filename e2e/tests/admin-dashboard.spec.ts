import type { Page } from '@playwright/test';
import { clinicDetailSchema, adminClinicSchema } from '@carteirinha/shared/contracts/clinics';
import { adminDashboardSchema } from '@carteirinha/shared/contracts/dashboard';
import { pageOf } from '@carteirinha/shared/contracts/pagination';
import { formatMoney } from '@carteirinha/shared/format';
import { createPendingSignUp, deleteClinicViaApi, uniqueCnpj, uniqueSuffix } from '../admin-data';
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
      await expect(kpiCard(page, 'MRR da Plataforma')).toHaveAttribute('aria-busy', 'false');
      const dashboard = adminDashboardSchema.parse(await (await page.request.get('/api/admin/dashboard')).json());
      const { kpis } = dashboard;
      await expect(kpiCard(page, 'Clínicas Ativas')).toContainText(String(kpis.activeClinics), { timeout: 1000 });
      await expect(kpiCard(page, 'Total de Pacientes')).toContainText(String(kpis.totalPatients), { timeout: 1000 });
      await expect(kpiCard(page, 'Assinaturas de Pacientes')).toContainText(String(kpis.activeSubscriptions), { timeout: 1000 });
      await expect(kpiCard(page, 'MRR da Plataforma')).toContainText(formatMoney(kpis.monthlyRevenueCents), { timeout: 1000 });

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

  test('Aprovar Cadastro lists a pending sign-up and approves it', async ({ page, playwright, baseURL }) => {
    // Someone signs up on the platform and creates a clinic: in trial, awaiting approval.
    const clinic = await createPendingSignUp(playwright, baseURL);
    try {
      await page.reload();
      await expect(page.getByRole('list', { name: 'Alertas' })).toContainText(`${clinic.name} aguarda aprovação`);

      await page.getByRole('button', { name: 'Aprovar Cadastro' }).click();
      const dialog = page.getByRole('dialog', { name: 'Aprovar Cadastro' });
      const pending = dialog.getByRole('list', { name: 'Cadastros aguardando aprovação' });
      const item = pending.getByRole('listitem').filter({ hasText: clinic.name });
      await expect(item).toBeVisible();
      await item.getByRole('button', { name: `Aprovar ${clinic.name}` }).click();
      await expect(page.getByText('Cadastro aprovado com sucesso!')).toBeVisible();
      // The list is read again from the server: the clinic is no longer pending.
      await expect(dialog.getByText(clinic.name)).toHaveCount(0);

      const approved = clinicDetailSchema.parse(await (await page.request.get(`/api/admin/clinics/${clinic.clinicId}`)).json());
      // Approval opens the site and keeps the 14-day trial: the clinic starts paying when the trial ends.
      expect(approved.status).toBe('trial');
      expect(approved.approvedAt).not.toBeNull();
      const stillPending = pageOf(adminClinicSchema).parse(await (await page.request.get('/api/admin/clinics?awaitingApproval=true&pageSize=100')).json());
      expect(stillPending.items.map((item) => item.id)).not.toContain(clinic.clinicId);

      await page.keyboard.press('Escape');
      await expect(page.getByRole('list', { name: 'Alertas' }).getByText(`${clinic.name} aguarda aprovação`)).toHaveCount(0);
    } finally {
      await deleteClinicViaApi(page.request, clinic.clinicId);
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

  test('Criar Plano opens the plan form, and Novo Usuário opens the new-user dialog of the users page', async ({ page }) => {
    await page.getByRole('button', { name: 'Criar Plano' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo Plano' });
    await expect(dialog.getByLabel('Preço (R$)')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();

    const newUser = page.getByRole('link', { name: 'Novo Usuário' });
    await expect(newUser).toHaveAttribute('href', '/admin/usuarios?novo=1');
    await newUser.click();
    const userDialog = page.getByRole('dialog', { name: 'Novo Usuário' });
    await expect(userDialog).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/usuarios/);
    await page.keyboard.press('Escape');
    await expect(userDialog).toBeHidden();
    // Behind the dialog was the users page itself.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Usuários');
  });
});

test.describe('/admin (Dashboard) when the server cannot answer', () => {
  /** A refusal the client does not retry (a 4xx), so the error shows at once. */
  const refusal = { status: 403, contentType: 'application/json', body: JSON.stringify({ error: { code: 'FORBIDDEN', message: 'Você não tem permissão para fazer isso' } }) };

  test.beforeEach(async ({ signInAs }) => {
    await signInAs('admin');
  });

  test('the KPI cards say why instead of loading forever', async ({ page, visit }) => {
    await page.route('**/api/admin/dashboard', (route) => route.fulfill(refusal));
    await visit('/admin');
    await expect(page.getByRole('alert').filter({ hasText: 'Você não tem permissão para fazer isso' })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    // The quick actions still work.
    await expect(page.getByRole('button', { name: 'Aprovar Cadastro' })).toBeEnabled();
  });

  test('Aprovar Cadastro and Nova Clínica say why their data did not load, and the form comes once it does', async ({ page, visit }) => {
    await page.route('**/api/admin/clinics?*', (route) => (new URL(route.request().url()).searchParams.has('awaitingApproval') ? route.fulfill(refusal) : route.fallback()));
    await page.route('**/api/admin/plans', (route) => route.fulfill(refusal));
    await visit('/admin');

    await page.getByRole('button', { name: 'Aprovar Cadastro' }).click();
    const approve = page.getByRole('dialog', { name: 'Aprovar Cadastro' });
    await expect(approve.getByRole('alert')).toHaveText('Você não tem permissão para fazer isso');
    await expect(approve.getByRole('status')).toHaveCount(0);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Nova Clínica' }).click();
    const form = page.getByRole('dialog', { name: 'Nova Clínica' });
    await expect(form.getByRole('alert')).toHaveText('Não foi possível carregar os planos: Você não tem permissão para fazer isso');
    await page.unroute('**/api/admin/plans');
    await form.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(form.getByLabel('Plano')).toBeVisible();
    await expect(form.getByRole('alert')).toHaveCount(0);
  });
});
