import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { createClinicViaApi, createPendingSignUp, deleteClinicViaApi } from '../admin-data';
import { expect, test } from '../fixtures';
import { clinicOrigin } from '../tenancy';

/** Issue 13, items 8, 9 and 14: the screens a first-time user trips over, on a desktop and on a phone. */

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/h8';

/** Every axe finding, of any impact (the fixture fails only on serious ones): landmark-unique is "moderate". */
async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Whether the page is wider than the window (a sideways scroll on a phone). */
function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

for (const size of SIZES) {
  test.describe(`${size.name} (${size.viewport.width}×${size.viewport.height})`, () => {
    test.use({ viewport: size.viewport });

    test.describe('item 8: the 404 page', () => {
      test.use({ allowConsoleErrors: [/404 Error: User attempted to access non-existent route/] });

      test('speaks pt-BR around the specification’s two lines, on the platform’s host', async ({ page, visit }) => {
        await visit('/nao-existe-mesmo');
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('404');
        await expect(page.getByText('Oops! Page not found')).toBeVisible();
        await expect(page.getByText('Oops! Page not found')).toHaveAttribute('lang', 'en');
        await expect(page.getByText('A página que você procurou não existe ou mudou de endereço.')).toBeVisible();
        await expect(page.getByText('Return to Home')).toHaveCount(0);
        await expect(page.getByTestId('not-found-brand')).toHaveText('Carteirinha');
        expect(await pageOverflow(page)).toBe(0);
        await page.screenshot({ path: `${SHOTS}/404-platform-${size.name}.png`, fullPage: true });
        await page.getByRole('link', { name: 'Voltar para o início' }).click();
        await expect(page).toHaveURL(/\/$/);
      });

      test('wears the clinic’s name, logo and colour on the clinic’s host', async ({ page, visit, baseURL }) => {
        const demo = clinicOrigin(baseURL, 'demo');
        await visit(`${demo}/pagina-perdida`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('404');
        await expect(page.getByTestId('not-found-brand')).toHaveText('Clínica Demo');
        await expect(page).toHaveTitle('Clínica Demo');
        const back = page.getByRole('link', { name: 'Voltar para o site de Clínica Demo' });
        // The demo clinic's teal, with the black text its contrast needs.
        await expect(back).toHaveCSS('background-color', 'rgb(13, 148, 136)');
        expect(await pageOverflow(page)).toBe(0);
        await page.screenshot({ path: `${SHOTS}/404-clinic-${size.name}.png`, fullPage: true });
        await back.click();
        await expect(page).toHaveURL(`${demo}/`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clínica Demo');
      });
    });

    test.describe('item 14: the clinic site', () => {
      test('two plans fill two columns, and each discount is listed once', async ({ page, visit, baseURL }) => {
        await visit(`${clinicOrigin(baseURL, 'demo')}/`);
        const plans = page.getByTestId('clinic-plan');
        await expect(plans).toHaveCount(2);
        const list = page.locator('ul').filter({ has: plans.first() });
        const [listBox, first, second] = await Promise.all([list.boundingBox(), plans.nth(0).boundingBox(), plans.nth(1).boundingBox()]);
        if (size.name === 'desktop') {
          // Side by side and centred: no empty third column on the right.
          expect(Math.abs(first!.y - second!.y)).toBeLessThan(1);
          const left = first!.x - listBox!.x;
          const right = listBox!.x + listBox!.width - (second!.x + second!.width);
          expect(Math.abs(left - right)).toBeLessThan(2);
          expect(second!.x + second!.width).toBeGreaterThan(listBox!.x + listBox!.width - 2);
        } else {
          expect(second!.y).toBeGreaterThan(first!.y);
        }
        for (const card of await plans.all()) {
          // "Consultas: 30%" in the discounts box; not again as "Consultas com 30% de desconto" among the features.
          await expect(card.getByText(/consultas/i)).toHaveCount(1);
          await expect(card.getByText('Consultas: 30%')).toBeVisible();
        }
        await expect(page.getByTestId('clinic-plan').filter({ hasText: 'Plano Família' })).toContainText('Titular e até 3 dependentes');
        expect(await pageOverflow(page)).toBe(0);
        await page.getByRole('heading', { name: 'Planos' }).first().scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/clinic-plans-${size.name}.png`, fullPage: true });
      });
    });

    test.describe('item 14: the landing page of a signed-in visitor', () => {
      test('offers the way to their portal instead of Entrar, on the platform and on the clinic’s site', async ({ page, signInAs, visit, baseURL }) => {
        await visit('/');
        await expect(page.getByRole('banner').getByRole('link', { name: 'Entrar' })).toBeVisible();
        await signInAs('admin');
        await visit('/');
        const banner = page.getByRole('banner');
        await expect(banner.getByRole('link', { name: 'Meu portal' })).toHaveAttribute('href', '/admin');
        await expect(banner.getByRole('link', { name: 'Entrar' })).toHaveCount(0);
        await page.screenshot({ path: `${SHOTS}/landing-signed-in-${size.name}.png` });
        // One row on a phone too: the way to the portal takes the place of both 'Entrar' and 'Começar Agora'.
        await expect(banner.getByRole('link', { name: 'Começar Agora' })).toHaveCount(0);
        const [logo, portal] = await Promise.all([banner.getByRole('link', { name: 'Carteirinha' }).boundingBox(), banner.getByRole('link', { name: 'Meu portal' }).boundingBox()]);
        expect(Math.abs(logo!.y + logo!.height / 2 - (portal!.y + portal!.height / 2))).toBeLessThan(4);
        await banner.getByRole('link', { name: 'Meu portal' }).click();
        await expect(page).toHaveURL(/\/admin$/);

        // A patient signed in on the clinic's own site.
        const demo = clinicOrigin(baseURL, 'demo');
        await visit(`${demo}/`);
        // From the page itself: the test runner's own requests cannot resolve *.localhost, the browser can.
        const status = await page.evaluate(
          async (credentials) =>
            (await fetch('/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })).status,
          { email: DEMO_ACCOUNTS.patient, password: DEMO_PASSWORD },
        );
        expect(status).toBe(200);
        await visit(`${demo}/`);
        const clinicBanner = page.getByRole('banner');
        await expect(clinicBanner.getByRole('link', { name: 'Meu portal' })).toHaveAttribute('href', '/paciente');
        await expect(clinicBanner.getByRole('link', { name: 'Entrar' })).toHaveCount(0);
        await expect(page.getByRole('main').getByRole('link', { name: 'Meu portal' })).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/clinic-site-signed-in-${size.name}.png` });
      });
    });
  });
}

test.describe('item 9: admin figures say what they count', () => {
  test.beforeEach(async ({ signInAs }) => {
    await signInAs('admin');
  });

  for (const size of SIZES) {
    test(`the same names and help on /admin and /admin/planos (${size.name})`, async ({ page, visit }) => {
      await page.setViewportSize(size.viewport);
      await visit('/admin');
      const patients = page.getByRole('group', { name: 'Assinaturas de Pacientes' });
      await expect(patients).toHaveAccessibleDescription('Assinaturas ativas de pacientes nos planos das clínicas.');
      await expect(patients.getByText('Assinaturas ativas de pacientes nos planos das clínicas.')).toBeVisible();
      const mrr = page.getByRole('group', { name: 'MRR da Plataforma' });
      await expect(mrr).toHaveAccessibleDescription('Mensalidades das clínicas ativas nos planos da plataforma.');
      await expect(mrr).toHaveAttribute('aria-busy', 'false');
      const dashboardMrr = (await mrr.locator('[data-slot="stat-card-value"]').innerText()).trim();
      // No figure is called by a name that means two things.
      await expect(page.getByText(/^(Assinaturas Ativas|Receita Mensal|Receita)$/)).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/admin-kpis-${size.name}.png` });

      await visit('/admin/planos');
      const clinicsOnPlans = page.getByRole('group', { name: 'Clínicas Assinantes' });
      await expect(clinicsOnPlans).toHaveAccessibleDescription('Clínicas ativas com um plano da plataforma.');
      const plansMrr = page.getByRole('group', { name: 'MRR da Plataforma' });
      await expect(plansMrr).toHaveAccessibleDescription('Mensalidades das clínicas ativas nos planos da plataforma.');
      await expect(plansMrr.locator('[data-slot="stat-card-value"]')).toHaveText(dashboardMrr);
      await expect(page.getByText(/^(Assinaturas Ativas|MRR)$/)).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/admin-plans-cards-${size.name}.png` });
    });
  }

  test('the clinics list names its revenue column for what it is', async ({ page, visit }) => {
    await visit('/admin/clinicas');
    const table = page.getByRole('table', { name: 'Clínicas da plataforma' });
    await expect(table.getByRole('columnheader', { name: 'Pagamentos de Pacientes' })).toBeVisible();
    await expect(table).toHaveAccessibleDescription(/o que os pacientes de cada clínica já pagaram/);
  });

  test('alerts link to what they name: the approval dialog, the clinic in the list', async ({ page, visit, playwright, baseURL }) => {
    const pending = await createPendingSignUp(playwright, baseURL);
    const suspended = await createClinicViaApi(page.request, { status: 'suspended' });
    try {
      await visit('/admin');
      const alerts = page.getByRole('list', { name: 'Alertas' });

      await alerts.getByRole('link', { name: `${pending.name} aguarda aprovação` }).click();
      const dialog = page.getByRole('dialog', { name: 'Aprovar Cadastro' });
      await expect(dialog.getByRole('listitem').filter({ hasText: pending.name })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(page).toHaveURL(/\/admin$/);

      await alerts.getByRole('link', { name: `${suspended.name} está suspensa` }).click();
      await expect(page).toHaveURL(/\/admin\/clinicas\?busca=/);
      await expect(page.getByRole('searchbox', { name: 'Buscar clínicas' })).toHaveValue(suspended.name);
      const rows = page.getByRole('table', { name: 'Clínicas da plataforma' }).getByRole('row').filter({ hasText: suspended.name });
      await expect(rows).toHaveCount(1);
    } finally {
      await deleteClinicViaApi(page.request, pending.clinicId);
      await deleteClinicViaApi(page.request, suspended.id);
    }
  });

  test('the Domínio column shows the host of the clinic’s site, not its slug', async ({ page, visit, baseURL }) => {
    await visit('/admin/clinicas');
    const row = page.getByRole('table', { name: 'Clínicas da plataforma' }).getByRole('row').filter({ hasText: 'Clínica Demo' });
    const host = new URL(clinicOrigin(baseURL, 'demo')).host;
    await expect(row.getByRole('link', { name: host, exact: true }).first()).toHaveAttribute('href', new RegExp(`^http://${host}`));
    await expect(row.getByRole('link', { name: 'demo', exact: true })).toHaveCount(0);
  });
});

test.describe('item 14: smaller ones in the portals', () => {
  test('the Filtrar Período calendars have navigations of distinct names', async ({ page, signInAs, visit }) => {
    await signInAs('admin');
    await visit('/admin/relatorios');
    await page.getByRole('button', { name: 'Filtrar Período' }).click();
    const dialog = page.getByRole('dialog', { name: 'Filtrar por Período' });
    await expect(dialog.getByRole('navigation', { name: 'Navegação do calendário — Data Inicial' })).toHaveCount(1);
    await expect(dialog.getByRole('navigation', { name: 'Navegação do calendário — Data Final' })).toHaveCount(1);
    expect(await axeViolations(page)).toEqual([]);
  });

  for (const size of SIZES) {
    test(`the report print page fits a ${size.name} and keeps a CNPJ whole`, async ({ page, signInAs, visit, context }) => {
      await context.addInitScript(() => {
        window.print = () => undefined;
      });
      await page.setViewportSize(size.viewport);
      await signInAs('admin');
      await visit('/admin/relatorios/imprimir/clinicas');
      const table = page.getByRole('table', { name: 'Relatório de Clínicas' });
      const cnpj = table.getByRole('cell', { name: '11.222.333/0001-81' });
      await expect(cnpj).toBeVisible();
      expect(await pageOverflow(page)).toBe(0);
      // One line: a cell as tall as a single line of its text.
      const lines = await cnpj.evaluate((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size;
      });
      expect(lines).toBe(1);
      await page.screenshot({ path: `${SHOTS}/report-print-${size.name}.png`, fullPage: true });
    });
  }

  test('on a phone, the Configurações save bar never covers the field being edited', async ({ page, signInAs, visit }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs('admin');
    await visit('/admin/configuracoes');
    const bar = page.getByRole('region', { name: 'Salvar configurações' });
    const last = page.getByLabel('Tamanho mínimo da senha');
    // A wrong value in the last field, then 'Salvar Alterações' from the top of the page (the bar is always there):
    // the form brings the field with the error into view and focuses it.
    await last.fill('1');
    await page.evaluate(() => window.scrollTo(0, 0));
    await bar.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(last).toBeFocused();
    const error = page.getByRole('form', { name: 'Configurações' }).getByText('Tamanho mínimo da senha deve ser entre 6 e 64 caracteres');
    await expect(error).toBeVisible();
    // Measured once the scroll has come to rest (the field only ever moves up towards where it stops).
    await expect
      .poll(async () => {
        const [field, message, barBox] = await Promise.all([last.boundingBox(), error.boundingBox(), bar.boundingBox()]);
        return Math.max(field!.y + field!.height, message!.y + message!.height) <= barBox!.y;
      })
      .toBe(true);
    await page.screenshot({ path: `${SHOTS}/settings-last-field-phone.png` });
    // Typing a right value clears the error; nothing is saved here.
    await last.fill('8');
  });

  test('a receptionist cannot open Serviços, Financeiro or Configurações by their address', async ({ page, signInAs, visit }) => {
    await signInAs('clinicStaff');
    for (const path of ['/clinica/servicos', '/clinica/financeiro', '/clinica/configuracoes']) {
      await visit(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acesso restrito');
      await expect(page.getByText('Sua função não dá acesso a esta página.', { exact: false })).toBeVisible();
    }
    await page.getByRole('link', { name: 'Voltar para o início' }).click();
    await expect(page).toHaveURL(/\/clinica$/);
  });

  test('the clinic admin still opens them', async ({ page, signInAs, visit }) => {
    await signInAs('clinicAdmin');
    for (const [path, title] of [
      ['/clinica/servicos', 'Serviços'],
      ['/clinica/financeiro', 'Financeiro'],
      ['/clinica/configuracoes', 'Configurações'],
    ] as const) {
      await visit(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    }
  });

  test('an anonymous page load asks who is signed in without a failed request', async ({ page, visit }) => {
    const probes: number[] = [];
    page.on('response', (response) => {
      if (/\/api\/(session|me)$/.test(new URL(response.url()).pathname)) probes.push(response.status());
    });
    // The fixture fails the test on a console error for the session probe (e2e/fixtures.ts).
    await visit('/auth');
    await visit('/');
    await visit('/admin');
    await expect(page).toHaveURL(/\/auth\?next=%2Fadmin$/);
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.every((status) => status === 200)).toBe(true);
  });
});
