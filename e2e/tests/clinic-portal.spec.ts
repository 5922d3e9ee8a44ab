import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { patientCardListSchema, type PatientCard } from '@carteirinha/shared/contracts/cards';
import { firstStepsSchema } from '@carteirinha/shared/contracts/dashboard';
import { meResponseSchema } from '@carteirinha/shared/contracts/me';
import { visitSchema, type CreateVisitRequest } from '@carteirinha/shared/contracts/visits';
import { saoPauloDay } from '@carteirinha/shared/sao-paulo-time';
import { demoAccountRequest, expect, test } from '../fixtures';
import { clinicOrigin, createTrialClinic, expectToast } from '../tenancy';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The demo patient's card, asked by a request of its own (the page keeps its clinic session). */
async function demoPatientCard(baseURL: string | undefined): Promise<PatientCard> {
  const patient = await demoAccountRequest('patient', baseURL);
  try {
    const response = await patient.get('/api/patient/cards');
    expect(response.status()).toBe(200);
    const [card] = patientCardListSchema.parse(await response.json()).items;
    if (!card) throw new Error('the demo patient has no card');
    return card;
  } finally {
    await patient.dispose();
  }
}

/** A service name nobody else in this run uses, to find the visit by the list's search. */
function uniqueServiceName(prefix: string): string {
  return `${prefix} e2e ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Records a visit at the demo clinic through the API the desk's dialog calls. */
async function recordVisit(request: APIRequestContext, body: CreateVisitRequest) {
  const response = await request.post('/api/clinic/visits', { data: body });
  expect(response.status(), await response.text()).toBe(201);
  return visitSchema.parse(await response.json());
}

/** Tomorrow in São Paulo, as the date input takes it. */
function tomorrow(): string {
  return saoPauloDay(new Date(Date.now() + 24 * 60 * 60 * 1000));
}

/** The figure of a Dashboard KPI card, found by its title. */
function kpiValue(page: Page, title: string): Locator {
  return page.getByRole('group', { name: title }).locator('[data-slot="stat-card-value"]');
}

async function kpiNumber(page: Page, title: string): Promise<number> {
  return Number((await kpiValue(page, title).innerText()).replace(/\D/g, ''));
}

/** A visit in Atendimentos found by its service: a row on a desktop, a card of the list on a phone. */
function visitEntry(page: Page, serviceName: string): Locator {
  return page.getByRole('row').or(page.getByRole('listitem')).filter({ hasText: serviceName });
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
}

test.describe('clinic Dashboard as the clinic admin', () => {
  test.use({ viewport: DESKTOP });

  test('the KPIs are computed: a visit recorded today raises Atendimentos hoje; recent visits name the patient; the charts draw with their tables', async ({
    page,
    baseURL,
    signInAs,
    visit,
  }) => {
    const card = await demoPatientCard(baseURL);
    await signInAs('clinicAdmin');
    await visit('/clinica');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    for (const title of ['Atendimentos hoje', 'Pacientes ativos', 'Receita hoje', 'Taxa de conversão']) {
      await expect(kpiValue(page, title)).not.toHaveText('—');
    }
    // The conversion's help text says what it divides, with the clinic's own numbers.
    await expect(page.getByRole('group', { name: 'Taxa de conversão' })).toContainText(/já têm assinatura ativa \(\d+\), divididos por todos os cadastrados no período \(\d+\)/);
    const before = await kpiNumber(page, 'Atendimentos hoje');

    const serviceName = uniqueServiceName('Consulta do dashboard');
    await recordVisit(page.request, { cardId: card.id, serviceName, category: 'consulta', priceCents: 10_000 });
    await visit('/clinica');
    // Other tests record visits at the demo clinic too: the count went up by at least this one.
    expect(await kpiNumber(page, 'Atendimentos hoje')).toBeGreaterThan(before);
    const recent = page.getByTestId('recent-visits');
    await expect(recent.getByRole('listitem').filter({ hasText: serviceName })).toContainText(card.personName);

    const charts = page.getByTestId('chart-card');
    await expect(charts).toHaveCount(2);
    await expect(charts.locator('.recharts-wrapper')).toHaveCount(2);
    const visitsChart = charts.filter({ hasText: 'Atendimentos e validações por dia' });
    await visitsChart.getByText('Ver os dados em tabela').click();
    const table = visitsChart.getByRole('table', { name: 'Dados do gráfico: Atendimentos e validações por dia' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader')).toHaveText(['Dia', 'Atendimentos', 'Validações']);
    // 12 weeks of days, the last of them today with at least the visit above.
    const rows = table.getByRole('row');
    expect(await rows.count()).toBeGreaterThan(80);
    const today = saoPauloDay(new Date());
    const todayRow = rows.filter({ has: page.getByRole('rowheader', { name: `${today.slice(8, 10)}/${today.slice(5, 7)}`, exact: true }) });
    expect(Number(await todayRow.getByRole('cell').first().innerText())).toBeGreaterThanOrEqual(1);
  });

  test("a new clinic's first steps tick as the owner goes, beside the site's address and its poster", async ({ page, visit }) => {
    const clinic = await createTrialClinic(page);
    await visit('/clinica');
    const steps = page.getByTestId('first-steps');
    await expect(steps.getByRole('heading', { name: 'Primeiros passos' })).toBeVisible();
    await expect(page.getByTestId('first-step-firstService')).toHaveAttribute('data-done', 'false');
    await expect(page.getByTestId('first-step-firstService').getByRole('link')).toHaveAttribute('href', '/clinica/servicos');

    const firstSteps = firstStepsSchema.parse(await (await page.request.get('/api/clinic/first-steps')).json());
    await expect(page.getByTestId('awaiting-approval')).toHaveCount(firstSteps.awaitingApproval ? 1 : 0);
    if (firstSteps.awaitingApproval) await expect(page.getByTestId('awaiting-approval')).toContainText('Cadastro em análise');

    const site = page.getByTestId('site-address');
    await expect(site.getByRole('link', { name: firstSteps.siteUrl })).toBeVisible();
    expect(firstSteps.siteUrl).toContain(clinic.slug);
    await site.getByRole('button', { name: 'Cartaz para a recepção' }).click();
    const poster = page.getByRole('dialog', { name: 'Cartaz da recepção' });
    await expect(poster.getByTestId('site-poster')).toContainText(clinic.name);
    await expect(poster.getByRole('img', { name: `QR Code do site ${firstSteps.siteUrl}` })).toBeVisible();
    await page.keyboard.press('Escape');

    const created = await page.request.post('/api/clinic/services', { data: { name: 'Consulta de rotina', category: 'consulta', priceCents: 15_000 } });
    expect(created.status(), await created.text()).toBe(201);
    await visit('/clinica');
    await expect(page.getByTestId('first-step-firstService')).toHaveAttribute('data-done', 'true');
    await expect(page.getByTestId('first-step-firstTeamMember')).toHaveAttribute('data-done', 'false');
  });
});

test.describe('Atendimentos as the clinic admin', () => {
  test.use({ viewport: DESKTOP });

  test('books a visit ahead, moves it on, cancels it with a reason, filters and exports the list', async ({ page, baseURL, signInAs, visit }) => {
    const card = await demoPatientCard(baseURL);
    const serviceName = uniqueServiceName('Retorno agendado');
    await signInAs('clinicAdmin');

    // Booking ahead from Validar Cartão's Registrar Atendimento.
    await visit('/clinica/validar');
    const input = page.getByLabel('Número do cartão ou CPF');
    await input.fill(card.number);
    await input.press('Enter');
    const result = page.getByTestId('validation-result');
    await result.getByRole('button', { name: 'Registrar Atendimento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Registrar Atendimento' });
    await dialog.getByLabel('Serviço').selectOption({ label: 'Outro serviço (digitar)' });
    await dialog.getByLabel('Nome do serviço').fill(serviceName);
    await dialog.getByLabel('Categoria').selectOption({ label: 'Consulta' });
    await dialog.getByLabel('Valor (R$)').fill('200,00');
    await dialog.getByLabel('Agendar para outro dia ou horário').check();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(dialog.getByText('Informe a data e o horário do agendamento')).toBeVisible();
    await dialog.getByLabel('Data').fill(tomorrow());
    await dialog.getByLabel('Horário', { exact: true }).fill('10:30');
    await dialog.getByLabel('Profissional').fill('Dra. Agenda E2E');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Atendimento agendado para');
    await expect(dialog).toBeHidden();

    await visit('/clinica/atendimentos');
    await page.getByLabel('Buscar atendimentos').fill(serviceName);
    const entry = visitEntry(page, serviceName);
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('Aguardando');
    await expect(entry).toContainText('Dra. Agenda E2E');
    await expect(entry).toContainText('10:30');

    await entry.getByRole('button', { name: `Iniciar: ${card.personName}` }).click();
    await expect(entry).toContainText('Em andamento');
    await expect(entry.getByRole('button', { name: `Concluir: ${card.personName}` })).toBeVisible();

    await entry.getByRole('button', { name: `Cancelar atendimento: ${card.personName}` }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancelar atendimento' });
    await cancel.getByRole('button', { name: 'Cancelar atendimento' }).click();
    await expect(cancel.getByText('Informe o motivo do cancelamento (mínimo 3 caracteres)')).toBeVisible();
    await cancel.getByLabel('Motivo').fill('Paciente remarcou por telefone');
    await cancel.getByRole('button', { name: 'Cancelar atendimento' }).click();
    await expect(cancel).toBeHidden();
    await expect(entry).toContainText('Cancelado');
    await expect(entry).toContainText('Motivo: Paciente remarcou por telefone');
    await expect(entry.getByRole('button')).toHaveCount(0);

    // Filtros: the cancelled visit is listed under Cancelado, not under Aguardando.
    await page.getByRole('button', { name: 'Filtros' }).click();
    let filters = page.getByRole('dialog', { name: 'Filtrar atendimentos' });
    await filters.getByLabel('Status').selectOption({ label: 'Aguardando' });
    await filters.getByRole('button', { name: 'Aplicar' }).click();
    await expect(page.getByText('Nenhum atendimento encontrado')).toBeVisible();
    await page.getByRole('button', { name: /Filtros/ }).click();
    filters = page.getByRole('dialog', { name: 'Filtrar atendimentos' });
    await filters.getByLabel('Status').selectOption({ label: 'Cancelado' });
    await filters.getByLabel('De').fill(saoPauloDay(new Date()));
    await filters.getByLabel('Até').fill(tomorrow());
    await filters.getByRole('button', { name: 'Aplicar' }).click();
    await expect(visitEntry(page, serviceName)).toHaveCount(1);
    await expect(page.getByRole('button', { name: /Filtros/ })).toContainText('2 filtro(s) ativo(s)');

    // Exportar: the same search and filters, as a CSV Excel pt-BR opens.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('atendimentos.csv');
    const csv = await file.createReadStream().then(async (stream) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(Buffer.from(chunk));
      return Buffer.concat(chunks).toString('utf8');
    });
    expect(csv.split('\n')[0]).toContain('Data;Hora;Paciente');
    expect(csv).toContain(serviceName);
    expect(csv).toContain('Paciente remarcou por telefone');
    expect(csv.trim().split('\n')).toHaveLength(2);

    // A period with nothing in it: the refusal is said beside the button.
    await page.getByRole('button', { name: /Filtros/ }).click();
    filters = page.getByRole('dialog', { name: 'Filtrar atendimentos' });
    await filters.getByLabel('De').fill('2001-01-01');
    await filters.getByLabel('Até').fill('2001-01-31');
    await filters.getByRole('button', { name: 'Aplicar' }).click();
    await page.getByRole('button', { name: 'Exportar' }).click();
    await expect(page.getByTestId('export-refusal')).toContainText('Nenhum dado disponível para exportar');
  });
});

test('Filtros says which of its lists did not load, with Tentar novamente, and fills it when asked again', async ({ page, signInAs, visit }) => {
  await signInAs('clinicAdmin');
  // The services and the team that fill two of the filters are held, then their connection drops (and their retry's).
  const lists = ['**/api/clinic/services', '**/api/clinic/visits/registrars'];
  let dropLists = () => {};
  const dropped = new Promise<void>((resolve) => (dropLists = resolve));
  for (const list of lists) {
    await page.route(list, async (route) => {
      await dropped;
      await route.abort('internetdisconnected');
    });
  }
  await visit('/clinica/atendimentos');
  await page.getByRole('button', { name: /Filtros/ }).click();
  const filters = page.getByRole('dialog', { name: 'Filtrar atendimentos' });
  // While a list loads its select waits, disabled, and says so instead of offering only "any".
  for (const label of ['Serviço', 'Registrado por']) {
    await expect(filters.getByLabel(label)).toBeDisabled();
    await expect(filters.getByLabel(label)).toHaveText('Carregando...');
  }
  dropLists();
  const retry = filters.getByRole('button', { name: 'Tentar novamente' });
  await expect(retry).toHaveCount(2);
  await expect(filters.getByRole('alert')).toHaveCount(2);
  await expect(filters.getByLabel('Serviço')).toBeEnabled();

  for (const list of lists) await page.unroute(list);
  await retry.first().click();
  await expect(retry).toHaveCount(1);
  await retry.click();
  await expect(retry).toHaveCount(0);
  await expect(filters.getByLabel('Registrado por').getByRole('option', { name: 'Ana Atendente' })).toHaveCount(1);
  await filters.getByLabel('Registrado por').selectOption({ label: 'Ana Atendente' });
  await filters.getByRole('button', { name: 'Aplicar' }).click();
  await expect(page.getByRole('button', { name: /Filtros/ })).toContainText('1 filtro(s) ativo(s)');
});

test.describe('Configurações as the clinic admin', () => {
  test.use({ viewport: DESKTOP });

  test("saves the clinic's data, hours, notifications and grace period, reads them back, and the site shows the hours", async ({ page, baseURL, visit }) => {
    const clinic = await createTrialClinic(page);
    await visit('/clinica/configuracoes');
    const form = page.getByTestId('clinic-settings-form');
    await expect(form.getByLabel('CNPJ')).toHaveAttribute('readonly', '');
    await expect(form).toContainText('O CNPJ não pode ser alterado.');
    await form.getByLabel('Telefone').fill('11987654321');
    await form.getByLabel('E-mail de contato').fill('recepcao@clinica-e2e.dev');
    await form.getByLabel('CEP').fill('01310100');
    await form.getByLabel('Endereço').fill('Avenida Paulista');
    await form.getByLabel('Número').fill('1000');
    await form.getByLabel('Cidade').fill('São Paulo');
    await form.getByLabel('Estado (UF)').fill('SP');
    await expect(form.getByLabel('CEP')).toHaveValue('01310-100');
    const saturday = form.getByTestId('hours-saturday');
    if ((await saturday.getByRole('switch').getAttribute('aria-checked')) !== 'true') await saturday.getByRole('switch').click();
    await saturday.getByLabel('Abre às').fill('09:00');
    await saturday.getByLabel('Fecha às').fill('13:00');
    const weekdays = form.getByTestId('hours-weekdays');
    if ((await weekdays.getByRole('switch').getAttribute('aria-checked')) !== 'true') await weekdays.getByRole('switch').click();
    await weekdays.getByLabel('Abre às').fill('07:30');
    await weekdays.getByLabel('Fecha às').fill('19:00');
    const overdue = form.getByRole('switch', { name: 'Aviso de atraso' });
    await expect(overdue).toHaveAccessibleDescription('E-mail "Pagamento em atraso" quando uma mensalidade passa do vencimento.');
    const overdueWas = await overdue.getAttribute('aria-checked');
    await overdue.click();
    await form.getByLabel('Carência (dias)').fill('5');
    await form.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expectToast(page, 'Configurações salvas com sucesso!');

    await visit('/clinica/configuracoes');
    await expect(form.getByLabel('Telefone')).toHaveValue('(11) 98765-4321');
    await expect(form.getByLabel('CEP')).toHaveValue('01310-100');
    await expect(form.getByLabel('E-mail de contato')).toHaveValue('recepcao@clinica-e2e.dev');
    await expect(saturday.getByLabel('Abre às')).toHaveValue('09:00');
    await expect(weekdays.getByLabel('Fecha às')).toHaveValue('19:00');
    await expect(overdue).toHaveAttribute('aria-checked', overdueWas === 'true' ? 'false' : 'true');
    await expect(form.getByLabel('Carência (dias)')).toHaveValue('5');
    // The visual identity stays on the page.
    await expect(page.getByTestId('color-preview')).toBeVisible();

    // Once the platform approves it, the clinic's own site shows the hours and how to reach it.
    const me = meResponseSchema.parse(await (await page.request.get('/api/me')).json());
    const admin = await demoAccountRequest('admin', baseURL);
    try {
      const approved = await admin.post(`/api/admin/clinics/${me.clinic?.id ?? ''}/approve`);
      expect(approved.status(), await approved.text()).toBe(200);
    } finally {
      await admin.dispose();
    }
    await page.goto(`${clinicOrigin(baseURL, clinic.slug)}/`);
    const contact = page.getByTestId('clinic-contact');
    await expect(contact).toContainText('Segunda a sexta');
    await expect(contact).toContainText('07:30 às 19:00');
    await expect(contact).toContainText('Sábado');
    await expect(contact).toContainText('09:00 às 13:00');
    await expect(contact).toContainText('(11) 98765-4321');
    await expect(contact).toContainText('recepcao@clinica-e2e.dev');
  });
});

test.describe('who sees what: the desk (clinic_staff), and the Dashboard on a 390 px phone', () => {
  test('on a desktop: the Dashboard is the validation box and today’s visits, no KPIs; the sidebar has its four entries', async ({ page, baseURL, signInAs, visit }) => {
    await page.setViewportSize(DESKTOP);
    const card = await demoPatientCard(baseURL);
    await signInAs('clinicStaff');
    const serviceName = uniqueServiceName('Consulta de hoje');
    await recordVisit(page.request, { cardId: card.id, serviceName, category: 'consulta', priceCents: 9_000 });
    await visit('/clinica');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    await expect(page.getByLabel('Número do cartão ou CPF')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Validar' })).toBeVisible();
    const today = page.getByTestId('today-visits');
    await expect(today.getByRole('listitem').filter({ hasText: serviceName })).toContainText(card.personName);
    await expect(today).not.toContainText('R$');
    for (const title of ['Atendimentos hoje', 'Receita hoje', 'Taxa de conversão']) await expect(page.getByRole('group', { name: title })).toHaveCount(0);
    await expect(page.getByTestId('chart-card')).toHaveCount(0);
    const nav = page.getByRole('navigation', { name: 'Menu lateral' });
    await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Validar Cartão', 'Validar QR Code', 'Atendimentos', 'Segurança']);
  });

  test('on a 390 px phone: Atendimentos is a list of cards with every action in view, and the Dashboard does not scroll sideways', async ({ page, baseURL, signInAs, visit }) => {
    await page.setViewportSize(PHONE);
    const card = await demoPatientCard(baseURL);
    await signInAs('clinicStaff');
    const serviceName = uniqueServiceName('Agendado no celular');
    await recordVisit(page.request, {
      cardId: card.id,
      serviceName,
      category: 'exame',
      priceCents: 5_000,
      scheduledFor: `${tomorrow()}T09:00:00-03:00`,
      professional: 'Dr. Celular',
    });
    await visit('/clinica/atendimentos');
    await page.getByLabel('Buscar atendimentos').fill(serviceName);
    const entry = page.getByRole('listitem').filter({ hasText: serviceName });
    await expect(entry).toHaveCount(1);
    await expect(page.locator('[data-layout="cards"]')).toHaveCount(1);
    for (const text of [card.personName, 'Aguardando', 'Dr. Celular', 'R$ 50,00', 'Registrado por']) await expect(entry).toContainText(text);
    for (const name of [`Iniciar: ${card.personName}`, `Cancelar atendimento: ${card.personName}`]) {
      const button = entry.getByRole('button', { name });
      await button.scrollIntoViewIfNeeded();
      await expect(button).toBeInViewport();
    }
    await expectNoSidewaysScroll(page);

    await visit('/clinica');
    await expect(page.getByTestId('today-visits')).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test('on a 390 px phone the clinic admin’s Dashboard, charts included, does not scroll sideways', async ({ page, signInAs, visit }) => {
    await page.setViewportSize(PHONE);
    await signInAs('clinicAdmin');
    await visit('/clinica');
    await expect(page.getByTestId('chart-card').locator('.recharts-wrapper')).toHaveCount(2);
    await expectNoSidewaysScroll(page);
  });
});
