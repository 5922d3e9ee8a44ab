import type { Locator, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { adminClinicSchema } from '@carteirinha/shared/contracts/clinics';
import { pageOf } from '@carteirinha/shared/contracts/pagination';
import { adminUserSchema, assignRoleResponseSchema, userCountsSchema } from '@carteirinha/shared/contracts/users';
import { DEMO_ACCOUNTS } from '@carteirinha/shared/constants';
import { expect, expectCardShows, test } from '../fixtures';
import { captchaHeaders } from '../captcha';
import { confirmEmail } from '../tenancy';

const COLUMNS = ['Email', 'Função', 'Clínica', 'Status', 'Último Login', 'Ações'];
const LAST_LOGIN = /^(\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}|-)$/;
const USER_FIELD = 'Email ou ID do usuário';
const SIGN_UP_PASSWORD = 'senha-e2e-123';

/** A unique token: tests run in parallel on one database. */
function uniqueToken(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

function uniqueEmail(prefix: string): string {
  return `e2e.${prefix}.${uniqueToken()}@teste.dev`;
}

/**
 * Creates an account through the public sign-up, in a request context of its own so the admin session of the page
 * is not replaced by the new user's. On the platform's host the new account has no role yet ('Desativado').
 */
async function signUpUser(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, email: string, name: string) {
  const context = await playwright.request.newContext({ baseURL });
  try {
    const response = await context.post('/api/auth/sign-up/email', { headers: await captchaHeaders(context), data: { email, password: SIGN_UP_PASSWORD, name } });
    expect(response.status()).toBe(200);
    // The owner confirms the address: a role then reaches this account as it is (others are invited: ADR 006).
    await confirmEmail(baseURL, email);
    return adminUserSchema.pick({ id: true }).parse((await response.json()).user).id;
  } finally {
    await context.dispose();
  }
}

/** Signs in with the password through the API, in a context of its own; answers the status and the body. */
async function signInElsewhere(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, email: string) {
  const context = await playwright.request.newContext({ baseURL });
  try {
    const response = await context.post('/api/auth/sign-in/email', { data: { email, password: SIGN_UP_PASSWORD } });
    return { status: response.status(), body: await response.text() };
  } finally {
    await context.dispose();
  }
}

/** The role dialog's clinic picker: types part of the name and chooses the clinic the server found. */
async function chooseClinic(dialog: Locator, name: string) {
  const picker = dialog.getByRole('combobox', { name: 'Clínica', exact: true });
  await picker.fill(name.slice(0, 10));
  await dialog.getByRole('option', { name }).click();
  await expect(picker).toHaveValue(name);
}

async function demoClinicId(page: Page): Promise<string> {
  const response = await page.request.get('/api/admin/clinics?q=demo&pageSize=100');
  expect(response.status()).toBe(200);
  const demo = pageOf(adminClinicSchema)
    .parse(await response.json())
    .items.find((clinic) => clinic.slug === 'demo');
  expect(demo).toBeDefined();
  return demo!.id;
}

/** Gives `email` a role through the API (as the signed-in admin), for tests about what comes after. */
async function assignThroughApi(page: Page, email: string, role: 'clinic_staff' | 'patient') {
  const response = await page.request.post('/api/admin/user-roles', { data: { email, role, clinicId: await demoClinicId(page) } });
  expect(response.status()).toBe(201);
  return assignRoleResponseSchema.parse(await response.json()).user;
}

function usersTable(page: Page) {
  return page.getByRole('table', { name: 'Usuários da plataforma' });
}

function userRow(page: Page, email: string) {
  return usersTable(page).getByRole('row').filter({ hasText: email });
}

function newUserDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Novo Usuário' });
}

async function expectToast(page: Page, title: string, description?: string) {
  let toast = page.locator('[data-sonner-toast]').filter({ hasText: title });
  if (description) toast = toast.filter({ hasText: description });
  await expect(toast.first()).toBeVisible();
}

/** Types a search and waits until the table shows the server's answer to it (not the previous rows). */
async function search(page: Page, term: string) {
  const answered = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === '/api/admin/users' && url.searchParams.get('q') === term.trim();
  });
  await page.getByRole('searchbox', { name: 'Buscar usuários' }).fill(term);
  expect((await answered).status()).toBe(200);
  // A table on a desktop, a list of cards on a phone: whichever shows the rows says when they are the answer's.
  await expect(usersTable(page).or(page.getByRole('list', { name: 'Usuários da plataforma' }))).toHaveAttribute('aria-busy', 'false');
}

async function openRowAction(page: Page, email: string, action: 'Ver Perfil' | 'Alterar Permissões' | 'Reenviar convite' | 'Desativar') {
  await page.getByRole('button', { name: `Ações de ${email}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test.describe('/admin/usuarios', () => {
  test.beforeEach(async ({ signInAs }) => {
    await signInAs('admin');
  });

  test('shows the five counts the server answered and the user table', async ({ page, visit }) => {
    const countsAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/users/counts');
    await visit('/admin/usuarios');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Usuários');
    await expect(page.getByRole('button', { name: 'Novo Usuário' })).toBeVisible();

    // Other tests change the numbers concurrently: compare with the very answer the page shows.
    const counts = userCountsSchema.parse(await (await countsAnswer).json());
    const cards: [string, number][] = [
      ['Total de Usuários', counts.total],
      ['Super Admins', counts.admins],
      ['Admin de Clínica', counts.clinicAdmins],
      ['Atendentes', counts.staff],
      ['Pacientes', counts.patients],
    ];
    for (const [title, value] of cards) {
      await expect(page.getByRole('group', { name: title })).toContainText(String(value));
    }
    // The demo seed has one account of each role; users without a role count only in the total.
    expect(counts.admins).toBeGreaterThanOrEqual(1);
    expect(counts.clinicAdmins).toBeGreaterThanOrEqual(1);
    expect(counts.staff).toBeGreaterThanOrEqual(1);
    expect(counts.patients).toBeGreaterThanOrEqual(1);
    expect(counts.total).toBeGreaterThanOrEqual(counts.admins + counts.clinicAdmins + counts.staff + counts.patients);

    const table = usersTable(page);
    await expect(table.getByRole('columnheader')).toHaveText(COLUMNS);
    await expect(page.getByRole('searchbox', { name: 'Buscar usuários' })).toHaveAttribute('placeholder', 'Buscar usuários...');

    await search(page, DEMO_ACCOUNTS.clinicStaff);
    const cells = userRow(page, DEMO_ACCOUNTS.clinicStaff).getByRole('cell');
    await expect(cells.nth(1)).toHaveText('Atendente');
    await expect(cells.nth(2)).toHaveText('Clínica Demo');
    await expect(cells.nth(3)).toHaveText('Ativo');
    await expect(cells.nth(4)).toHaveText(LAST_LOGIN);

    await search(page, DEMO_ACCOUNTS.admin);
    const adminCells = userRow(page, DEMO_ACCOUNTS.admin).getByRole('cell');
    await expect(adminCells.nth(1)).toHaveText('Super Admin');
    // A Super Admin belongs to no clinic; this one is signed in now.
    await expect(adminCells.nth(2)).toHaveText('-');
    await expect(adminCells.nth(4)).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });

  test('searches by e-mail and by name, on the server', async ({ page, visit, playwright, baseURL }) => {
    const token = uniqueToken();
    const email = `e2e.busca.${token}@teste.dev`;
    const name = `Pessoa Busca ${token}`;
    await signUpUser(playwright, baseURL, email, name);
    await visit('/admin/usuarios');

    await search(page, email.toUpperCase());
    await expect(userRow(page, email)).toHaveCount(1);
    // A new account without a role yet: nothing closed it, so it is active.
    const cells = userRow(page, email).getByRole('cell');
    await expect(cells.nth(0)).toContainText(email);
    await expect(cells.nth(0)).toContainText(name);
    await expect(cells.nth(1)).toHaveText('-');
    await expect(cells.nth(2)).toHaveText('-');
    await expect(cells.nth(3)).toHaveText('Ativo');

    await search(page, `busca ${token}`);
    await expect(userRow(page, email)).toHaveCount(1);
    await expect(usersTable(page).getByRole('row')).toHaveCount(2);

    await search(page, `ninguem-${token}`);
    await expect(usersTable(page).getByRole('cell', { name: 'Nenhum usuário encontrado' })).toBeVisible();
  });

  test('gives a role to an existing account', async ({ page, visit, playwright, baseURL }) => {
    const email = uniqueEmail('existente');
    await signUpUser(playwright, baseURL, email, 'Conta Existente');
    await visit('/admin/usuarios');

    await page.getByRole('button', { name: 'Novo Usuário' }).click();
    const dialog = newUserDialog(page);
    await expect(dialog.getByText('enviaremos um convite')).toBeVisible();
    await dialog.getByLabel(USER_FIELD).fill(email);
    await dialog.getByLabel('Função').selectOption({ label: 'Atendente' });
    await chooseClinic(dialog, 'Clínica Demo');
    await dialog.getByRole('button', { name: 'Salvar' }).click();

    await expectToast(page, 'Função do usuário atribuída com sucesso!');
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Convite enviado por email.' })).toHaveCount(0);
    await expect(dialog).toBeHidden();

    await search(page, email);
    const cells = userRow(page, email).getByRole('cell');
    await expect(cells.nth(1)).toHaveText('Atendente');
    await expect(cells.nth(2)).toHaveText('Clínica Demo');
    await expect(cells.nth(3)).toHaveText('Ativo');
  });

  test("invites a new e-mail, listed as 'Convite pendente', and can be sent the invitation again", async ({ page, visit }) => {
    const email = uniqueEmail('convite');
    await visit('/admin/usuarios');

    await page.getByRole('button', { name: 'Novo Usuário' }).click();
    const dialog = newUserDialog(page);
    await dialog.getByLabel(USER_FIELD).fill(email);
    await dialog.getByLabel('Função').selectOption({ label: 'Paciente' });
    await chooseClinic(dialog, 'Clínica Demo');
    await dialog.getByRole('button', { name: 'Salvar' }).click();

    await expectToast(page, 'Função do usuário atribuída com sucesso!', 'Convite enviado por email.');
    await expect(dialog).toBeHidden();

    await search(page, email);
    const cells = userRow(page, email).getByRole('cell');
    await expect(cells.nth(1)).toHaveText('Paciente');
    await expect(cells.nth(2)).toHaveText('Clínica Demo');
    // The status is the invitation itself (issue 13, item 11), and the e-mail names the person, not its local part.
    await expect(cells.nth(3)).toHaveText('Convite pendente');
    // Invited, never signed in.
    await expect(cells.nth(4)).toHaveText('-');
    await expect(cells.nth(0)).toContainText(email);
    const identity = (await cells.nth(0).textContent()) ?? '';
    expect(identity.split(email.split('@')[0]!).length - 1, 'the local part is not shown as a name').toBe(1);

    // The e-mail went astray: a new link, the old one retired.
    await openRowAction(page, email, 'Reenviar convite');
    await expectToast(page, 'Convite reenviado por email.');
  });

  test('keeps the dialog open with the server message when the save fails', async ({ page, visit }) => {
    await visit('/admin/usuarios');
    await page.getByRole('button', { name: 'Novo Usuário' }).click();
    const dialog = newUserDialog(page);
    // The demo patient already has a role: a new one is refused (409).
    await dialog.getByLabel(USER_FIELD).fill(DEMO_ACCOUNTS.patient);
    await dialog.getByLabel('Função').selectOption({ label: 'Atendente' });
    await chooseClinic(dialog, 'Clínica Demo');
    await dialog.getByRole('button', { name: 'Salvar' }).click();

    await expectToast(page, 'Erro ao atribuir função: Este usuário já tem uma função. Use Alterar Permissões.');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel(USER_FIELD)).toHaveValue(DEMO_ACCOUNTS.patient);
  });

  test('changes a role with Alterar Permissões', async ({ page, visit }) => {
    const email = uniqueEmail('alterar');
    await assignThroughApi(page, email, 'clinic_staff');
    await visit('/admin/usuarios');
    await search(page, email);

    await openRowAction(page, email, 'Alterar Permissões');
    const dialog = page.getByRole('dialog', { name: 'Editar Usuário' });
    // The user is shown but cannot be changed.
    await expect(dialog.getByLabel('Email do usuário')).toHaveValue(email);
    await expect(dialog.getByLabel('Email do usuário')).not.toBeEditable();
    await expect(dialog.getByLabel('Função')).toHaveValue('clinic_staff');
    // The current clinic is shown by name, whatever page of clinics it would fall on.
    await expect(dialog.getByRole('combobox', { name: 'Clínica', exact: true })).toHaveValue('Clínica Demo');

    await dialog.getByLabel('Função').selectOption({ label: 'Admin de Clínica' });
    await dialog.getByRole('button', { name: 'Salvar' }).click();

    await expectToast(page, 'Função do usuário atualizada com sucesso!');
    await expect(dialog).toBeHidden();
    const cells = userRow(page, email).getByRole('cell');
    await expect(cells.nth(1)).toHaveText('Admin de Clínica');
    await expect(cells.nth(2)).toHaveText('Clínica Demo');
  });

  test('deactivates a user after confirmation: the account can no longer sign in until given a role again', async ({ page, visit, playwright, baseURL }) => {
    const email = uniqueEmail('desativar');
    await signUpUser(playwright, baseURL, email, 'Conta Desativada');
    await assignThroughApi(page, email, 'patient');
    await visit('/admin/usuarios');
    await search(page, email);

    // Cancelling changes nothing.
    await openRowAction(page, email, 'Desativar');
    let confirm = page.getByRole('alertdialog', { name: 'Tem certeza?' });
    await expect(confirm).toContainText('Esta ação removerá permanentemente a função deste usuário. Esta ação não pode ser desfeita.');
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await expect(confirm).toBeHidden();
    await expect(userRow(page, email).getByRole('cell').nth(3)).toHaveText('Ativo');

    await openRowAction(page, email, 'Desativar');
    confirm = page.getByRole('alertdialog', { name: 'Tem certeza?' });
    await confirm.getByRole('button', { name: 'Desativar' }).click();

    await expectToast(page, 'Função do usuário removida com sucesso!');
    await expect(confirm).toBeHidden();
    const cells = userRow(page, email).getByRole('cell');
    await expect(cells.nth(1)).toHaveText('-');
    await expect(cells.nth(2)).toHaveText('-');
    await expect(cells.nth(3)).toHaveText('Desativado');

    // The account is closed: its password no longer signs it in.
    const refused = await signInElsewhere(playwright, baseURL, email);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Esta conta foi desativada. Fale com o administrador da plataforma.');

    // Already deactivated: the menu no longer offers it.
    await page.getByRole('button', { name: `Ações de ${email}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Desativar' })).toBeDisabled();
    await page.keyboard.press('Escape');
    // Closed before the trigger is pressed again: a press while it still closes would toggle it shut (a flake on a
    // loaded machine).
    await expect(page.getByRole('menu')).toBeHidden();

    // A role can be given back with Alterar Permissões, which opens the account again.
    await openRowAction(page, email, 'Alterar Permissões');
    const dialog = page.getByRole('dialog', { name: 'Editar Usuário' });
    await expect(dialog.getByLabel('Função')).toHaveValue('');
    await dialog.getByLabel('Função').selectOption({ label: 'Paciente' });
    await chooseClinic(dialog, 'Clínica Demo');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Função do usuário atribuída com sucesso!');
    await expect(dialog).toBeHidden();
    await expect(cells.nth(1)).toHaveText('Paciente');
    await expect(cells.nth(3)).toHaveText('Ativo');
    expect((await signInElsewhere(playwright, baseURL, email)).status).toBe(200);
  });

  test("offers neither Desativar nor Alterar Permissões on the signed-in admin's own row", async ({ page, visit }) => {
    await visit('/admin/usuarios');
    await search(page, DEMO_ACCOUNTS.admin);
    await expect(userRow(page, DEMO_ACCOUNTS.admin).getByRole('cell').first()).toContainText('(você)');
    await page.getByRole('button', { name: `Ações de ${DEMO_ACCOUNTS.admin}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Ver Perfil' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Desativar' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: 'Alterar Permissões' })).toHaveCount(0);
    await page.keyboard.press('Escape');
  });

  test('takes a pasted user id instead of an e-mail, and names a bad one with the specified message', async ({ page, visit, playwright, baseURL }) => {
    const email = uniqueEmail('por-id');
    const userId = await signUpUser(playwright, baseURL, email, 'Conta Por Id');
    await visit('/admin/usuarios');
    await page.getByRole('button', { name: 'Novo Usuário' }).click();
    const dialog = newUserDialog(page);
    const field = dialog.getByLabel(USER_FIELD);
    await dialog.getByLabel('Função').selectOption({ label: 'Atendente' });
    await chooseClinic(dialog, 'Clínica Demo');

    await field.fill('1234-nao-e-um-id');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(field).toHaveAccessibleDescription(/ID do usuário deve ser um UUID válido/);
    await expect(dialog).toBeVisible();

    await field.fill(userId);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Função do usuário atribuída com sucesso!');
    await expect(dialog).toBeHidden();
    await search(page, email);
    await expect(userRow(page, email).getByRole('cell').nth(1)).toHaveText('Atendente');
  });

  test('searches the clinic of a role on the server', async ({ page, visit }) => {
    await visit('/admin/usuarios');
    await page.getByRole('button', { name: 'Novo Usuário' }).click();
    const dialog = newUserDialog(page);
    await dialog.getByLabel('Função').selectOption({ label: 'Paciente' });
    const asked = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname === '/api/admin/clinics' && url.searchParams.get('q') === 'demo';
    });
    await dialog.getByRole('combobox', { name: 'Clínica', exact: true }).fill('demo');
    expect((await asked).status()).toBe(200);
    await expect(dialog.getByRole('option', { name: 'Clínica Demo' })).toBeVisible();
    // Keyboard: down to the first match, Enter chooses it without submitting the form.
    await dialog.getByRole('combobox', { name: 'Clínica', exact: true }).press('ArrowDown');
    await dialog.getByRole('combobox', { name: 'Clínica', exact: true }).press('Enter');
    await expect(dialog.getByRole('combobox', { name: 'Clínica', exact: true })).toHaveValue('Clínica Demo');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
  });

  test('fits a phone: each account a card with every value, actions within reach, counts two by two', async ({ page, visit }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await visit('/admin/usuarios');
    await search(page, DEMO_ACCOUNTS.clinicStaff);
    await expect(usersTable(page)).toHaveCount(0);
    const card = page.getByRole('list', { name: 'Usuários da plataforma' }).getByRole('listitem').filter({ hasText: DEMO_ACCOUNTS.clinicStaff });
    await expectCardShows(card, [
      ['Função', 'Atendente'],
      ['Clínica', 'Clínica Demo'],
      ['Status', 'Ativo'],
      ['Último Login', ''],
    ]);
    // Nothing sticks out sideways: no horizontal scrolling to reach Ações.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await expect(card.getByRole('button', { name: `Ações de ${DEMO_ACCOUNTS.clinicStaff}` })).toBeVisible();
    await page.getByRole('button', { name: `Ações de ${DEMO_ACCOUNTS.clinicStaff}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Ver Perfil' })).toBeVisible();
    await page.keyboard.press('Escape');

    const first = await page.getByRole('group', { name: 'Total de Usuários' }).boundingBox();
    const second = await page.getByRole('group', { name: 'Super Admins' }).boundingBox();
    expect(first && second && Math.abs(first.y - second.y) < 1 && second.x > first.x).toBe(true);
  });

  test('shows the profile from the server with Ver Perfil', async ({ page, visit }) => {
    await visit('/admin/usuarios');
    await search(page, DEMO_ACCOUNTS.clinicAdmin);
    await openRowAction(page, DEMO_ACCOUNTS.clinicAdmin, 'Ver Perfil');

    const profile = page.getByRole('dialog', { name: 'Perfil do usuário' });
    await expect(profile).toContainText(DEMO_ACCOUNTS.clinicAdmin);
    await expect(profile.getByRole('definition').filter({ hasText: 'Admin de Clínica' })).toBeVisible();
    await expect(profile).toContainText('Clínica Demo');
    await expect(profile).toContainText('Sessões ativas');
  });

  test('validates the form with the specified messages', async ({ page, visit }) => {
    await visit('/admin/usuarios');
    await page.getByRole('button', { name: 'Novo Usuário' }).click();
    const dialog = newUserDialog(page);
    const save = dialog.getByRole('button', { name: 'Salvar' });

    await save.click();
    await expect(dialog.getByLabel('Função')).toHaveAccessibleDescription('Selecione uma função para o usuário');

    // With a role, the rest of the form is checked: who, and (for every role but Super Admin) which clinic.
    await dialog.getByLabel('Função').selectOption({ label: 'Atendente' });
    await save.click();
    const clinic = dialog.getByRole('combobox', { name: 'Clínica', exact: true });
    await expect(dialog.getByLabel(USER_FIELD)).toHaveAccessibleDescription(/Informe o email do usuário/);
    await expect(clinic).toHaveAccessibleDescription('Selecione a clínica do usuário');
    await expect(dialog.getByText('Selecione uma função para o usuário')).toBeHidden();

    await dialog.getByLabel(USER_FIELD).fill('nao-e@email');
    await save.click();
    await expect(dialog.getByText('Email inválido')).toBeVisible();

    await dialog.getByLabel(USER_FIELD).fill(uniqueEmail('validacao'));
    await save.click();
    await expect(dialog.getByText('Informe o email do usuário')).toBeHidden();
    await expect(dialog.getByText('Email inválido')).toBeHidden();
    await expect(clinic).toHaveAccessibleDescription('Selecione a clínica do usuário');
    await expect(dialog).toBeVisible();

    // A Super Admin belongs to no clinic: there is nothing to choose.
    await dialog.getByLabel('Função').selectOption({ label: 'Super Admin' });
    await expect(clinic).toHaveCount(0);
    await expect(dialog.getByText('Super Admins não pertencem a uma clínica.')).toBeVisible();

    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
  });

  test("opens 'Novo Usuário' from the dashboard's quick action link", async ({ page, visit }) => {
    await visit('/admin/usuarios?novo=1');
    await expect(newUserDialog(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(newUserDialog(page)).toBeHidden();
    // Used once: a reload does not open it again.
    await expect(page).toHaveURL(/\/admin\/usuarios$/);
  });
});
