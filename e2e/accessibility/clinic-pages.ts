import type { Page } from '@playwright/test';
import { cardTokenSchema, patientCardListSchema, type PatientCard } from '@carteirinha/shared/contracts/cards';
import { demoAccountRequest, expect } from '../fixtures';
import { expectToast, toPhone, type Scenario } from './scenario';

/** The clinic portal's pages (/clinica/…), as Clínica Demo's admin and its receptionist see them. */

/** The demo patient's card and a QR token of it that validates now, read as the patient. */
async function demoPatientCard(baseURL: string): Promise<{ card: PatientCard; token: string }> {
  const patient = await demoAccountRequest('patient', baseURL);
  try {
    const [card] = patientCardListSchema.parse(await (await patient.get('/api/patient/cards')).json()).items;
    if (!card) throw new Error('the demo patient has no card');
    const { token } = cardTokenSchema.parse(await (await patient.get(`/api/patient/cards/${card.id}/token`)).json());
    return { card, token };
  } finally {
    await patient.dispose();
  }
}

function grouped(number: string): string {
  return number.replace(/(.{4})(?=.)/g, '$1 ');
}

async function openAdminOnlyPage(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
}

export const CLINIC_SCENARIOS: readonly Scenario[] = [
  {
    name: 'the QR page when the camera permission is refused',
    states: ['/clinica/validar-qrcode — camera permission refused'],
    // A camera is there (the spec starts Chromium with a fake one), but the permission is not granted.
    run: async ({ page, signInAs, check }) => {
      await signInAs('clinicStaff');
      await openAdminOnlyPage(page, '/clinica/validar-qrcode', 'Validar QR Code');
      await page.getByRole('button', { name: 'Ativar Câmera' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Permissão da câmera negada' })).toBeVisible();
      await check('/clinica/validar-qrcode — camera permission refused');
    },
  },
  {
    name: "the clinic admin's pages, the plans' form and the terms",
    states: [
      '/clinica — dashboard, clinic admin',
      '/clinica/servicos — clinic admin',
      '/clinica/servicos — dialog Novo Serviço with field errors',
      '/clinica/servicos — dialog Histórico de preços',
      '/clinica/equipe — clinic admin',
      '/clinica/equipe — dialog Convidar para a equipe',
      '/clinica/pacientes — clinic admin',
      '/clinica/pacientes/:userId — a member',
      '/clinica/pacientes/importar — the form',
      '/clinica/rede — clinic admin',
      '/clinica/rede — dialog Novo Local with field errors and the map',
      '/clinica/financeiro — clinic admin',
      '/clinica/configuracoes — clinic admin',
      '/clinica/planos — plans, terms and billing',
      '/clinica/planos — dialog Novo Plano filled',
      '/clinica/planos — terms refused (field error)',
      "/clinica/planos — alertdialog 'Sair sem salvar?'",
    ],
    run: async ({ page, signInAs, check }) => {
      await signInAs('clinicAdmin');
      await openAdminOnlyPage(page, '/clinica', 'Dashboard');
      await check('/clinica — dashboard, clinic admin');
      await openAdminOnlyPage(page, '/clinica/servicos', 'Serviços');
      await expect(page.getByRole('table', { name: 'Serviços da clínica' })).toContainText('Hemograma completo');
      await check('/clinica/servicos — clinic admin');
      await page.getByRole('button', { name: 'Novo Serviço' }).click();
      const serviceDialog = page.getByRole('dialog', { name: 'Novo Serviço' });
      await serviceDialog.getByRole('button', { name: 'Salvar' }).click();
      await expect(serviceDialog.getByText('Selecione a categoria do serviço')).toBeVisible();
      await check('/clinica/servicos — dialog Novo Serviço with field errors');
      await serviceDialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(serviceDialog).toBeHidden();
      await page.getByRole('button', { name: 'Histórico de preços: Hemograma completo' }).click();
      const history = page.getByRole('dialog', { name: 'Histórico de preços: Hemograma completo' });
      await expect(history.getByRole('table')).toHaveAttribute('aria-busy', 'false');
      await check('/clinica/servicos — dialog Histórico de preços');
      await page.keyboard.press('Escape');
      await expect(history).toBeHidden();
      await openAdminOnlyPage(page, '/clinica/equipe', 'Equipe');
      await expect(page.getByRole('table', { name: 'Pessoas da equipe da clínica' })).toContainText('clinica@carteirinha.dev');
      await check('/clinica/equipe — clinic admin');
      await page.getByRole('button', { name: 'Convidar', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Convidar para a equipe' })).toBeVisible();
      await check('/clinica/equipe — dialog Convidar para a equipe');
      await page.keyboard.press('Escape');
      await openAdminOnlyPage(page, '/clinica/pacientes', 'Pacientes');
      await expect(page.getByRole('table', { name: 'Pacientes' })).toHaveAttribute('aria-busy', 'false');
      await expect(page.getByRole('table', { name: 'Pacientes' }).getByRole('row').nth(1)).toBeVisible();
      await check('/clinica/pacientes — clinic admin');
      await page.getByRole('link', { name: /^Ver detalhes: / }).first().click();
      await expect(page.getByRole('heading', { name: 'Cobranças' })).toBeVisible();
      await check('/clinica/pacientes/:userId — a member');
      await openAdminOnlyPage(page, '/clinica/pacientes/importar', 'Importar pacientes de uma empresa');
      await check('/clinica/pacientes/importar — the form');
      await openAdminOnlyPage(page, '/clinica/rede', 'Rede Credenciada');
      await expect(page.getByRole('table', { name: 'Locais da Rede Credenciada' })).toContainText('Laboratório Análises Consolação');
      await check('/clinica/rede — clinic admin');
      await page.getByRole('button', { name: 'Novo Local' }).click();
      const placeDialog = page.getByRole('dialog', { name: 'Novo Local' });
      await placeDialog.getByRole('button', { name: 'Salvar' }).click();
      await expect(placeDialog.getByText('Selecione a categoria do local')).toBeVisible();
      await expect(placeDialog.locator('.leaflet-tile-loaded').first()).toBeVisible();
      await check('/clinica/rede — dialog Novo Local with field errors and the map');
      await placeDialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(placeDialog).toBeHidden();
      await openAdminOnlyPage(page, '/clinica/financeiro', 'Financeiro');
      await check('/clinica/financeiro — clinic admin');
      await openAdminOnlyPage(page, '/clinica/configuracoes', 'Configurações');
      await expect(page.getByRole('form', { name: 'Identidade visual' }).getByLabel('Nome de exibição')).not.toHaveValue('');
      await check('/clinica/configuracoes — clinic admin');

      await openAdminOnlyPage(page, '/clinica/planos', 'Planos');
      await expect(page.getByRole('table', { name: 'Planos de pacientes da clínica' })).toContainText('Plano Individual');
      await expect(page.getByRole('region', { name: 'Cobrança' }).getByLabel('Dias de tolerância')).toHaveValue(/^\d+$/);
      await check('/clinica/planos — plans, terms and billing');
      await page.getByRole('button', { name: 'Novo Plano' }).click();
      const dialog = page.getByRole('dialog', { name: 'Novo Plano' });
      await dialog.getByLabel('Nome', { exact: true }).fill('Plano Sênior');
      await dialog.getByLabel('Descrição').fill('Para quem tem mais de 60 anos.');
      await dialog.getByLabel('Preço do titular (R$)').fill('129,90');
      await dialog.getByLabel('Preço por dependente (R$)').fill('39,90');
      await dialog.getByLabel('Pessoas cobertas (titular + dependentes)').fill('3');
      await dialog.getByLabel('Carência (dias)').fill('30');
      await dialog.getByLabel('Benefícios').fill('Consultas geriátricas\nExames laboratoriais');
      await check('/clinica/planos — dialog Novo Plano filled');
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(dialog).toBeHidden();

      const terms = page.getByRole('region', { name: 'Termos do contrato' });
      await terms.getByLabel('Texto dos termos').fill('Texto novo dos termos. '.repeat(12));
      await terms.getByRole('button', { name: 'Publicar nova versão' }).click();
      await expect(terms.getByText('Os termos precisam dizer com clareza que o cartão "não é plano de saúde".')).toBeVisible();
      await check('/clinica/planos — terms refused (field error)');
      await page.getByRole('navigation', { name: 'Menu lateral' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
      const ask = page.getByRole('alertdialog', { name: 'Sair sem salvar?' });
      await expect(ask).toBeVisible();
      await check("/clinica/planos — alertdialog 'Sair sem salvar?'");
      await ask.getByRole('button', { name: 'Continuar editando' }).click();
    },
  },
  {
    name: "a new patient plan saved in Clínica Demo's plans",
    states: ['/clinica/planos — success toast over the plans'],
    platformWide: true,
    run: async ({ page, signInAs, check }) => {
      await signInAs('clinicAdmin');
      await openAdminOnlyPage(page, '/clinica/planos', 'Planos');
      await page.getByRole('button', { name: 'Novo Plano' }).click();
      const dialog = page.getByRole('dialog', { name: 'Novo Plano' });
      await dialog.getByLabel('Nome', { exact: true }).fill(`Plano Acessível ${Date.now().toString(36)}`);
      await dialog.getByLabel('Descrição').fill('Plano criado pela verificação de acessibilidade.');
      await dialog.getByLabel('Preço do titular (R$)').fill('59,90');
      await dialog.getByLabel('Benefícios').fill('Consultas com desconto');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expectToast(page, 'Plano criado com sucesso!');
      await expect(dialog).toBeHidden();
      await check('/clinica/planos — success toast over the plans');
    },
  },
  {
    name: "the receptionist's pages, and the admin's pages shut to them",
    states: [
      '/clinica — dashboard, receptionist',
      '/clinica/servicos — Acesso restrito (receptionist)',
      '/clinica/equipe — Acesso restrito (receptionist)',
      '/clinica/pacientes — Acesso restrito (receptionist)',
      '/clinica/rede — Acesso restrito (receptionist)',
      '/clinica/financeiro — Acesso restrito (receptionist)',
      '/clinica/configuracoes — Acesso restrito (receptionist)',
      '/clinica/planos — Acesso restrito (receptionist)',
      '/clinica/atendimentos — list',
      '/clinica/atendimentos — search',
    ],
    run: async ({ page, signInAs, check }) => {
      await signInAs('clinicStaff');
      await openAdminOnlyPage(page, '/clinica', 'Dashboard');
      await check('/clinica — dashboard, receptionist');
      for (const path of ['/clinica/servicos', '/clinica/equipe', '/clinica/pacientes', '/clinica/rede', '/clinica/financeiro', '/clinica/configuracoes', '/clinica/planos'] as const) {
        await openAdminOnlyPage(page, path, 'Acesso restrito');
        await check(`${path} — Acesso restrito (receptionist)`);
      }
      await openAdminOnlyPage(page, '/clinica/atendimentos', 'Atendimentos');
      await expect(page.getByRole('table')).toHaveAttribute('aria-busy', 'false');
      await check('/clinica/atendimentos — list');
      const searched = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/clinic/visits' && new URL(r.url()).searchParams.get('q') === 'Consulta');
      await page.getByLabel('Buscar atendimentos').fill('Consulta');
      await searched;
      await expect(page.getByRole('table')).toHaveAttribute('aria-busy', 'false');
      await check('/clinica/atendimentos — search');
    },
  },
  {
    name: 'validating a card: by QR, and by number with the visit dialogs',
    states: [
      '/clinica/validar-qrcode — nothing validated yet',
      '/clinica/validar-qrcode — valid card panel with its visit actions',
      '/clinica/validar-qrcode — invalid card panel',
      '/clinica/validar — nothing validated yet',
      '/clinica/validar — invalid card panel',
      '/clinica/validar — valid card panel',
      '/clinica/validar — dialog Registrar Atendimento with its preview',
      '/clinica/validar — dialog Histórico',
    ],
    run: async ({ page, baseURL, signInAs, check }) => {
      const { card, token } = await demoPatientCard(baseURL);
      await signInAs('clinicStaff');
      await openAdminOnlyPage(page, '/clinica/validar-qrcode', 'Validar QR Code');
      await expect(page.getByText('Valide um cartão para ver o resultado aqui.')).toBeVisible();
      await check('/clinica/validar-qrcode — nothing validated yet');
      const code = page.getByLabel('Código do QR Code');
      await code.fill(token);
      await code.press('Enter');
      await expect(page.getByTestId('validation-result')).toHaveAttribute('data-valid', 'true');
      await check('/clinica/validar-qrcode — valid card panel with its visit actions');
      await page.getByRole('button', { name: 'Novo' }).click();
      await code.fill('C1.1234567890123456.12345678');
      await code.press('Enter');
      await expect(page.getByTestId('validation-result')).toHaveAttribute('data-outcome', 'not_found');
      await check('/clinica/validar-qrcode — invalid card panel');

      await openAdminOnlyPage(page, '/clinica/validar', 'Validar Cartão');
      await check('/clinica/validar — nothing validated yet');
      const input = page.getByLabel('Número do cartão ou CPF');
      await input.fill('1234 5678 9012 3456');
      await input.press('Enter');
      await expect(page.getByTestId('validation-result')).toHaveAttribute('data-valid', 'false');
      await check('/clinica/validar — invalid card panel');
      await input.fill(grouped(card.number));
      await input.press('Enter');
      const result = page.getByTestId('validation-result');
      await expect(result).toContainText('Autorizado a aplicar desconto');
      await check('/clinica/validar — valid card panel');
      await result.getByRole('button', { name: 'Registrar Atendimento' }).click();
      const dialog = page.getByRole('dialog', { name: 'Registrar Atendimento' });
      await dialog.getByLabel('Serviço').selectOption({ label: 'Outro serviço (digitar)' });
      await dialog.getByLabel('Nome do serviço').fill('Exame de acessibilidade');
      await dialog.getByLabel('Categoria').selectOption({ label: 'Exame' });
      await dialog.getByLabel('Valor (R$)').fill('123,45');
      await expect(dialog.getByTestId('visit-preview')).toContainText(`${card.discounts.exames}%`);
      await check('/clinica/validar — dialog Registrar Atendimento with its preview');
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(dialog).toBeHidden();
      await result.getByRole('button', { name: 'Ver Histórico' }).click();
      const history = page.getByRole('dialog', { name: `Histórico de ${card.personName}` });
      await expect(history.getByRole('table')).toHaveAttribute('aria-busy', 'false');
      await check('/clinica/validar — dialog Histórico');
    },
  },
  {
    name: 'Segurança: the passkeys page, without a passkey, on a desktop and on a phone (clinic)',
    states: ['/clinica/seguranca — Segurança, no passkey', '/clinica/seguranca — Segurança, no passkey, phone'],
    run: async ({ page, signInAs, check }) => {
      await signInAs('clinicStaff');
      await page.goto('/clinica/seguranca');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Segurança');
      await expect(page.getByRole('button', { name: 'Adicionar chave de acesso' })).toBeVisible();
      await check('/clinica/seguranca — Segurança, no passkey');
      await toPhone(page);
      await check('/clinica/seguranca — Segurança, no passkey, phone');
    },
  },
];
