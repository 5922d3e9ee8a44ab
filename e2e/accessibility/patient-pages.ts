import type { Locator, Page } from '@playwright/test';
import { patientCardListSchema } from '@carteirinha/shared/contracts/cards';
import { addDemoSession, expect } from '../fixtures';
import { paidPatientOnDemo } from '../patient-api';
import { TEST_PASSWORD, clinicOrigin, uniqueEmail, validCpf } from '../tenancy';
import { DESKTOP, expectToast, toPhone, type Scenario } from './scenario';

/** The patient portal's pages (/paciente/…): the demo patient's, and those of new patients of Clínica Demo. */

const PLAN = 'Plano Individual';
/** The demo patient's plan (seed.ts): the Família plan, with one dependent. */
const DEMO_PLAN = 'Plano Família';

/** Signs up on Clínica Demo's own host, which makes a patient of that clinic; the page lands on /paciente there. */
async function signUpPatientOnDemo(page: Page, demo: string, fullName: string): Promise<void> {
  await page.goto(`${demo}/auth?tab=cadastrar`);
  const form = page.getByRole('tabpanel', { name: 'Cadastrar' });
  await form.getByLabel('Nome Completo').fill(fullName);
  await form.getByLabel('Email').fill(uniqueEmail());
  await form.getByLabel('Senha').fill(TEST_PASSWORD);
  await form.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(`${demo}/paciente`);
}

async function openSubscription(page: Page, demo: string) {
  await page.goto(`${demo}/paciente/assinatura`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Assinatura');
  await expect(page.getByRole('article', { name: PLAN, exact: true })).toBeVisible();
}

async function openCheckout(page: Page): Promise<Locator> {
  await page.getByRole('article', { name: PLAN, exact: true }).getByRole('button', { name: 'Assinar Agora' }).click();
  const dialog = page.getByRole('dialog', { name: `Assinar ${PLAN}` });
  await expect(dialog.getByLabel('Nome completo')).not.toHaveValue('');
  return dialog;
}

/** The CPF, the method, the terms accepted; then 'Confirmar Assinatura'. */
async function confirmCheckout(dialog: Locator, method: RegExp, cpf = validCpf()) {
  await dialog.getByLabel('CPF ou CNPJ').fill(cpf);
  await dialog.getByRole('radio', { name: method }).check();
  const terms = dialog.getByRole('checkbox', { name: /Li e aceito os termos de adesão/ });
  if (!(await terms.isChecked())) await terms.click();
  await dialog.getByRole('button', { name: 'Confirmar Assinatura' }).click();
}

async function fillCard(dialog: Locator, number: string) {
  await dialog.getByLabel('Número do cartão').fill(number);
  await dialog.getByLabel('Nome impresso no cartão').fill('PACIENTE CARTAO');
  await dialog.getByLabel('Validade (MM/AA)').fill('12/39');
  await dialog.getByLabel('CVV').fill('123');
  await dialog.getByLabel('CEP do titular do cartão').fill('01310-100');
  await dialog.getByLabel('Número do endereço').fill('100');
}

export const PATIENT_SCENARIOS: readonly Scenario[] = [
  {
    name: "the demo patient's pages: home, card, subscription, receipt and the rest, on a desktop and on a phone",
    states: [
      '/paciente — home, demo patient',
      '/paciente/cartao — card, desktop',
      '/paciente/cartao — card with its toasts (downloaded, shared)',
      '/paciente/assinatura — active subscription of the demo patient',
      '/paciente/assinatura — dialog Trocar para o Plano Individual (a downgrade: who stays covered)',
      '/paciente/assinatura/recibo/:id — receipt, desktop',
      '/paciente/rede — Rede Credenciada with its map',
      '/paciente/rede — sorted by distance (location on)',
      '/paciente/historico — Histórico',
      '/paciente/perfil — profile',
      '/paciente/perfil — dialog Adicionar dependente',
      '/paciente/perfil — alertdialog Remover dependente',
      '/paciente/perfil — alertdialog Desativar a renovação automática',
      '/paciente — home, phone',
      '/paciente — the sidebar drawer open, phone',
      '/paciente/cartao — card, phone',
      '/paciente/historico — visits as cards, with the chart\'s table open, phone',
    ],
    run: async ({ page, context, signInAs, check }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await signInAs('patient');
      await page.goto('/paciente');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Olá, Paulo!');
      await expect(page.getByRole('main').getByRole('heading', { level: 2, name: DEMO_PLAN })).toBeVisible();
      await check('/paciente — home, demo patient');

      await page.goto('/paciente/cartao');
      await expect(page.getByTestId('card-qr')).toBeVisible();
      await check('/paciente/cartao — card, desktop');
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Baixar Cartão' }).click();
      await downloading;
      await expectToast(page, 'Cartão baixado com sucesso!');
      await page.getByRole('button', { name: 'Compartilhar' }).click();
      // Headless Chromium has no share sheet: the image is downloaded and the toast says so.
      await expectToast(page, 'Imagem do cartão baixada: envie-a pelo aplicativo que preferir.');
      await check('/paciente/cartao — card with its toasts (downloaded, shared)');

      await page.goto('/paciente/assinatura');
      await expect(page.getByTestId('subscription-status')).toHaveText('Ativa');
      await check('/paciente/assinatura — active subscription of the demo patient');
      // Change of plan (issue 27): closed without a change, as other tests read the demo patient's plan.
      await page.getByRole('article', { name: 'Plano Individual' }).getByRole('button', { name: 'Trocar para este plano' }).click();
      await expect(page.getByRole('dialog', { name: 'Trocar para o Plano Individual' }).getByText('Quem continua coberto')).toBeVisible();
      await check('/paciente/assinatura — dialog Trocar para o Plano Individual (a downgrade: who stays covered)');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page.getByRole('link', { name: 'Ver recibo' }).first().click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recibo de pagamento');
      await check('/paciente/assinatura/recibo/:id — receipt, desktop');

      await context.grantPermissions(['geolocation']);
      await context.setGeolocation({ latitude: -23.5614, longitude: -46.6559 });
      await page.goto('/paciente/rede');
      await expect(page.getByTestId('network-count')).toHaveText(/locais encontrados$/);
      await expect(page.getByRole('region', { name: 'Mapa da Rede Credenciada' }).locator('.leaflet-tile-loaded').first()).toBeVisible();
      await check('/paciente/rede — Rede Credenciada with its map');
      await page.getByRole('button', { name: 'Ativar Localização' }).click();
      await expect(page.getByTestId('place-distance').first()).toHaveText('0,0 km');
      await check('/paciente/rede — sorted by distance (location on)');

      for (const [path, heading, state] of [
        ['/paciente/historico', 'Histórico', '/paciente/historico — Histórico'],
        ['/paciente/perfil', 'Meu Perfil', '/paciente/perfil — profile'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
        await check(state);
      }
      // Dependentes (issue 27): the demo patient's plan has room, and one dependent to remove (both dialogs closed
      // without a change: other tests read the demo patient's cards).
      const dependentsRegion = page.getByRole('region', { name: 'Dependentes' });
      await dependentsRegion.getByRole('button', { name: 'Adicionar' }).click();
      await expect(page.getByRole('dialog', { name: 'Adicionar dependente' }).getByTestId('dependent-price-change')).toBeVisible();
      await check('/paciente/perfil — dialog Adicionar dependente');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();
      await dependentsRegion.getByRole('button', { name: 'Remover Sofia Paciente' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await check('/paciente/perfil — alertdialog Remover dependente');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Cancelar' }).click();
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await page.getByRole('switch', { name: 'Renovação automática' }).click();
      await expect(page.getByRole('alertdialog', { name: 'Desativar a renovação automática?' })).toBeVisible();
      await check('/paciente/perfil — alertdialog Desativar a renovação automática');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Manter ativa' }).click();
      await expect(page.getByRole('alertdialog')).toHaveCount(0);

      await toPhone(page);
      await page.goto('/paciente');
      await expect(page.getByRole('main').getByRole('heading', { level: 2, name: DEMO_PLAN })).toBeVisible();
      await check('/paciente — home, phone');
      await page.getByRole('button', { name: 'Alternar menu lateral' }).click();
      const drawer = page.getByRole('dialog');
      await expect(drawer.getByTestId('sidebar')).toBeVisible();
      await check('/paciente — the sidebar drawer open, phone');
      await drawer.getByRole('link', { name: 'Meu Cartão' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByTestId('card-qr')).toBeVisible();
      await check('/paciente/cartao — card, phone');

      await page.goto('/paciente/historico');
      await expect(page.getByRole('list', { name: 'Seus atendimentos no período' }).getByRole('listitem').first()).toBeVisible();
      await page.getByText('Ver os dados em tabela').click();
      await expect(page.getByRole('table', { name: 'Dados do gráfico: Economia por mês' })).toBeVisible();
      await check('/paciente/historico — visits as cards, with the chart\'s table open, phone');
    },
  },
  {
    name: 'a new patient subscribes by Pix and cancels: the card goes inactive, and the clinic is told so',
    states: [
      '/paciente — new patient without a subscription (clinic host)',
      '/paciente/historico — no visits yet (clinic host)',
      '/paciente/cartao — no card yet',
      '/paciente/assinatura — no subscription yet: the plans, desktop',
      '/paciente/assinatura — no subscription yet: the plans, phone',
      '/paciente/assinatura — dialog checkout (Assinar)',
      '/paciente/assinatura — dialog Pagamento gerado (Pix)',
      '/paciente/assinatura — active, with a paid charge and its toast',
      '/paciente/assinatura/recibo/:id — receipt, phone',
      '/paciente/assinatura — dialog Cancelar assinatura, phone',
      '/paciente/assinatura — cancelled, phone',
      '/paciente/cartao — inactive card',
      '/clinica/validar — inactive card panel (Assinatura inativa)',
    ],
    run: async ({ page, browser, baseURL, check }) => {
      const demo = clinicOrigin(baseURL, 'demo');
      await signUpPatientOnDemo(page, demo, 'Paciente Acessível');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await check('/paciente — new patient without a subscription (clinic host)');
      await page.goto(`${demo}/paciente/historico`);
      await expect(page.getByText('Nenhum atendimento no período.')).toBeVisible();
      await check('/paciente/historico — no visits yet (clinic host)');
      await page.goto(`${demo}/paciente/cartao`);
      await expect(page.getByText('Você ainda não tem um cartão')).toBeVisible();
      await check('/paciente/cartao — no card yet');
      await openSubscription(page, demo);
      await check('/paciente/assinatura — no subscription yet: the plans, desktop');
      await toPhone(page);
      await check('/paciente/assinatura — no subscription yet: the plans, phone');
      await page.setViewportSize(DESKTOP);

      const dialog = await openCheckout(page);
      await check('/paciente/assinatura — dialog checkout (Assinar)');
      await confirmCheckout(dialog, /PIX/);
      await expectToast(page, 'Assinatura criada com sucesso!');
      const payment = page.getByRole('dialog', { name: 'Pagamento gerado' });
      await expect(payment.getByRole('img', { name: 'QR Code do Pix' })).toBeVisible();
      await check('/paciente/assinatura — dialog Pagamento gerado (Pix)');
      await payment.getByRole('button', { name: 'Simular pagamento' }).click();
      await expectToast(page, 'Pagamento confirmado!');
      await expect(payment).toBeHidden();
      await expect(page.getByTestId('subscription-status')).toHaveText('Ativa');
      await check('/paciente/assinatura — active, with a paid charge and its toast');

      await toPhone(page);
      await page.getByRole('link', { name: 'Ver recibo' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recibo de pagamento');
      await check('/paciente/assinatura/recibo/:id — receipt, phone');
      await page.getByRole('link', { name: 'Voltar' }).click();
      await page.getByRole('button', { name: 'Cancelar assinatura' }).click();
      const cancel = page.getByRole('dialog', { name: 'Cancelar assinatura' });
      await expect(cancel.getByTestId('cancellation-rules')).toContainText('Valor a devolver');
      await check('/paciente/assinatura — dialog Cancelar assinatura, phone');
      await cancel.getByRole('button', { name: 'Confirmar cancelamento' }).click();
      await expect(page.getByTestId('subscription-status')).toHaveText('Cancelada');
      await check('/paciente/assinatura — cancelled, phone');

      await page.setViewportSize(DESKTOP);
      await page.goto(`${demo}/paciente/cartao`);
      await expect(page.getByText('Cartão inativo')).toBeVisible();
      await check('/paciente/cartao — inactive card');
      const [card] = patientCardListSchema.parse(await page.evaluate(async () => (await fetch('/api/patient/cards')).json())).items;
      if (!card) throw new Error('the cancelled patient has no card');

      const clinic = await browser.newContext({ baseURL });
      try {
        await addDemoSession(clinic, 'clinicStaff', baseURL);
        const staff = await clinic.newPage();
        await staff.goto('/clinica/validar');
        const input = staff.getByLabel('Número do cartão ou CPF');
        await input.fill(card.number);
        await input.press('Enter');
        await expect(staff.getByTestId('validation-result')).toContainText('Assinatura inativa');
        await check('/clinica/validar — inactive card panel (Assinatura inativa)', staff);
      } finally {
        await clinic.close();
      }
    },
  },
  {
    name: 'Meus Dados: the demo patient\'s page, on a desktop and on a phone',
    states: ['/paciente/meus-dados — Meus Dados, demo patient', '/paciente/meus-dados — card lookups as cards, phone'],
    run: async ({ page, signInAs, check }) => {
      await signInAs('patient');
      await page.goto('/paciente/meus-dados');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meus Dados');
      await expect(page.getByRole('region', { name: 'Quem consultou meu cartão' }).getByText(/Seu cartão|Ninguém consultou/).first()).toBeVisible();
      await check('/paciente/meus-dados — Meus Dados, demo patient');
      await toPhone(page);
      await check('/paciente/meus-dados — card lookups as cards, phone');
    },
  },
  {
    name: 'Meus Dados: a fresh patient asks for deletion (never the demo patient)',
    states: ['/paciente/meus-dados — dialog Excluir sua conta? with the confirmation refused, phone', '/conta-excluida — a fresh account deleted (clinic host)'],
    run: async ({ page, baseURL, check }) => {
      await toPhone(page);
      const demo = clinicOrigin(baseURL, 'demo');
      await signUpPatientOnDemo(page, demo, 'Paciente Exclusão');
      await page.goto(`${demo}/paciente/meus-dados`);
      await page.getByRole('button', { name: 'Solicitar exclusão' }).click();
      const dialog = page.getByRole('dialog', { name: 'Excluir sua conta?' });
      await dialog.getByRole('button', { name: 'Excluir minha conta' }).click();
      await expect(dialog.getByRole('alert')).toHaveText('Digite EXCLUIR para confirmar.');
      await check('/paciente/meus-dados — dialog Excluir sua conta? with the confirmation refused, phone');
      await dialog.getByLabel('Para confirmar, digite EXCLUIR').fill('EXCLUIR');
      await dialog.getByRole('button', { name: 'Excluir minha conta' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sua conta foi excluída');
      await check('/conta-excluida — a fresh account deleted (clinic host)');
    },
  },
  {
    name: 'a card payment: declined, then approved, then the method changed',
    states: [
      "/paciente/assinatura — dialog checkout with a declined card's reason beside the card",
      '/paciente/assinatura — dialog Pagamento gerado (card approved)',
      '/paciente/assinatura — dialog Alterar forma de pagamento',
      '/paciente/assinatura — payment method changed, with its toast',
    ],
    run: async ({ page, baseURL, check }) => {
      const demo = clinicOrigin(baseURL, 'demo');
      await signUpPatientOnDemo(page, demo, 'Paciente Cartão');
      await openSubscription(page, demo);
      const dialog = await openCheckout(page);
      await dialog.getByLabel('CPF ou CNPJ').fill(validCpf());
      await dialog.getByRole('radio', { name: /Cartão de Crédito/ }).check();
      await fillCard(dialog, '4000 0000 0000 0002');
      await dialog.getByRole('checkbox', { name: /Li e aceito os termos de adesão/ }).click();
      await dialog.getByRole('button', { name: 'Confirmar Assinatura' }).click();
      await expect(dialog.getByRole('alert').filter({ hasText: 'Transação não autorizada' })).toBeVisible();
      await check("/paciente/assinatura — dialog checkout with a declined card's reason beside the card");
      await fillCard(dialog, '4111 1111 1111 1111');
      await dialog.getByRole('button', { name: 'Confirmar Assinatura' }).click();
      const payment = page.getByRole('dialog', { name: 'Pagamento gerado' });
      await expect(payment.getByText('Pagamento aprovado')).toBeVisible();
      await check('/paciente/assinatura — dialog Pagamento gerado (card approved)');
      await payment.getByRole('button', { name: 'Fechar' }).first().click();

      await page.getByRole('button', { name: 'Alterar forma de pagamento' }).click();
      const change = page.getByRole('dialog', { name: 'Alterar forma de pagamento' });
      await change.getByRole('radio', { name: /PIX/ }).check();
      await check('/paciente/assinatura — dialog Alterar forma de pagamento');
      await change.getByRole('button', { name: 'Salvar' }).click();
      await expectToast(page, 'Forma de pagamento alterada com sucesso!');
      await check('/paciente/assinatura — payment method changed, with its toast');
    },
  },
  {
    name: 'a boleto on a phone: the CPF refused, the boleto dialog and its printable page',
    states: [
      '/paciente/assinatura — dialog checkout with a CPF error, phone',
      '/paciente/assinatura — dialog Pagamento gerado (boleto), phone',
      '/paciente/assinatura/boleto/:id — boleto, phone',
    ],
    run: async ({ page, baseURL, check }) => {
      const demo = clinicOrigin(baseURL, 'demo');
      await toPhone(page);
      await signUpPatientOnDemo(page, demo, 'Paciente Boleto');
      await openSubscription(page, demo);
      const dialog = await openCheckout(page);
      await confirmCheckout(dialog, /PIX/, '111.444.777-00');
      await expect(dialog.getByText('CPF ou CNPJ inválido')).toBeVisible();
      await check('/paciente/assinatura — dialog checkout with a CPF error, phone');
      await confirmCheckout(dialog, /Boleto/);
      await expectToast(page, 'Assinatura criada com sucesso!');
      const payment = page.getByRole('dialog', { name: 'Pagamento gerado' });
      await expect(payment.getByText('Vencimento em 5 dias')).toBeVisible();
      await check('/paciente/assinatura — dialog Pagamento gerado (boleto), phone');
      const boleto = await payment.getByRole('link', { name: 'Abrir boleto' }).getAttribute('href');
      await page.goto(`${demo}${boleto ?? ''}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Boleto bancário');
      await expect(page.getByTestId('boleto-digitable-line')).toBeVisible();
      await check('/paciente/assinatura/boleto/:id — boleto, phone');
    },
  },
  {
    name: 'Segurança: the passkeys page, without a passkey, on a desktop and on a phone (patient)',
    states: ['/paciente/seguranca — Segurança, no passkey', '/paciente/seguranca — Segurança, no passkey, phone'],
    run: async ({ page, signInAs, check }) => {
      await signInAs('patient');
      await page.goto('/paciente/seguranca');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Segurança');
      await expect(page.getByRole('button', { name: 'Adicionar chave de acesso' })).toBeVisible();
      await check('/paciente/seguranca — Segurança, no passkey');
      await toPhone(page);
      await check('/paciente/seguranca — Segurança, no passkey, phone');
    },
  },
  {
    name: 'the installable app: a card enrolled for offline use, offline, and the install page with its devices',
    states: [
      '/paciente/cartao — enrolled for offline use, desktop',
      '/paciente/cartao — offline: the card from the device, desktop',
      '/paciente/app — Instalar o app with this device listed, desktop',
      '/paciente/app — dialog Remover este aparelho?',
      '/paciente/app — Instalar o app, phone',
      '/paciente/cartao — offline: the card from the device, phone',
    ],
    allowConsoleErrors: [/net::ERR_INTERNET_DISCONNECTED/],
    run: async ({ page, baseURL, check }) => {
      const patient = await paidPatientOnDemo(page, baseURL, 'Paciente App');
      const demo = new URL(page.url()).origin;
      await page.goto(`${demo}/paciente/cartao`);
      await page.getByRole('button', { name: 'Usar sem internet neste aparelho' }).click();
      await expect(page.getByText('Pronto: este aparelho mostra o cartão mesmo sem internet.')).toBeVisible();
      await expect(page.getByTestId('card-token-text')).toHaveText(/^D1\./);
      await check('/paciente/cartao — enrolled for offline use, desktop');

      // The network gone for the cards (the service worker's part is pwa.spec.ts): the card comes from the device.
      await page.route('**/api/patient/cards', (route) => route.abort('internetdisconnected'));
      await page.goto(`${demo}/paciente/cartao`);
      await expect(page.getByTestId('offline-banner')).toBeVisible();
      await expect(page.getByTestId('patient-card')).toContainText(patient.fullName);
      await expect(page.getByTestId('card-token-text')).toHaveText(/^D1\./);
      await check('/paciente/cartao — offline: the card from the device, desktop');
      await page.unroute('**/api/patient/cards');

      await page.goto(`${demo}/paciente/app`);
      await expect(page.getByRole('heading', { name: 'Instalar o app', level: 1 })).toBeVisible();
      const device = page.getByTestId('card-device');
      await expect(device).toContainText('Este aparelho');
      await check('/paciente/app — Instalar o app with this device listed, desktop');
      await device.getByRole('button', { name: /^Remover o aparelho/ }).click();
      await expect(page.getByRole('alertdialog', { name: 'Remover este aparelho?' })).toBeVisible();
      await check('/paciente/app — dialog Remover este aparelho?');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Cancelar' }).click();

      await toPhone(page);
      await expect(page.getByTestId('card-device')).toBeVisible();
      await check('/paciente/app — Instalar o app, phone');
      await page.route('**/api/patient/cards', (route) => route.abort('internetdisconnected'));
      await page.goto(`${demo}/paciente/cartao`);
      await expect(page.getByTestId('offline-banner')).toBeVisible();
      await expect(page.getByTestId('card-token-text')).toHaveText(/^D1\./);
      await check('/paciente/cartao — offline: the card from the device, phone');
    },
  },
];
