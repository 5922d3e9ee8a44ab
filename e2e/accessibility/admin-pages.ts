import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { createClinicViaApi, createPendingSignUp, deleteClinicViaApi, uniqueCnpj, uniqueSuffix } from '../admin-data';
import { expect } from '../fixtures';
import { dismissToasts, uniqueEmail } from '../tenancy';
import { CRASHED, REFUSED, expectToast, holdResponses, toasts, toPhone, type Scenario } from './scenario';

/** The admin portal's pages (/admin/…), as the demo admin sees them. */

function clinicsTable(page: Page) {
  return page.getByRole('table', { name: 'Clínicas da plataforma' });
}

function usersTable(page: Page) {
  return page.getByRole('table', { name: 'Usuários da plataforma' });
}

/**
 * Types into an admin list's search box. The caller then waits for what the answer shows: an answer already cached
 * (a search typed before) makes no request to wait for.
 */
async function searchList(page: Page, list: 'clinics' | 'users', term: string) {
  await page.getByRole('searchbox', { name: list === 'clinics' ? 'Buscar clínicas' : 'Buscar usuários' }).fill(term);
}

async function openClinicsPage(page: Page) {
  await page.goto('/admin/clinicas');
  await expect(clinicsTable(page).getByRole('row').filter({ hasText: 'Clínica Demo' }).first()).toBeVisible();
  await expect(page.getByRole('group', { name: 'Total de Clínicas' })).toHaveAttribute('aria-busy', 'false');
}

async function expectDashboardLoaded(page: Page) {
  await expect(page.getByRole('group', { name: 'MRR da Plataforma' })).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByRole('list', { name: 'Clínicas recentes' })).toBeVisible();
}

async function expectUsersLoaded(page: Page) {
  await expect(usersTable(page)).toHaveAttribute('aria-busy', 'false');
  await expect(usersTable(page).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Total de Usuários' })).toHaveAttribute('aria-busy', 'false');
}

async function expectPlansLoaded(page: Page) {
  await expect(page.getByRole('article', { name: 'Professional', exact: true })).toBeVisible();
  await expect(page.getByRole('group', { name: 'MRR da Plataforma' })).toHaveAttribute('aria-busy', 'false');
}

function reportCard(page: Page, title: 'Clínicas' | 'Usuários' | 'Planos') {
  return page.getByRole('region', { name: title, exact: true });
}

async function expectReportLoaded(page: Page) {
  await expect(reportCard(page, 'Clínicas').getByTestId('report-count')).toHaveText(/^\d+$/);
}

async function expectSettingsLoaded(page: Page) {
  await expect(page.getByLabel('Nome da Plataforma')).not.toHaveValue('');
}

/** The role dialog's clinic picker: types part of the name and chooses the clinic the server found. */
async function chooseClinic(page: Page, name: string) {
  const picker = page.getByRole('dialog', { name: 'Novo Usuário' }).getByRole('combobox', { name: 'Clínica', exact: true });
  await picker.fill(name.slice(0, 10));
  await page.getByRole('dialog', { name: 'Novo Usuário' }).getByRole('option', { name }).click();
  await expect(picker).toHaveValue(name);
}

export const ADMIN_SCENARIOS: readonly Scenario[] = [
  {
    name: 'the dashboard, its approval dialog and its sidebar',
    states: [
      '/admin — dashboard, desktop',
      '/admin — dialog Aprovar Cadastro with a pending sign-up',
      '/admin — success toast over the dashboard',
      '/admin — dashboard with the sidebar collapsed',
      '/admin — dashboard, phone',
      '/admin — the sidebar drawer open, phone',
    ],
    run: async ({ page, playwright, baseURL, signInAs, check }) => {
      const pending = await createPendingSignUp(playwright, baseURL);
      try {
        await signInAs('admin');
        await page.goto('/admin');
        await expectDashboardLoaded(page);
        await check('/admin — dashboard, desktop');

        await page.getByRole('button', { name: 'Aprovar Cadastro' }).click();
        const dialog = page.getByRole('dialog', { name: 'Aprovar Cadastro' });
        const item = dialog.getByRole('listitem').filter({ hasText: pending.name });
        await expect(item).toBeVisible();
        await check('/admin — dialog Aprovar Cadastro with a pending sign-up');
        await item.getByRole('button', { name: `Aprovar ${pending.name}` }).click();
        await expectToast(page, 'Cadastro aprovado com sucesso!');
        await page.keyboard.press('Escape');
        await expect(dialog).toHaveCount(0);
        await check('/admin — success toast over the dashboard');

        await page.keyboard.press('Control+b');
        await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
        await check('/admin — dashboard with the sidebar collapsed');

        await toPhone(page);
        await expect(page.getByTestId('sidebar')).toHaveCount(0);
        await expectDashboardLoaded(page);
        await check('/admin — dashboard, phone');
        await page.getByRole('button', { name: 'Alternar menu lateral' }).click();
        await expect(page.getByRole('dialog').getByTestId('sidebar')).toBeVisible();
        await check('/admin — the sidebar drawer open, phone');
      } finally {
        await deleteClinicViaApi(page.request, pending.clinicId);
      }
    },
  },
  {
    name: 'the dashboard while it loads and when the server refuses',
    states: ['/admin — loading: who is signed in', '/admin — loading: the KPI cards', '/admin — KPI error state (dashboard refused)'],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      const releaseSession = await holdResponses(page, /\/api\/(me|session)$/);
      const releaseDashboard = await holdResponses(page, '**/api/admin/dashboard');
      await page.goto('/admin');
      await expect(page.getByRole('status')).toBeVisible();
      await check('/admin — loading: who is signed in');
      releaseSession();
      await expect(page.getByRole('group', { name: 'MRR da Plataforma' })).toHaveAttribute('aria-busy', 'true');
      await check('/admin — loading: the KPI cards');
      await page.route('**/api/admin/dashboard', (route) => route.fulfill(REFUSED));
      releaseDashboard();
      await page.reload();
      await expect(page.getByRole('alert').filter({ hasText: 'Você não tem permissão para fazer isso' })).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await check('/admin — KPI error state (dashboard refused)');
    },
  },
  {
    name: "the dashboard's dialogs when their data is refused",
    states: [
      '/admin — Aprovar Cadastro and plans refused (dashboard)',
      '/admin — dialog Aprovar Cadastro: the pending sign-ups failed to load',
      '/admin — dialog Nova Clínica: plans failed to load, Tentar novamente',
      '/admin — dialog Nova Clínica, loaded after Tentar novamente',
    ],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.route('**/api/admin/clinics?*', (route) => (new URL(route.request().url()).searchParams.has('awaitingApproval') ? route.fulfill(REFUSED) : route.fallback()));
      await page.route('**/api/admin/plans', (route) => route.fulfill(REFUSED));
      await page.goto('/admin');
      await expectDashboardLoaded(page);
      await check('/admin — Aprovar Cadastro and plans refused (dashboard)');

      await page.getByRole('button', { name: 'Aprovar Cadastro' }).click();
      const approve = page.getByRole('dialog', { name: 'Aprovar Cadastro' });
      await expect(approve.getByRole('alert')).toHaveText('Você não tem permissão para fazer isso');
      await check('/admin — dialog Aprovar Cadastro: the pending sign-ups failed to load');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Nova Clínica' }).click();
      const form = page.getByRole('dialog', { name: 'Nova Clínica' });
      await expect(form.getByRole('alert')).toHaveText('Não foi possível carregar os planos: Você não tem permissão para fazer isso');
      await check('/admin — dialog Nova Clínica: plans failed to load, Tentar novamente');
      await page.unroute('**/api/admin/plans');
      await form.getByRole('button', { name: 'Tentar novamente' }).click();
      await expect(form.getByLabel('Plano')).toBeVisible();
      await check('/admin — dialog Nova Clínica, loaded after Tentar novamente');
    },
  },
  {
    name: 'a portal whose session cannot be read',
    states: ['/admin — error state: who is signed in could not be read'],
    allowConsoleErrors: [/Failed to load resource: the server responded with a status of 500/],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.route(/\/api\/(me|session)$/, (route) => route.fulfill(CRASHED));
      await page.goto('/admin');
      await expect(page.getByRole('button', { name: 'Tentar novamente' })).toBeVisible();
      await check('/admin — error state: who is signed in could not be read');
    },
  },
  {
    name: 'the clinics list, its search and the new-clinic form',
    states: [
      '/admin/clinicas — list, desktop',
      '/admin/clinicas — search results',
      '/admin/clinicas — search with no result (empty state)',
      '/admin/clinicas — dialog Nova Clínica, new form',
      '/admin/clinicas — dialog Nova Clínica with field errors',
      "/admin/clinicas — dialog Nova Clínica with the server's refusal in an error toast",
      '/admin/clinicas — error toast over the list (clinic with patients)',
      '/admin/clinicas — list, phone',
    ],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await openClinicsPage(page);
      await check('/admin/clinicas — list, desktop');
      await searchList(page, 'clinics', '11222333000181');
      await expect(clinicsTable(page).getByRole('row')).toHaveCount(2);
      await check('/admin/clinicas — search results');
      await searchList(page, 'clinics', `nenhuma-clinica-${uniqueSuffix()}`);
      await expect(clinicsTable(page).getByRole('cell', { name: 'Nenhuma clínica encontrada' })).toBeVisible();
      await check('/admin/clinicas — search with no result (empty state)');

      await page.getByRole('button', { name: 'Nova Clínica' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nova Clínica' });
      await expect(dialog.getByLabel('Plano')).not.toHaveValue('');
      await check('/admin/clinicas — dialog Nova Clínica, new form');
      await dialog.getByLabel('CNPJ').fill('11.111.111/1111-11');
      await dialog.getByLabel('Subdomínio').fill('Não Vale');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expect(dialog.getByLabel('CNPJ')).toHaveAttribute('aria-invalid', 'true');
      await expect(dialog.getByLabel('Nome')).toHaveAccessibleDescription('Nome é obrigatório');
      await check('/admin/clinicas — dialog Nova Clínica with field errors');
      const suffix = uniqueSuffix();
      await dialog.getByLabel('Nome').fill(`Clínica Duplicada ${suffix}`);
      // Clínica Demo's CNPJ: only the server knows it is taken.
      await dialog.getByLabel('CNPJ').fill('11.222.333/0001-81');
      await dialog.getByLabel('Subdomínio').fill(`dup-${suffix}`);
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expectToast(page, /^Erro ao criar clínica: .+/);
      await expect(dialog).toBeVisible();
      await check("/admin/clinicas — dialog Nova Clínica with the server's refusal in an error toast");
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(dialog).toBeHidden();

      await searchList(page, 'clinics', '11222333');
      await expect(clinicsTable(page).getByRole('row')).toHaveCount(2);
      await page.getByRole('button', { name: 'Ações da clínica Clínica Demo' }).click();
      await page.getByRole('menuitem', { name: 'Excluir' }).click();
      await page.getByRole('alertdialog', { name: 'Confirmar Exclusão' }).getByRole('button', { name: 'Excluir' }).click();
      await expectToast(page, /^Erro ao excluir clínica: .+/);
      await check('/admin/clinicas — error toast over the list (clinic with patients)');

      await toPhone(page);
      await expect(page.getByRole('button', { name: 'Ações da clínica Clínica Demo' })).toBeInViewport();
      await check('/admin/clinicas — list, phone');
    },
  },
  {
    name: "a clinic's dialogs: Visualizar, Editar and Excluir",
    states: [
      '/admin/clinicas — dialog of a clinic (Visualizar)',
      '/admin/clinicas — dialog Editar Clínica',
      '/admin/clinicas — alertdialog Confirmar Exclusão',
      '/admin/clinicas — success toast over the list',
    ],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      const clinic = await createClinicViaApi(page.request, { name: `Clínica Acessível ${uniqueSuffix()}`, city: 'Campinas', state: 'SP' });
      try {
        await openClinicsPage(page);
        await searchList(page, 'clinics', clinic.name);
        await expect(clinicsTable(page).getByRole('row')).toHaveCount(2);
        const menu = page.getByRole('button', { name: `Ações da clínica ${clinic.name}` });

        await menu.click();
        await page.getByRole('menuitem', { name: 'Visualizar' }).click();
        const view = page.getByRole('dialog', { name: clinic.name });
        await expect(view.getByText('Campinas/SP')).toBeVisible();
        await check('/admin/clinicas — dialog of a clinic (Visualizar)');
        await page.keyboard.press('Escape');
        await expect(view).toBeHidden();

        await menu.click();
        await page.getByRole('menuitem', { name: 'Editar' }).click();
        const edit = page.getByRole('dialog', { name: 'Editar Clínica' });
        await expect(edit.getByLabel('Nome')).toHaveValue(clinic.name);
        await check('/admin/clinicas — dialog Editar Clínica');
        await page.keyboard.press('Escape');
        await expect(edit).toBeHidden();

        await menu.click();
        await page.getByRole('menuitem', { name: 'Excluir' }).click();
        const confirm = page.getByRole('alertdialog', { name: 'Confirmar Exclusão' });
        await expect(confirm).toContainText(clinic.name);
        await check('/admin/clinicas — alertdialog Confirmar Exclusão');
        await confirm.getByRole('button', { name: 'Excluir' }).click();
        await expectToast(page, 'Clínica excluída com sucesso!');
        await expect(confirm).toBeHidden();
        await check('/admin/clinicas — success toast over the list');
      } finally {
        await deleteClinicViaApi(page.request, clinic.id);
      }
    },
  },
  {
    name: 'the new-clinic form offline, on a desktop and on a phone',
    states: ['/admin/clinicas — dialog Nova Clínica with the offline error toast, desktop', '/admin/clinicas — dialog Nova Clínica with the offline error toast, phone'],
    run: async ({ page, context, signInAs, check }) => {
      await signInAs('admin');
      await openClinicsPage(page);
      await page.getByRole('button', { name: 'Nova Clínica' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nova Clínica' });
      await dialog.getByLabel('Nome').fill(`Clínica Offline ${uniqueSuffix()}`);
      await dialog.getByLabel('CNPJ').fill(uniqueCnpj());
      await dialog.getByLabel('Subdomínio').fill(`offline-${uniqueSuffix()}`);
      await context.setOffline(true);
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expectToast(page, 'Erro ao criar clínica: Sem conexão. Nada foi salvo.');
      await check('/admin/clinicas — dialog Nova Clínica with the offline error toast, desktop');

      await dismissToasts(page);
      await toPhone(page);
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expectToast(page, 'Sem conexão. Nada foi salvo.');
      await check('/admin/clinicas — dialog Nova Clínica with the offline error toast, phone');
      await context.setOffline(false);
    },
  },
  {
    name: 'the clinics list while it loads and when the server refuses',
    states: ['/admin/clinicas — error state of the list (4xx) with Tentar novamente', '/admin/clinicas — loading: the list'],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.route('**/api/admin/clinics?*', (route) => route.fulfill(REFUSED));
      await page.goto('/admin/clinicas');
      const table = clinicsTable(page);
      await expect(table.getByRole('alert')).toHaveText('Você não tem permissão para fazer isso');
      await check('/admin/clinicas — error state of the list (4xx) with Tentar novamente');
      await page.unroute('**/api/admin/clinics?*');
      const release = await holdResponses(page, '**/api/admin/clinics?*');
      await table.getByRole('button', { name: 'Tentar novamente' }).click();
      await expect(table).toHaveAttribute('aria-busy', 'true');
      await check('/admin/clinicas — loading: the list');
      release();
      await expect(table.getByRole('button', { name: /^Ações da clínica / }).first()).toBeVisible();
    },
  },
  {
    name: 'the users list, its search and the new-user form',
    states: [
      '/admin/usuarios — dialog Novo Usuário opened by ?novo=1',
      '/admin/usuarios — list, desktop',
      '/admin/usuarios — search with no result (empty state)',
      '/admin/usuarios — dialog Novo Usuário with field errors',
      '/admin/usuarios — dialog Novo Usuário filled, clinic chosen',
      "/admin/usuarios — dialog Novo Usuário with the server's refusal in an error toast",
      '/admin/usuarios — list, phone',
    ],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.goto('/admin/usuarios?novo=1');
      const dialog = page.getByRole('dialog', { name: 'Novo Usuário' });
      await expect(dialog).toBeVisible();
      await check('/admin/usuarios — dialog Novo Usuário opened by ?novo=1');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expectUsersLoaded(page);
      await check('/admin/usuarios — list, desktop');
      await searchList(page, 'users', `ninguem-${uniqueSuffix()}`);
      await expect(usersTable(page).getByRole('cell', { name: 'Nenhum usuário encontrado' })).toBeVisible();
      await check('/admin/usuarios — search with no result (empty state)');
      await searchList(page, 'users', '');
      await expect(usersTable(page).getByRole('cell', { name: 'Nenhum usuário encontrado' })).toHaveCount(0);

      await page.getByRole('button', { name: 'Novo Usuário' }).click();
      await dialog.getByLabel('Função').selectOption({ label: 'Atendente' });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expect(dialog.getByRole('combobox', { name: 'Clínica', exact: true })).toHaveAccessibleDescription('Selecione a clínica do usuário');
      await expect(dialog.getByLabel('Email ou ID do usuário')).toHaveAccessibleDescription(/Informe o email do usuário/);
      await check('/admin/usuarios — dialog Novo Usuário with field errors');
      // The demo patient already has a role: the server refuses a new one.
      await dialog.getByLabel('Email ou ID do usuário').fill(DEMO_ACCOUNTS.patient);
      await chooseClinic(page, 'Clínica Demo');
      await check('/admin/usuarios — dialog Novo Usuário filled, clinic chosen');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expectToast(page, 'Erro ao atribuir função: Este usuário já tem uma função. Use Alterar Permissões.');
      await check("/admin/usuarios — dialog Novo Usuário with the server's refusal in an error toast");
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(dialog).toBeHidden();

      await toPhone(page);
      await expect(page.getByRole('list', { name: 'Usuários da plataforma' }).getByRole('listitem').first()).toBeVisible();
      await check('/admin/usuarios — list, phone');
    },
  },
  {
    name: "a user's dialogs: the invitation, Ver Perfil, Alterar Permissões and Desativar",
    states: [
      '/admin/usuarios — success toast over the list',
      '/admin/usuarios — dialog Perfil do usuário',
      '/admin/usuarios — dialog Editar Usuário (Alterar Permissões)',
      '/admin/usuarios — alertdialog Tem certeza? (Desativar)',
    ],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.goto('/admin/usuarios');
      await expectUsersLoaded(page);
      const email = uniqueEmail();
      await page.getByRole('button', { name: 'Novo Usuário' }).click();
      const dialog = page.getByRole('dialog', { name: 'Novo Usuário' });
      await dialog.getByLabel('Email ou ID do usuário').fill(email);
      await dialog.getByLabel('Função').selectOption({ label: 'Paciente' });
      await chooseClinic(page, 'Clínica Demo');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expectToast(page, 'Função do usuário atribuída com sucesso!');
      await expect(dialog).toBeHidden();
      await check('/admin/usuarios — success toast over the list');

      await searchList(page, 'users', email);
      const actions = page.getByRole('button', { name: `Ações de ${email}` });
      await expect(usersTable(page).getByRole('row')).toHaveCount(2);
      await actions.click();
      await page.getByRole('menuitem', { name: 'Ver Perfil' }).click();
      const profile = page.getByRole('dialog', { name: 'Perfil do usuário' });
      await expect(profile).toContainText(email);
      await expect(profile).toContainText('Sessões ativas');
      await check('/admin/usuarios — dialog Perfil do usuário');
      await page.keyboard.press('Escape');
      await expect(profile).toBeHidden();

      await actions.click();
      await page.getByRole('menuitem', { name: 'Alterar Permissões' }).click();
      const edit = page.getByRole('dialog', { name: 'Editar Usuário' });
      await expect(edit.getByLabel('Função')).toHaveValue('patient');
      await check('/admin/usuarios — dialog Editar Usuário (Alterar Permissões)');
      await edit.getByRole('button', { name: 'Cancelar' }).click();
      await expect(edit).toBeHidden();

      await actions.click();
      await page.getByRole('menuitem', { name: 'Desativar' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Tem certeza?' });
      await expect(confirm).toContainText('Esta ação não pode ser desfeita.');
      await check('/admin/usuarios — alertdialog Tem certeza? (Desativar)');
      await confirm.getByRole('button', { name: 'Cancelar' }).click();
      await expect(confirm).toBeHidden();
    },
  },
  {
    name: 'the users list while it loads and when the server fails',
    states: ['/admin/usuarios — error state of the list and the counts (5xx) with Tentar novamente', '/admin/usuarios — loading: the list'],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.route('**/api/admin/users?*', (route) => route.fulfill(CRASHED));
      await page.route('**/api/admin/users/counts', (route) => route.fulfill(CRASHED));
      await page.goto('/admin/usuarios');
      await expect(page.getByRole('button', { name: 'Tentar novamente' })).toHaveCount(2);
      await check('/admin/usuarios — error state of the list and the counts (5xx) with Tentar novamente');
      await page.unroute('**/api/admin/users?*');
      await page.unroute('**/api/admin/users/counts');
      const release = await holdResponses(page, '**/api/admin/users?*');
      await usersTable(page).getByRole('button', { name: 'Tentar novamente' }).click();
      await expect(usersTable(page)).toHaveAttribute('aria-busy', 'true');
      await check('/admin/usuarios — loading: the list');
      release();
      await expect(usersTable(page)).toHaveAttribute('aria-busy', 'false');
    },
  },
  {
    name: 'the plans, their forms and the skip link',
    states: [
      '/admin/planos — plans and comparison, desktop',
      "/admin/planos — skip link 'Pular para o conteúdo' focused, desktop",
      '/admin/planos — dialog Novo Plano filled',
      '/admin/planos — dialog Novo Plano with field errors',
      '/admin/planos — dialog Editar Plano',
      '/admin/planos — success toast over the plans',
      '/admin/planos — alertdialog Confirmar Exclusão',
      '/admin/planos — error toast over the plans (plan in use)',
      '/admin/planos — plans and comparison, phone',
      "/admin/planos — skip link 'Pular para o conteúdo' focused, phone",
    ],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.goto('/admin/planos');
      await expectPlansLoaded(page);
      await check('/admin/planos — plans and comparison, desktop');
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'Pular para o conteúdo' })).toBeFocused();
      await check("/admin/planos — skip link 'Pular para o conteúdo' focused, desktop");

      await page.getByRole('button', { name: 'Novo Plano' }).click();
      const dialog = page.getByRole('dialog', { name: 'Novo Plano' });
      await dialog.getByLabel('Nome').fill('Plano de Teste');
      await dialog.getByLabel('Preço (R$)').fill('1.234,56');
      await dialog.getByLabel('Descrição').fill('Plano que o teste não salva');
      await dialog.getByLabel('Recursos').fill('Recurso um\nRecurso dois');
      await dialog.getByLabel('Limite de pacientes').fill('50');
      await dialog.getByLabel('Suporte').selectOption({ label: 'Dedicado' });
      await dialog.getByLabel('SLA (%)').fill('99,5');
      await check('/admin/planos — dialog Novo Plano filled');
      await dialog.getByLabel('Nome').fill('');
      await dialog.getByLabel('Preço (R$)').fill('-5');
      await dialog.getByLabel('Recursos').fill('');
      await dialog.getByLabel('Limite de pacientes').fill('0');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expect(dialog.getByLabel('Nome')).toHaveAccessibleDescription('Nome é obrigatório');
      await expect(dialog.getByLabel('Preço (R$)')).toHaveAttribute('aria-invalid', 'true');
      await check('/admin/planos — dialog Novo Plano with field errors');
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(dialog).toBeHidden();

      // Enterprise saved as it is: a success that changes no plan (other tests count and list the plans).
      await page.getByRole('button', { name: 'Editar plano Enterprise' }).click();
      const edit = page.getByRole('dialog', { name: 'Editar Plano' });
      await expect(edit.getByLabel('Nome')).toHaveValue('Enterprise');
      await check('/admin/planos — dialog Editar Plano');
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await expectToast(page, 'Plano atualizado com sucesso!');
      await expect(edit).toBeHidden();
      await check('/admin/planos — success toast over the plans');

      await page.getByRole('button', { name: 'Excluir plano Professional' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Confirmar Exclusão' });
      await expect(confirm).toContainText('Professional');
      await check('/admin/planos — alertdialog Confirmar Exclusão');
      await confirm.getByRole('button', { name: 'Excluir' }).click();
      await expectToast(page, /^Erro ao excluir plano: /);
      await check('/admin/planos — error toast over the plans (plan in use)');

      await toPhone(page);
      await expect(page.getByRole('region', { name: 'Enterprise' })).toBeVisible();
      await check('/admin/planos — plans and comparison, phone');
      await page.reload();
      await expectPlansLoaded(page);
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'Pular para o conteúdo' })).toBeFocused();
      await check("/admin/planos — skip link 'Pular para o conteúdo' focused, phone");
    },
  },
  {
    name: 'the reports: figures, the period, exports and their toasts',
    states: [
      '/admin/relatorios — all-time figures',
      '/admin/relatorios — dialog Filtrar por Período',
      '/admin/relatorios — error toast of the period (dates in the wrong order)',
      '/admin/relatorios — success toast (Relatório exportado)',
      '/admin/relatorios — info toast (Gerando PDF)',
      '/admin/relatorios — a period applied (today)',
      '/admin/relatorios — an empty period applied, desktop',
      "/admin/relatorios — toasts 'Nenhum dado disponível para exportar'",
      '/admin/relatorios — an empty period applied, phone',
      '/admin/relatorios — error toast (session gone)',
    ],
    run: async ({ page, context, signInAs, check }) => {
      await context.addInitScript(() => {
        window.print = () => undefined;
      });
      await signInAs('admin');
      await page.goto('/admin/relatorios');
      await expectReportLoaded(page);
      await check('/admin/relatorios — all-time figures');

      await page.getByRole('button', { name: 'Filtrar Período' }).click();
      const dialog = page.getByRole('dialog', { name: 'Filtrar por Período' });
      await expect(dialog.getByRole('group', { name: 'Data Inicial' }).getByTestId('chosen-date')).toHaveText('Nenhuma data escolhida');
      await check('/admin/relatorios — dialog Filtrar por Período');
      for (const [label, day] of [
        ['Data Inicial', '10'],
        ['Data Final', '1'],
      ] as const) {
        const calendar = dialog.getByRole('group', { name: label });
        await calendar.getByRole('combobox', { name: 'Escolha o ano' }).selectOption('2025');
        await calendar.getByRole('combobox', { name: 'Escolha o mês' }).selectOption('2');
        await calendar.getByRole('button', { name: new RegExp(`\\b${day} de março de 2025`) }).click();
      }
      await dialog.getByRole('button', { name: 'Aplicar Filtro' }).click();
      await expectToast(page, 'Data inicial não pode ser maior que a data final');
      await check('/admin/relatorios — error toast of the period (dates in the wrong order)');
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(dialog).toBeHidden();

      const downloading = page.waitForEvent('download');
      await reportCard(page, 'Clínicas').getByRole('button', { name: 'Exportar CSV' }).click();
      await downloading;
      await expectToast(page, 'Relatório exportado com sucesso!');
      await check('/admin/relatorios — success toast (Relatório exportado)');
      const opening = page.waitForEvent('popup');
      await reportCard(page, 'Usuários').getByRole('button', { name: 'Exportar PDF' }).click();
      await expectToast(page, 'Gerando PDF para impressão...');
      await (await opening).close();
      await check('/admin/relatorios — info toast (Gerando PDF)');

      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
      await page.goto(`/admin/relatorios?de=${today}&ate=${today}`);
      await expectReportLoaded(page);
      await check('/admin/relatorios — a period applied (today)');

      await page.goto('/admin/relatorios?de=2001-01-01&ate=2001-12-31');
      await expect(reportCard(page, 'Clínicas').getByTestId('report-count')).toHaveText('0');
      await check('/admin/relatorios — an empty period applied, desktop');
      await reportCard(page, 'Planos').getByRole('button', { name: 'Exportar CSV' }).click();
      await reportCard(page, 'Clínicas').getByRole('button', { name: 'Exportar PDF' }).click();
      await expect(toasts(page).filter({ hasText: 'Nenhum dado disponível para exportar' })).toHaveCount(2);
      await check("/admin/relatorios — toasts 'Nenhum dado disponível para exportar'");
      await toPhone(page);
      await check('/admin/relatorios — an empty period applied, phone');

      await page.goto('/admin/relatorios');
      await expectReportLoaded(page);
      // The session ends behind the page's back (as after the inactivity timeout on another tab).
      await context.clearCookies();
      await reportCard(page, 'Clínicas').getByRole('button', { name: 'Exportar CSV' }).click();
      await expectToast(page, 'Você precisa estar logado para continuar');
      await check('/admin/relatorios — error toast (session gone)');
    },
  },
  {
    name: "the clinics' payouts (Repasses), desktop and phone",
    states: ['/admin/repasses — every status', '/admin/repasses — paid only', '/admin/repasses — phone'],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.goto('/admin/repasses');
      const table = page.getByRole('table', { name: 'Repasses' });
      await expect(table.getByRole('row').filter({ hasText: 'Clínica Demo' }).first()).toBeVisible();
      await check('/admin/repasses — every status');
      await page.getByLabel('Filtrar por status').selectOption({ label: 'Pago' });
      await expect(table.getByRole('row').filter({ hasText: 'Clínica Demo' }).first()).toContainText('Pago');
      await check('/admin/repasses — paid only');
      await toPhone(page);
      await expect(page.getByRole('list', { name: 'Repasses' }).getByRole('listitem').first()).toBeVisible();
      await check('/admin/repasses — phone');
    },
  },
  {
    name: 'the reports while they load and when the server fails',
    states: ['/admin/relatorios — error state of the summary (5xx) with Tentar novamente', '/admin/relatorios — loading: the figures'],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.route('**/api/admin/reports/summary*', (route) => route.fulfill(CRASHED));
      await page.goto('/admin/relatorios');
      await expect(page.getByRole('alert')).toHaveText('Erro interno. Tente novamente em instantes.');
      await check('/admin/relatorios — error state of the summary (5xx) with Tentar novamente');
      await page.unroute('**/api/admin/reports/summary*');
      const release = await holdResponses(page, '**/api/admin/reports/summary*');
      await page.getByRole('button', { name: 'Tentar novamente' }).click();
      await expect(page.getByRole('alert')).toHaveCount(0);
      await check('/admin/relatorios — loading: the figures');
      release();
      await expectReportLoaded(page);
    },
  },
  {
    name: 'the printable reports',
    states: [
      '/admin/relatorios/imprimir/:kind — usuarios, desktop',
      '/admin/relatorios/imprimir/:kind — clinicas, desktop',
      '/admin/relatorios/imprimir/:kind — planos, desktop',
      '/admin/relatorios/imprimir/:kind — clinicas, phone',
      '/admin/relatorios/imprimir/:kind — a report that does not exist',
    ],
    run: async ({ page, context, signInAs, check }) => {
      await context.addInitScript(() => {
        window.print = () => undefined;
      });
      await signInAs('admin');
      for (const [kind, title] of [
        ['usuarios', 'Relatório de Usuários'],
        ['clinicas', 'Relatório de Clínicas'],
        ['planos', 'Relatório de Planos'],
      ] as const) {
        await page.goto(`/admin/relatorios/imprimir/${kind}`);
        await expect(page.getByRole('table', { name: title }).getByRole('row').nth(1)).toBeVisible();
        await check(`/admin/relatorios/imprimir/:kind — ${kind}, desktop`);
      }
      await toPhone(page);
      await page.goto('/admin/relatorios/imprimir/clinicas');
      await expect(page.getByRole('table', { name: 'Relatório de Clínicas' }).getByRole('cell', { name: '11.222.333/0001-81' })).toBeVisible();
      await check('/admin/relatorios/imprimir/:kind — clinicas, phone');
      await page.goto('/admin/relatorios/imprimir/nenhum');
      await expect(page.getByRole('alert')).toBeVisible();
      await check('/admin/relatorios/imprimir/:kind — a report that does not exist');
    },
  },
  {
    name: 'the settings form, its errors and its questions (nothing saved)',
    states: [
      '/admin/configuracoes — form, desktop',
      '/admin/configuracoes — field errors, desktop',
      '/admin/configuracoes — SMTP test outcomes',
      "/admin/configuracoes — alertdialog 'Sair sem salvar?'",
      '/admin/configuracoes — dialog Confirme sua senha with a wrong password',
      '/admin/configuracoes — form, phone',
      '/admin/configuracoes — form with unsaved changes and the save bar, phone',
      '/admin/configuracoes — field errors, phone',
    ],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.goto('/admin/configuracoes');
      await expectSettingsLoaded(page);
      await check('/admin/configuracoes — form, desktop');

      await page.getByLabel('Timeout de sessão (minutos)').fill('2');
      await page.getByLabel('Email de Suporte').fill('suporte@');
      await page.getByRole('button', { name: 'Salvar Alterações' }).click();
      await expect(page.getByText('Timeout deve ser entre 5 e 720 minutos').first()).toBeVisible();
      await expect(page.getByText('Email inválido').first()).toBeVisible();
      await check('/admin/configuracoes — field errors, desktop');

      // A port that is no SMTP server: refused without connecting.
      await page.getByLabel('Servidor SMTP').fill('127.0.0.1');
      await page.getByLabel('Porta').fill('5432');
      await page.getByRole('button', { name: 'Testar Conexão' }).click();
      await expect(page.getByText(/Falha na conexão SMTP: porta não permitida/)).toBeVisible();
      await check('/admin/configuracoes — SMTP test outcomes');

      await page.getByRole('link', { name: 'Clínicas' }).click();
      const question = page.getByRole('alertdialog', { name: 'Sair sem salvar?' });
      await expect(question).toBeVisible();
      await check("/admin/configuracoes — alertdialog 'Sair sem salvar?'");
      await question.getByRole('button', { name: 'Sair sem salvar' }).click();
      await expect(page).toHaveURL(/\/admin\/clinicas$/);

      await page.goto('/admin/configuracoes');
      await expectSettingsLoaded(page);
      // A longer timeout weakens security: the password is asked first. A wrong one saves nothing.
      const timeout = page.getByLabel('Timeout de sessão (minutos)');
      const original = await timeout.inputValue();
      await timeout.fill(String(Number(original) + 15));
      await page.getByRole('button', { name: 'Salvar Alterações' }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirme sua senha' });
      await confirm.getByLabel('Sua senha').fill(`${DEMO_PASSWORD}-errada`);
      await confirm.getByRole('button', { name: 'Salvar' }).click();
      await expect(confirm.getByText('Senha incorreta')).toBeVisible();
      await check('/admin/configuracoes — dialog Confirme sua senha with a wrong password');
      await page.keyboard.press('Escape');
      await expect(confirm).toBeHidden();
      await timeout.fill(original);

      await toPhone(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      const bar = page.getByRole('region', { name: 'Salvar configurações' });
      await expect(bar).toContainText('Nenhuma alteração pendente');
      await check('/admin/configuracoes — form, phone');
      await page.getByLabel('Nome da Plataforma').fill('Carteirinha (rascunho)');
      await expect(bar).toContainText('Há alterações não salvas');
      await check('/admin/configuracoes — form with unsaved changes and the save bar, phone');
      await page.getByLabel('Tamanho mínimo da senha').fill('1');
      await bar.getByRole('button', { name: 'Salvar Alterações' }).click();
      await expect(page.getByLabel('Tamanho mínimo da senha')).toBeFocused();
      await check('/admin/configuracoes — field errors, phone');
    },
  },
  {
    name: 'the settings saved',
    states: ['/admin/configuracoes — success toast over the form'],
    platformWide: true,
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.goto('/admin/configuracoes');
      await expectSettingsLoaded(page);
      const phone = page.getByLabel('Telefone');
      const original = await phone.inputValue();
      await phone.fill(original === '(11) 3333-1234' ? '(11) 3333-4321' : '(11) 3333-1234');
      await page.getByRole('button', { name: 'Salvar Alterações' }).click();
      await expectToast(page, 'Configurações salvas com sucesso!');
      await check('/admin/configuracoes — success toast over the form');
      // Put the demo's settings back for what runs after.
      await phone.fill(original);
      const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/settings' && r.request().method() === 'PUT');
      await page.getByRole('button', { name: 'Salvar Alterações' }).click();
      expect((await saved).status()).toBe(200);
    },
  },
  {
    name: 'Segurança: the passkeys page, without a passkey, on a desktop and on a phone (admin)',
    states: ['/admin/seguranca — Segurança, no passkey', '/admin/seguranca — Segurança, no passkey, phone'],
    run: async ({ page, signInAs, check }) => {
      await signInAs('admin');
      await page.goto('/admin/seguranca');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Segurança');
      await expect(page.getByRole('button', { name: 'Adicionar chave de acesso' })).toBeVisible();
      await check('/admin/seguranca — Segurança, no passkey');
      await toPhone(page);
      await check('/admin/seguranca — Segurança, no passkey, phone');
    },
  },
];
