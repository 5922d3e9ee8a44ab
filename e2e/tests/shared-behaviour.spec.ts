import type { Locator, Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { adminClinicSchema } from '@carteirinha/shared/contracts/clinics';
import { pageOf } from '@carteirinha/shared/contracts/pagination';
import { formatCnpj } from '@carteirinha/shared/format';
import { createClinicViaApi, deleteClinicViaApi, uniqueCnpj, uniqueSuffix } from '../admin-data';
import { expect, test } from '../fixtures';
import { signUpOnPlatform } from '../tenancy';

/**
 * Issue 13, "Shared behaviour": what every screen inherits from the shared pieces (dialogs, the API client, the query
 * client, the router, toasts, masked inputs). Each test names the item it covers.
 */

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function toasts(page: Page): Locator {
  return page.locator('[data-sonner-toast]');
}

/** Types a search into an admin list and waits for the server's answer to it (other tests add rows meanwhile). */
async function searchList(page: Page, list: { searchbox: string; path: string }, term: string) {
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === list.path && new URL(r.url()).searchParams.get('q') === term);
  await page.getByRole('searchbox', { name: list.searchbox }).fill(term);
  await answered;
}

const CLINICS_LIST = { searchbox: 'Buscar clínicas', path: '/api/admin/clinics' };
const USERS_LIST = { searchbox: 'Buscar usuários', path: '/api/admin/users' };

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'element is laid out').not.toBeNull();
  return box!;
}

test.describe('1. focus after a row menu dialog, and the skip link', () => {
  test('closing Editar, Excluir or Alterar Permissões gives focus back to the row menu button', async ({ page, signInAs, visit }) => {
    await signInAs('admin');
    const clinic = await createClinicViaApi(page.request, { name: `Clínica Foco ${uniqueSuffix()}` });
    try {
      await visit('/admin/clinicas');
      await searchList(page, CLINICS_LIST, clinic.name);
      const menuButton = page.getByRole('button', { name: `Ações da clínica ${clinic.name}` });

      // Editar, by keyboard: the menu opens on Enter, the dialog closes on Esc.
      await menuButton.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'Editar' }).click();
      await expect(page.getByRole('dialog', { name: 'Editar Clínica' })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(menuButton).toBeFocused();

      // Excluir, cancelled: back on the same button.
      await menuButton.click();
      await page.getByRole('menuitem', { name: 'Excluir' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.getByRole('button', { name: 'Cancelar' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(menuButton).toBeFocused();

      // Excluir, confirmed: the row and its button are gone, so focus goes to the main content, not to <body>.
      await menuButton.click();
      await page.getByRole('menuitem', { name: 'Excluir' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Excluir' }).click();
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await expect(menuButton).toHaveCount(0);
      await expect(page.getByRole('main')).toBeFocused();
    } finally {
      await deleteClinicViaApi(page.request, clinic.id);
    }

    await visit('/admin/usuarios');
    await searchList(page, USERS_LIST, DEMO_ACCOUNTS.clinicStaff);
    const userMenu = page.getByRole('button', { name: `Ações de ${DEMO_ACCOUNTS.clinicStaff}` });
    await userMenu.click();
    await page.getByRole('menuitem', { name: 'Alterar Permissões' }).click();
    const roleDialog = page.getByRole('dialog', { name: 'Editar Usuário' });
    await expect(roleDialog).toBeVisible();
    await roleDialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(roleDialog).toHaveCount(0);
    await expect(userMenu).toBeFocused();
  });

  for (const [device, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`'Pular para o conteúdo' is the first stop of the keyboard and leads to the main content (${device})`, async ({ page, signInAs, visit }) => {
      await page.setViewportSize(size);
      await signInAs('admin');
      await visit('/admin/planos');
      const skip = page.getByRole('link', { name: 'Pular para o conteúdo' });
      // Hidden until the keyboard reaches it.
      await expect(skip).not.toBeInViewport();
      await page.keyboard.press('Tab');
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await page.screenshot({ path: `/tmp/h7/skip-link-${device}.png` });
      await page.keyboard.press('Enter');
      await expect(page.getByRole('main')).toBeFocused();
      // The next Tab starts inside the page, not at the sidebar.
      await page.keyboard.press('Tab');
      await expect(page.getByRole('main').locator(':focus')).toHaveCount(1);
    });
  }
});

test.describe('2. saving on a bad connection', () => {
  test('offline, Nova Clínica fails at once with "Sem conexão. Nada foi salvo.", keeps the form and never saves later', async ({ page, context, signInAs, visit }) => {
    await signInAs('admin');
    await visit('/admin/clinicas');
    const name = `Clínica Offline ${uniqueSuffix()}`;
    const slug = `offline-${uniqueSuffix()}`;
    const posts: { key: string | null }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/admin/clinics') posts.push({ key: request.headers()['idempotency-key'] ?? null });
    });

    await page.getByRole('button', { name: 'Nova Clínica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova Clínica' });
    await dialog.getByLabel('Nome').fill(name);
    await dialog.getByLabel('CNPJ').fill(uniqueCnpj());
    await dialog.getByLabel('Subdomínio').fill(slug);

    await context.setOffline(true);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(toasts(page).filter({ hasText: 'Erro ao criar clínica: Sem conexão. Nada foi salvo.' })).toBeVisible();
    // The form is kept as typed, and ready for another try.
    await expect(dialog.getByLabel('Nome')).toHaveValue(name);
    await expect(dialog.getByRole('button', { name: 'Salvar' })).toBeEnabled();

    // Back online: nothing queued goes out on its own.
    await context.setOffline(false);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(posts).toEqual([]);

    // The connection drops while saving: the answer is lost. The user's retry sends the same idempotency key.
    let dropped = false;
    await page.route('**/api/admin/clinics', (route) => {
      if (route.request().method() === 'POST' && !dropped) {
        dropped = true;
        return route.abort('connectionreset');
      }
      return route.fallback();
    });
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(toasts(page).filter({ hasText: 'Sem conexão. Nada foi salvo.' }).first()).toBeVisible();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(toasts(page).filter({ hasText: 'Clínica criada com sucesso!' })).toBeVisible();
    await expect(dialog).toHaveCount(0);

    expect(posts).toHaveLength(2);
    expect(posts[0]!.key).toMatch(UUID);
    expect(posts[1]!.key).toBe(posts[0]!.key);
    const found = pageOf(adminClinicSchema).parse(await (await page.request.get(`/api/admin/clinics?q=${encodeURIComponent(name)}`)).json());
    expect(found.items.map((clinic) => clinic.name)).toEqual([name]);
    await deleteClinicViaApi(page.request, found.items[0]!.id);
  });
});

test.describe('3. one error state with Tentar novamente', () => {
  const refusal = { status: 403, contentType: 'application/json', body: JSON.stringify({ error: { code: 'FORBIDDEN', message: 'Você não tem permissão para fazer isso' } }) };
  const crash = { status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Erro interno. Tente novamente em instantes.' } }) };

  test('a 4xx shows at once, without retries, and Tentar novamente loads the list', async ({ page, signInAs, visit }) => {
    await signInAs('admin');
    let calls = 0;
    await page.route('**/api/admin/clinics?*', (route) => {
      calls += 1;
      return route.fulfill(refusal);
    });
    await visit('/admin/clinicas');
    const table = page.getByRole('table', { name: 'Clínicas da plataforma' });
    await expect(table.getByRole('alert')).toHaveText('Você não tem permissão para fazer isso');
    expect(calls).toBe(1);

    await page.unroute('**/api/admin/clinics?*');
    await table.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(table.getByRole('alert')).toHaveCount(0);
    await expect(table.getByRole('button', { name: /^Ações da clínica / }).first()).toBeVisible();
  });

  test('a 5xx is asked once more before the error state; the users list and its counts both offer a retry', async ({ page, signInAs, visit }) => {
    await signInAs('admin');
    let listCalls = 0;
    await page.route('**/api/admin/users?*', (route) => {
      listCalls += 1;
      return route.fulfill(crash);
    });
    await page.route('**/api/admin/users/counts', (route) => route.fulfill(crash));
    await visit('/admin/usuarios');
    const table = page.getByRole('table');
    await expect(table.getByRole('alert')).toHaveText('Erro interno. Tente novamente em instantes.');
    expect(listCalls).toBe(2);
    await expect(page.getByRole('button', { name: 'Tentar novamente' })).toHaveCount(2);

    await page.unroute('**/api/admin/users?*');
    await page.unroute('**/api/admin/users/counts');
    const retries = page.getByRole('button', { name: 'Tentar novamente' });
    await retries.first().click();
    await expect(retries).toHaveCount(1);
    await retries.first().click();
    await expect(retries).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'Total de Usuários' })).toHaveAttribute('aria-busy', 'false');
  });

  test('Relatórios: a failed summary shows the error state instead of cards loading forever', async ({ page, signInAs, visit }) => {
    await signInAs('admin');
    await page.route('**/api/admin/reports/summary*', (route) => route.fulfill(crash));
    await visit('/admin/relatorios');
    await expect(page.getByRole('alert')).toHaveText('Erro interno. Tente novamente em instantes.');
    await expect(page.getByRole('main')).not.toContainText('Carregando');

    await page.unroute('**/api/admin/reports/summary*');
    await page.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(page.getByTestId('report-count').first()).toHaveText(/^\d+$/);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});

test.describe('5. toasts', () => {
  /** A toast on /admin/relatorios without a dialog: exporting an empty report (a period long gone). */
  async function showEmptyExportToast(page: Page) {
    await page.getByRole('region', { name: 'Clínicas', exact: true }).getByRole('button', { name: 'Exportar CSV' }).click();
    await expect(toasts(page).filter({ hasText: 'Nenhum dado disponível para exportar' })).toBeVisible();
  }

  for (const [device, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`cover neither the top bar, the title nor 'Sair', and go when the page changes (${device})`, async ({ page, signInAs, visit }) => {
      await page.setViewportSize(size);
      await signInAs('admin');
      await visit('/admin/relatorios?de=2001-01-01&ate=2001-12-31');
      await expect(page.getByTestId('report-count').first()).toHaveText('0');
      await showEmptyExportToast(page);
      const toast = await boxOf(toasts(page).first());
      await page.screenshot({ path: `/tmp/h7/toast-${device}.png` });

      expect(overlaps(toast, await boxOf(page.getByRole('banner')))).toBe(false);
      expect(overlaps(toast, await boxOf(page.getByRole('heading', { level: 1 })))).toBe(false);
      if (device === 'desktop') expect(overlaps(toast, await boxOf(page.getByRole('button', { name: 'Sair' })))).toBe(false);
      // Above the phone's safe area and clear of the screen's edges.
      expect(toast.y + toast.height).toBeLessThan(size.height - 16);

      // Another page: the toast does not follow.
      if (device === 'phone') await page.getByRole('button', { name: 'Alternar menu lateral' }).click();
      await page.getByRole('link', { name: 'Clínicas' }).click();
      await expect(page).toHaveURL(/\/admin\/clinicas$/);
      await expect(toasts(page)).toHaveCount(0);
    });
  }

  test('on a phone, a toast shown over a dialog leaves its buttons free', async ({ page, signInAs, visit }) => {
    await page.setViewportSize(PHONE);
    await signInAs('admin');
    await visit('/admin/clinicas');
    await page.getByRole('button', { name: 'Nova Clínica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova Clínica' });
    await dialog.getByLabel('Nome').fill(`Clínica Toast ${uniqueSuffix()}`);
    await dialog.getByLabel('CNPJ').fill(uniqueCnpj());
    await dialog.getByLabel('Subdomínio').fill(`toast-${uniqueSuffix()}`);
    await page.route('**/api/admin/clinics', (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.fallback()));
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    const toast = await boxOf(toasts(page).filter({ hasText: 'Sem conexão. Nada foi salvo.' }));
    await page.screenshot({ path: '/tmp/h7/toast-phone-dialog.png' });
    expect(overlaps(toast, await boxOf(dialog.getByRole('button', { name: 'Salvar' })))).toBe(false);
    expect(overlaps(toast, await boxOf(dialog.getByRole('button', { name: 'Cancelar' })))).toBe(false);
  });

  test("a form's validation toast goes as soon as the form is valid, without piling up", async ({ page, visit }) => {
    await visit('/auth');
    const form = page.getByRole('tabpanel', { name: 'Entrar' });
    await form.getByLabel('Email').fill('nao-e-email');
    await form.getByLabel('Senha').fill('123');
    await form.getByRole('button', { name: 'Entrar', exact: true }).click();
    await expect(toasts(page).filter({ hasText: 'Erro de validação' })).toHaveCount(1);
    await form.getByRole('button', { name: 'Entrar', exact: true }).click();
    await expect(toasts(page).filter({ hasText: 'Erro de validação' })).toHaveCount(1);

    await form.getByLabel('Email').fill('alguem@teste.dev');
    await expect(toasts(page).filter({ hasText: 'Erro de validação' })).toHaveCount(1);
    await form.getByLabel('Senha').fill('senha-valida');
    await expect(toasts(page).filter({ hasText: 'Erro de validação' })).toHaveCount(0);
  });
});

test.describe('6. sign-in returns to the page asked for', () => {
  async function signIn(page: Page, email: string) {
    const form = page.getByRole('tabpanel', { name: 'Entrar' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Senha').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Entrar', exact: true }).click();
  }

  test('a signed-out visit to /admin/planos lands back on /admin/planos after sign-in', async ({ page }) => {
    await page.goto('/admin/planos');
    await expect(page).toHaveURL(/\/auth\?next=%2Fadmin%2Fplanos$/);
    await signIn(page, DEMO_ACCOUNTS.admin);
    await expect(page).toHaveURL(/\/admin\/planos$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gestão de Planos');
  });

  test("a link of the platform's e-mails (the weekly report's) works the same way, query included", async ({ page }) => {
    await page.goto('/admin/relatorios?de=2026-01-01&ate=2026-01-31');
    await signIn(page, DEMO_ACCOUNTS.admin);
    await expect(page).toHaveURL(/\/admin\/relatorios\?de=2026-01-01&ate=2026-01-31$/);
  });

  test("another portal's page, or an address off the site, leads to the role's dashboard", async ({ page }) => {
    await page.goto('/admin/planos');
    await signIn(page, DEMO_ACCOUNTS.patient);
    await expect(page).toHaveURL(/\/paciente$/);
  });

  for (const next of ['//evil.example/admin', 'https://evil.example/admin', '/\\evil.example', '/%5Cevil.example']) {
    test(`refuses ?next=${next}`, async ({ page }) => {
      await page.goto(`/auth?next=${encodeURIComponent(next)}`);
      await signIn(page, DEMO_ACCOUNTS.admin);
      await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/admin$/);
    });
  }

  test('a signed-in user opening /auth?next=… goes straight there', async ({ page, signInAs }) => {
    await signInAs('clinicAdmin');
    await page.goto('/auth?next=%2Fclinica%2Fconfiguracoes');
    await expect(page).toHaveURL(/\/clinica\/configuracoes$/);
  });
});

test.describe('7. one CPF / CNPJ / phone / CEP input', () => {
  test("Nova Clínica masks the CNPJ when the field is left, as onboarding does, and stores the digits", async ({ page, signInAs, visit }) => {
    await signInAs('admin');
    await visit('/admin/clinicas');
    const cnpj = uniqueCnpj();
    const name = `Clínica Máscara ${uniqueSuffix()}`;
    await page.getByRole('button', { name: 'Nova Clínica' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova Clínica' });
    await dialog.getByLabel('Nome').fill(name);
    await dialog.getByLabel('CNPJ').fill(cnpj);
    await dialog.getByLabel('CNPJ').blur();
    await expect(dialog.getByLabel('CNPJ')).toHaveValue(formatCnpj(cnpj));
    await dialog.getByLabel('Subdomínio').fill(`mascara-${uniqueSuffix()}`);
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/admin/clinics');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    const clinic = adminClinicSchema.parse(await (await created).json());
    expect(clinic.cnpj).toBe(cnpj);
    await deleteClinicViaApi(page.request, clinic.id);
  });

  test('onboarding masks the CNPJ the same way', async ({ page, visit }) => {
    await signUpOnPlatform(page);
    await visit('/onboarding');
    const form = page.getByRole('form', { name: 'Criar minha clínica' });
    const cnpj = uniqueCnpj();
    await form.getByLabel('CNPJ').fill(cnpj);
    await form.getByLabel('CNPJ').blur();
    await expect(form.getByLabel('CNPJ')).toHaveValue(formatCnpj(cnpj));
    // A half-typed value stays as typed, for its error to point at.
    await form.getByLabel('CNPJ').fill('1122233');
    await form.getByLabel('CNPJ').blur();
    await expect(form.getByLabel('CNPJ')).toHaveValue('1122233');
  });
});
