import { expect, test, type DemoAccount } from '../fixtures';

const PORTALS: { account: DemoAccount; home: string; brand: string; entries: [string, string, string][] }[] = [
  {
    account: 'admin',
    home: '/admin',
    brand: 'Admin Portal',
    entries: [
      ['Dashboard', '/admin', 'Dashboard'],
      ['Clínicas', '/admin/clinicas', 'Gestão de Clínicas'],
      ['Usuários', '/admin/usuarios', 'Usuários'],
      ['Planos', '/admin/planos', 'Gestão de Planos'],
      ['Relatórios', '/admin/relatorios', 'Relatórios'],
      ['Configurações', '/admin/configuracoes', 'Configurações'],
    ],
  },
  {
    account: 'clinicAdmin',
    home: '/clinica',
    brand: 'Portal Clínica',
    entries: [
      ['Dashboard', '/clinica', 'Dashboard'],
      ['Validar Cartão', '/clinica/validar', 'Validar Cartão'],
      ['Validar QR Code', '/clinica/validar-qrcode', 'Validar QR Code'],
      ['Atendimentos', '/clinica/atendimentos', 'Atendimentos'],
      ['Serviços', '/clinica/servicos', 'Serviços'],
      ['Pacientes', '/clinica/pacientes', 'Pacientes'],
      ['Equipe', '/clinica/equipe', 'Equipe'],
      ['Financeiro', '/clinica/financeiro', 'Financeiro'],
      ['Configurações', '/clinica/configuracoes', 'Configurações'],
    ],
  },
  {
    account: 'patient',
    home: '/paciente',
    brand: 'Portal do Paciente',
    entries: [
      ['Início', '/paciente', 'Olá, Paulo!'],
      ['Meu Cartão', '/paciente/cartao', 'Meu Cartão'],
      ['Assinatura', '/paciente/assinatura', 'Assinatura'],
      ['Rede Credenciada', '/paciente/rede', 'Rede Credenciada'],
      ['Histórico', '/paciente/historico', 'Histórico'],
      ['Meu Perfil', '/paciente/perfil', 'Meu Perfil'],
    ],
  },
];

for (const portal of PORTALS) {
  test(`${portal.brand}: every sidebar entry opens its page`, async ({ page, signInAs, visit }) => {
    await signInAs(portal.account);
    await visit(portal.home);
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar.getByText(portal.brand, { exact: true })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Menu lateral' });
    for (const [label, path, heading] of portal.entries) {
      await nav.getByRole('link', { name: label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      // Dashboard/Início match exactly: only the current entry is marked.
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
      await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
    }
  });
}

test('the admin sidebar has its group label', async ({ page, signInAs, visit }) => {
  await signInAs('admin');
  await visit('/admin/clinicas');
  await expect(page.getByTestId('sidebar').getByText('Menu Principal')).toBeVisible();
});

test.describe('role guard', () => {
  test('sends a signed-out visitor of any portal to /auth, remembering the page asked for', async ({ page }) => {
    for (const path of ['/admin', '/admin/usuarios', '/clinica/validar', '/paciente/cartao']) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/auth\\?next=${encodeURIComponent(path)}$`));
    }
  });

  const wrongRoles: [DemoAccount, string, RegExp][] = [
    ['patient', '/admin', /\/paciente$/],
    ['patient', '/clinica', /\/paciente$/],
    ['clinicStaff', '/admin/clinicas', /\/clinica$/],
    ['clinicStaff', '/paciente', /\/clinica$/],
    ['admin', '/paciente/perfil', /\/admin$/],
    ['admin', '/clinica/servicos', /\/admin$/],
  ];
  for (const [account, path, landing] of wrongRoles) {
    test(`keeps ${account} out of ${path}`, async ({ page, signInAs }) => {
      await signInAs(account);
      await page.goto(path);
      // The guard sends them to /auth, which forwards a signed-in user to their own portal.
      await expect(page).toHaveURL(landing);
    });
  }
});

test('Sair signs out and lands on /auth; the portal is closed afterwards', async ({ page, signInAs, visit }) => {
  await signInAs('clinicStaff');
  await visit('/clinica/atendimentos');
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('tab', { name: 'Entrar' })).toBeVisible();
  const me = await page.request.get('/api/me');
  expect(me.status()).toBe(401);
  // A later visit is a signed-out visitor's: /auth, keeping the page asked for.
  await page.goto('/clinica');
  await expect(page).toHaveURL(/\/auth\?next=%2Fclinica$/);
});

test.describe('sidebar', () => {
  test('Ctrl+B and ⌘+B toggle it, and the state survives a reload in a 7-day cookie', async ({ page, signInAs, visit, context }) => {
    await signInAs('admin');
    await visit('/admin');
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    const expandedWidth = (await sidebar.boundingBox())?.width ?? 0;
    expect(Math.round(expandedWidth)).toBe(256);

    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await expect.poll(async () => Math.round((await sidebar.boundingBox())?.width ?? 0)).toBe(48);
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    expect(cookie?.path).toBe('/');
    const lifetime = (cookie?.expires ?? 0) - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(604_800 - 120);
    expect(lifetime).toBeLessThanOrEqual(604_800 + 5);

    // Icon mode keeps every entry reachable by name.
    await expect(page.getByRole('navigation', { name: 'Menu lateral' }).getByRole('link', { name: 'Clínicas' })).toBeVisible();

    await page.reload();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');

    await page.keyboard.press('Meta+b');
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');
    await page.getByRole('button', { name: 'Alternar menu lateral' }).click();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
  });

  test('becomes a drawer under 768px', async ({ page, signInAs, visit }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signInAs('patient');
    await visit('/paciente');
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await page.getByRole('button', { name: 'Alternar menu lateral' }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByTestId('sidebar')).toHaveAttribute('data-mobile', 'true');
    expect(Math.round((await drawer.boundingBox())?.width ?? 0)).toBe(288);
    await drawer.getByRole('link', { name: 'Meu Cartão' }).click();
    await expect(page).toHaveURL(/\/paciente\/cartao$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByRole('button', { name: 'Alternar menu lateral' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
