import type { Browser, Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { expect, test } from '../fixtures';
import { TEST_PASSWORD, clinicOrigin, createTrialClinic, cssVariable, expectToast, latestEmailTo, uniqueEmail } from '../tenancy';

/** A 1×1 PNG: the smallest real image the server will sniff and re-encode. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

function planCard(page: Page, name: string) {
  return page.getByTestId('clinic-plan').filter({ has: page.getByRole('heading', { name, exact: true }) });
}

test.describe("a clinic's own host", () => {
  test("a patient's confirmation e-mail is the clinic's, and its link lands on the clinic's site", async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const demo = clinicOrigin(baseURL, 'demo');
    const email = uniqueEmail();
    await page.goto(`${demo}/auth?tab=cadastrar`);
    const form = page.getByRole('tabpanel', { name: 'Cadastrar' });
    await form.getByLabel('Nome Completo').fill('Paciente do E-mail');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Senha').fill(TEST_PASSWORD);
    await form.getByRole('button', { name: 'Cadastrar' }).click();
    await expect(page).toHaveURL(`${demo}/paciente`);

    const mail = await latestEmailTo(baseURL, email, 'Confirme seu email');
    expect(mail.text).toContain('Clínica Demo');
    expect(mail.text).not.toContain('Carteirinha');
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)?.[0] ?? '');
    expect(link.origin).toBe(demo);
    // Opened from the mailbox: the clinic's site says so, in the clinic's name — not the platform's sales page.
    await page.goto(link.toString());
    await expect(page).toHaveURL(`${demo}/`);
    await expectToast(page, 'Email confirmado!');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clínica Demo');
    await expect(page.getByText('Criar Minha Plataforma')).toHaveCount(0);
  });

  test("shows the clinic's name, colour, title and patient plans", async ({ page, visit, baseURL }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    await visit(`${demo}/`);

    await expect(page).toHaveTitle('Clínica Demo');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clínica Demo');
    await expect(page.getByRole('banner').getByTestId('clinic-name')).toHaveText('Clínica Demo');
    expect(await cssVariable(page, '--primary')).toBe('#0d9488');
    // The teal is too light for white text (3.7:1): buttons carry black text, and text in the brand colour is darker.
    expect(await cssVariable(page, '--primary-foreground')).toBe('#000000');

    const individual = planCard(page, 'Plano Individual');
    await expect(individual).toContainText('R$ 89,90');
    await expect(individual).toContainText('/mês');
    await expect(individual).toContainText('Consultas: 30%');
    await expect(individual).not.toContainText('pessoas');
    const family = planCard(page, 'Plano Família');
    await expect(family).toContainText('R$ 149,90');
    await expect(family).toContainText('Até 4 pessoas');

    const subscribe = individual.getByRole('link', { name: 'Assinar Agora' });
    await expect(subscribe).toHaveCSS('background-color', 'rgb(13, 148, 136)');
    await expect(subscribe).toHaveCSS('color', 'rgb(0, 0, 0)');
    // The platform's own plans and pitch belong to the main host only.
    await expect(page.getByText('Professional')).toHaveCount(0);

    await subscribe.click();
    // Sign-up first, then straight on to that plan's checkout (issue 23).
    await expect(page).toHaveURL(new RegExp(`^${demo}/auth\\?tab=cadastrar&next=%2Fpaciente%2Fassinatura%3Fplano%3D[0-9a-f-]{36}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clínica Demo');
    await expect(page.getByRole('tab', { name: 'Cadastrar' })).toHaveAttribute('aria-selected', 'true');
  });

  test('signing up there makes a patient of that clinic', async ({ page, visit, baseURL }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    await visit(`${demo}/auth?tab=cadastrar`);
    const form = page.getByRole('tabpanel', { name: 'Cadastrar' });
    await form.getByLabel('Nome Completo').fill('Paciente do Site');
    await form.getByLabel('Email').fill(uniqueEmail());
    await form.getByLabel('Senha').fill(TEST_PASSWORD);
    await form.getByRole('button', { name: 'Cadastrar' }).click();

    await expect(page).toHaveURL(`${demo}/paciente`);
    await expect(page.getByTestId('current-clinic')).toHaveText('Clínica Demo');
    await expect(page.getByTestId('current-user')).toContainText('Paciente');
    await expect(page).toHaveTitle('Clínica Demo');
  });

  test("refuses an account that is not the clinic's and says where to go", async ({ page, visit, baseURL }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    await visit(`${demo}/auth`);
    const form = page.getByRole('tabpanel', { name: 'Entrar' });
    await form.getByLabel('Email').fill(DEMO_ACCOUNTS.admin);
    await form.getByLabel('Senha').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Entrar', exact: true }).click();
    await expectToast(page, 'Erro ao entrar', 'Esta conta não pertence a esta clínica. Entre pelo site da sua clínica.');
    await expect(page).toHaveURL(`${demo}/auth`);
  });

  test('an unknown host says that no clinic is there', async ({ page, baseURL }) => {
    const response = await page.goto(`${clinicOrigin(baseURL, 'nao-existe')}/`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Clínica não encontrada' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ir para a Carteirinha' })).toBeVisible();
  });
});

test.describe('the landing page without JavaScript (issue 24: it paints before any script)', () => {
  /** A browser that runs no script at all: what it shows is the server's HTML and the stylesheet, nothing else. */
  async function scriptlessPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL, locale: 'pt-BR' });
    return context.newPage();
  }

  test("a clinic's site carries its name, colours and plans, and 'Assinar Agora' leads to sign-up", async ({ browser, baseURL }) => {
    const page = await scriptlessPage(browser, baseURL);
    const demo = clinicOrigin(baseURL, 'demo');
    await page.goto(`${demo}/`);
    await expect(page).toHaveTitle('Clínica Demo');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clínica Demo');
    expect(await cssVariable(page, '--primary')).toBe('#0d9488');
    await expect(planCard(page, 'Plano Individual')).toContainText('R$ 89,90');
    await expect(planCard(page, 'Plano Família')).toContainText('Até 4 pessoas');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Entrar' })).toHaveAttribute('href', '/auth');
    // The public price table (issue 25) is a plain link too: the landing keeps no script.
    await expect(page.getByRole('link', { name: 'Tabela de preços' })).toHaveAttribute('href', '/precos');
    await expect(page.locator('script')).toHaveCount(0);
    const subscribe = planCard(page, 'Plano Família').getByRole('link', { name: 'Assinar Agora' });
    await expect(subscribe).toHaveCSS('background-color', 'rgb(13, 148, 136)');
    await subscribe.click();
    await expect(page).toHaveURL(new RegExp(`^${demo}/auth\\?tab=cadastrar&next=%2Fpaciente%2Fassinatura%3Fplano%3D[0-9a-f-]{36}$`));
    await page.context().close();
  });

  test("the platform's page lists its plans, each leading to sign-up with the plan chosen", async ({ browser, baseURL }) => {
    const page = await scriptlessPage(browser, baseURL);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const professional = page.locator('#pricing li').filter({ has: page.getByRole('heading', { name: 'Professional', exact: true }) });
    await expect(professional).toContainText('R$ 697');
    await professional.getByRole('link', { name: 'Começar Agora' }).click();
    await expect(page).toHaveURL(/\/auth\?tab=cadastrar&plano=[0-9a-f-]{36}$/);
    await page.context().close();
  });
});

test.describe('the platform host', () => {
  test("'Ver Demonstração' opens the demo clinic's site", async ({ page, visit, baseURL }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    await visit('/');
    const link = page.getByRole('link', { name: 'Ver Demonstração' });
    await expect(link).toHaveAttribute('href', demo);
    await link.click();
    await expect(page).toHaveURL(`${demo}/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clínica Demo');
  });

  test('keeps its own colours and name', async ({ page, visit }) => {
    await visit('/');
    await expect(page).toHaveTitle(/Carteirinha/);
    expect(await cssVariable(page, '--primary')).toMatch(/^oklch/);
  });
});

test.describe('Identidade visual (/clinica/configuracoes)', () => {
  test('the clinic admin changes name, colour and logo, and the clinic site follows at once', async ({ page, visit, baseURL }) => {
    // A clinic of its own, made through onboarding, so the shared demo clinic stays as it is.
    const clinic = await createTrialClinic(page);
    await visit('/clinica/configuracoes');
    const form = page.getByRole('form', { name: 'Identidade visual' });
    await expect(form.getByLabel('Nome de exibição')).toHaveValue(clinic.name);

    await form.getByLabel('Nome de exibição').fill('A');
    await form.getByLabel('Cor principal', { exact: true }).fill('#12');
    await form.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(form.getByText('Nome de exibição deve ter no mínimo 2 caracteres')).toBeVisible();
    await expect(form.getByText('Use uma cor no formato #RRGGBB')).toBeVisible();
    await expect(form.getByLabel('Cor principal', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    const newName = `Sorriso ${clinic.slug.slice(-6)}`;
    await form.getByLabel('Nome de exibição').fill(newName);
    await form.getByLabel('Cor principal', { exact: true }).fill('#7C3AED');
    await expect(form.getByLabel('Escolher a cor principal')).toHaveValue('#7c3aed');
    await form.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expectToast(page, 'Identidade visual salva com sucesso!');
    await expect(form.getByLabel('Cor principal', { exact: true })).toHaveValue('#7c3aed');

    // Checked in the browser before sending (specification §5), with the server's own words.
    const fileInput = page.getByTestId('logo-file-input');
    await fileInput.setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('não é imagem') });
    await expectToast(page, 'Erro ao enviar logo', 'Por favor, selecione uma imagem válida');
    await fileInput.setInputFiles({ name: 'grande.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * 1024 * 1024 + 1) });
    await expectToast(page, 'Erro ao enviar logo', 'A imagem deve ter no máximo 2MB');
    await fileInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: TINY_PNG });
    await expectToast(page, 'Logo atualizado com sucesso!');
    const logo = page.getByRole('img', { name: `Logo de ${newName}` });
    await expect(logo).toBeVisible();
    const logoUrl = await logo.getAttribute('src');
    expect(logoUrl).toMatch(/^\/uploads\/logos\//);

    const site = clinicOrigin(baseURL, clinic.slug);
    await visit(`${site}/`);
    await expect(page).toHaveTitle(newName);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(newName);
    expect(await cssVariable(page, '--primary')).toBe('#7c3aed');
    expect(await cssVariable(page, '--primary-foreground')).toBe('#ffffff');
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', logoUrl ?? '');
    // A self-service sign-up not approved yet: its site says so, in the clinic's colours, and only its team signs in.
    await expect(page.getByRole('heading', { name: 'Aguardando aprovação' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Entrar' })).toHaveCSS('background-color', 'rgb(124, 58, 237)');
    await expect(page.getByRole('link', { name: 'Cadastrar' })).toHaveCount(0);
  });

  test('the staff has no admin-only entries, cannot open the page by its address, and the server refuses changes', async ({ page, signInAs, visit }) => {
    await signInAs('clinicStaff');
    await visit('/clinica');
    const nav = page.getByRole('navigation', { name: 'Menu lateral' });
    await expect(nav.getByRole('link', { name: 'Atendimentos' })).toBeVisible();
    for (const adminOnly of ['Serviços', 'Financeiro', 'Configurações']) {
      await expect(nav.getByRole('link', { name: adminOnly })).toHaveCount(0);
    }

    // Guarded by permission in the router (issue 13, item 14): the page says so instead of showing the form.
    await visit('/clinica/configuracoes');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acesso restrito');
    await expect(page.getByRole('form', { name: 'Identidade visual' })).toHaveCount(0);

    const response = await page.request.patch('/api/clinic/branding', { data: { displayName: 'Outra Clínica', primaryColor: '#000000' } });
    expect(response.status()).toBe(403);
  });
});
