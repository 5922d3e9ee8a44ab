import { isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import type { Page } from '@playwright/test';
import { messages } from '@carteirinha/shared/messages';
import { expect, test } from '../fixtures';
import { TEST_PASSWORD, clinicOrigin, expectToast, latestEmailTo, uniqueEmail, validCpf } from '../tenancy';

/** The demo clinic's cheapest plan (apps/server/src/db/seed.ts). */
const PLAN = 'Plano Individual';
const PHONE = { width: 390, height: 844 };

/** Signs up on Clínica Demo's own host, which makes a patient of that clinic, and opens /paciente/assinatura. */
async function signUpPatientOnDemo(page: Page, demo: string, fullName: string): Promise<string> {
  const email = uniqueEmail();
  await page.goto(`${demo}/auth?tab=cadastrar`);
  const form = page.getByRole('tabpanel', { name: 'Cadastrar' });
  await form.getByLabel('Nome Completo').fill(fullName);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Senha').fill(TEST_PASSWORD);
  await form.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(`${demo}/paciente`);
  await page.goto(`${demo}/paciente/assinatura`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Assinatura');
  return email;
}

function planCard(page: Page, name: string) {
  return page.getByRole('article', { name, exact: true });
}

/** Opens the checkout of a plan: the dialog comes filled with the account's name and e-mail. */
async function openCheckout(page: Page, plan: string) {
  await planCard(page, plan).getByRole('button', { name: 'Assinar Agora' }).click();
  const dialog = page.getByRole('dialog', { name: `Assinar ${plan}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Fills the CPF, picks the method, accepts the terms (after reading them) and confirms. */
async function subscribe(page: Page, method: 'PIX' | 'Boleto', cpf = validCpf()) {
  const dialog = await openCheckout(page, PLAN);
  await dialog.getByLabel('CPF ou CNPJ').fill(cpf);
  await dialog.getByRole('radio', { name: new RegExp(method) }).check();
  await dialog.getByText('Ler os termos de adesão').click();
  await expect(dialog.getByTestId('terms-text')).toContainText('não é plano de saúde');
  await dialog.getByRole('checkbox', { name: /Li e aceito os termos de adesão/ }).click();
  await dialog.getByRole('button', { name: 'Confirmar Assinatura' }).click();
  await expectToast(page, 'Assinatura criada com sucesso!');
  await expect(dialog).toBeHidden();
  const payment = page.getByRole('dialog', { name: 'Pagamento gerado' });
  await expect(payment).toBeVisible();
  return payment;
}

/** 'Simular pagamento' pays through the webhook; the page then reads 'Ativa' and the plan 'Plano Ativo'. */
async function simulatePaymentAndExpectActive(page: Page, payment: ReturnType<Page['getByRole']>) {
  await payment.getByRole('button', { name: 'Simular pagamento' }).click();
  await expectToast(page, 'Pagamento confirmado!');
  await expect(payment).toBeHidden();
  await expect(page.getByTestId('subscription-status')).toHaveText('Ativa');
  await expect(planCard(page, PLAN).getByRole('button', { name: 'Plano Ativo' })).toBeDisabled();
}

test.describe('/paciente/assinatura checkout', () => {
  test("a plan chosen on the clinic's site opens its checkout right after sign-up, once", async ({ page, baseURL }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    await page.goto(demo);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: PLAN, exact: true }) });
    await card.getByRole('link', { name: 'Assinar Agora' }).click();
    const form = page.getByRole('tabpanel', { name: 'Cadastrar' });
    await form.getByLabel('Nome Completo').fill('Paciente Escolheu');
    await form.getByLabel('Email').fill(uniqueEmail());
    await form.getByLabel('Senha').fill(TEST_PASSWORD);
    await form.getByRole('button', { name: 'Cadastrar' }).click();

    // Straight to that plan's checkout, filled with the new account; the marker leaves the address.
    const dialog = page.getByRole('dialog', { name: `Assinar ${PLAN}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Nome completo', { exact: true })).toHaveValue('Paciente Escolheu');
    await expect(page).toHaveURL(`${demo}/paciente/assinatura`);
    await dialog.getByRole('button', { name: 'Cancelar', exact: true }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Assinatura');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('a new patient subscribes by Pix: a valid BR Code, then Simular pagamento activates it (desktop)', async ({ page, baseURL, context }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo });
    await signUpPatientOnDemo(page, demo, 'Paciente Pix');

    // Three plans side by side on a desktop.
    const cards = page.getByRole('article');
    await expect(cards.first()).toBeVisible();
    const [first, second] = await Promise.all([cards.nth(0).boundingBox(), cards.nth(1).boundingBox()]);
    expect(first?.y).toBe(second?.y);
    // Each discount once, though the demo plan also writes it among its features; one person is said as such.
    await expect(planCard(page, PLAN).getByText(/consultas/i)).toHaveCount(1);
    await expect(planCard(page, PLAN)).toContainText('Somente o titular');
    await expect(planCard(page, 'Plano Família')).toContainText('Até 4 pessoas');

    const checkout = await openCheckout(page, PLAN);
    await expect(checkout.getByLabel('Nome completo')).toHaveValue('Paciente Pix');
    await expect(checkout.getByLabel('E-mail')).toHaveAttribute('type', 'email');
    await checkout.getByRole('button', { name: 'Cancelar' }).click();

    const payment = await subscribe(page, 'PIX');
    await expect(payment.getByRole('img', { name: 'QR Code do Pix' })).toHaveAttribute('src', /^data:image\/png;base64,/);
    await expect(payment.getByText('Aprovação imediata')).toBeVisible();
    const copyPaste = (await payment.getByTestId('pix-copy-paste').textContent()) ?? '';
    expect(isValidPixPayload(copyPaste)).toBe(true);

    await payment.getByRole('button', { name: 'Copiar' }).click();
    await expectToast(page, 'Código Pix copiado!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(copyPaste);

    await expect(page.getByTestId('subscription-status')).toHaveText('Pendente');
    await simulatePaymentAndExpectActive(page, payment);
    // The charge is listed as paid, with its receipt.
    const charges = page.getByRole('table', { name: 'Cobranças da sua assinatura, da mais recente para a mais antiga' });
    await expect(charges.getByRole('row').nth(1)).toContainText('Pago');
    await expect(charges.getByRole('link', { name: 'Ver recibo' })).toBeVisible();
  });

  test('a card payment: a declined card says why beside the card and keeps all but its number and CVV, another is approved; then the method changes to Pix', async ({ page, baseURL }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    await signUpPatientOnDemo(page, demo, 'Paciente Cartão');
    const dialog = await openCheckout(page, PLAN);
    await dialog.getByLabel('CPF ou CNPJ').fill(validCpf());
    await dialog.getByRole('radio', { name: /Cartão de Crédito/ }).check();
    await dialog.getByLabel('Número do cartão').fill('4000 0000 0000 0002');
    await dialog.getByLabel('Nome impresso no cartão').fill('PACIENTE CARTAO');
    await dialog.getByLabel('Validade (MM/AA)').fill('12/39');
    await dialog.getByLabel('CVV').fill('123');
    await dialog.getByLabel('CEP do titular do cartão').fill('01310-100');
    await dialog.getByLabel('Número do endereço').fill('100');
    await dialog.getByRole('checkbox', { name: /Li e aceito os termos de adesão/ }).click();
    await dialog.getByRole('button', { name: 'Confirmar Assinatura' }).click();
    // The operator's reason, in the dialog over the card fields, not in a toast that vanishes.
    const refusal = dialog.getByRole('alert').filter({ hasText: 'Erro ao criar assinatura' });
    await expect(refusal).toContainText('Transação não autorizada');
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
    // The number and CVV are gone once sent; the rest stays to be corrected, not typed again.
    await expect(dialog.getByLabel('Número do cartão')).toHaveValue('');
    await expect(dialog.getByLabel('CVV')).toHaveValue('');
    await expect(dialog.getByLabel('Nome impresso no cartão')).toHaveValue('PACIENTE CARTAO');
    await expect(dialog.getByLabel('Validade (MM/AA)')).toHaveValue('12/39');
    await expect(dialog.getByLabel('CEP do titular do cartão')).toHaveValue('01310-100');
    await expect(dialog.getByLabel('Número do endereço')).toHaveValue('100');

    // Typed digit by digit, the number, the expiry and the CEP take their printed layout as they grow.
    const number = dialog.getByLabel('Número do cartão');
    await number.pressSequentially('4111111111111111');
    await expect(number).toHaveValue('4111 1111 1111 1111');
    const expiry = dialog.getByLabel('Validade (MM/AA)');
    await expiry.fill('');
    await expiry.pressSequentially('1239');
    await expect(expiry).toHaveValue('12/39');
    const cep = dialog.getByLabel('CEP do titular do cartão');
    await cep.fill('');
    await cep.pressSequentially('01310100');
    await expect(cep).toHaveValue('01310-100');
    await dialog.getByLabel('CVV').fill('123');
    await dialog.getByRole('button', { name: 'Confirmar Assinatura' }).click();
    await expectToast(page, 'Assinatura criada com sucesso!');
    const payment = page.getByRole('dialog', { name: 'Pagamento gerado' });
    await expect(payment.getByText('Pagamento aprovado')).toBeVisible();
    await expect(payment.getByText('Visa •••• 1111')).toBeVisible();
    // Nothing left to conclude once the card is approved, and the charge is simply paid.
    await expect(payment.getByText('Conclua o pagamento')).toHaveCount(0);
    await expect(payment.getByText('Pagamento confirmado: sua assinatura está ativa.')).toBeVisible();
    await expect(payment.getByText('Pago', { exact: true })).toBeVisible();
    await payment.getByRole('button', { name: 'Fechar' }).first().click();

    await page.getByRole('button', { name: 'Alterar forma de pagamento' }).click();
    const change = page.getByRole('dialog', { name: 'Alterar forma de pagamento' });
    await change.getByRole('radio', { name: /PIX/ }).check();
    await change.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Forma de pagamento alterada com sucesso!');
    await expect(page.getByRole('region', { name: PLAN }).getByText('PIX', { exact: true })).toBeVisible();
  });

  test.describe('on a phone', () => {
    test.use({ viewport: PHONE });

    test('a second patient pays by boleto, prints it, then cancels and gets the receipt by e-mail', async ({ page, baseURL }) => {
      const demo = clinicOrigin(baseURL, 'demo');
      const email = await signUpPatientOnDemo(page, demo, 'Paciente Boleto');

      // One column on a phone.
      const cards = page.getByRole('article');
      const [first, second] = await Promise.all([cards.nth(0).boundingBox(), cards.nth(1).boundingBox()]);
      expect(second?.y ?? 0).toBeGreaterThan((first?.y ?? 0) + (first?.height ?? 0) - 1);

      const cpf = validCpf();
      const payment = await subscribe(page, 'Boleto', cpf);
      await expect(payment.getByText('Vencimento em 5 dias')).toBeVisible();
      const line = (await payment.getByTestId('boleto-line').textContent()) ?? '';
      expect(line.replace(/\D/g, '')).toHaveLength(47);
      const boletoHref = await payment.getByRole('link', { name: 'Abrir boleto' }).getAttribute('href');
      expect(boletoHref).toMatch(/^\/paciente\/assinatura\/boleto\/[0-9a-f-]{36}$/);
      // The footer's button (the corner's × is named 'Fechar' too).
      await payment.getByRole('button', { name: 'Fechar' }).first().click();

      // The printable boleto: the clinic receives, the patient pays.
      await page.goto(`${demo}${boletoHref}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Boleto bancário');
      await expect(page.getByText('Clínica Demo')).toBeVisible();
      await expect(page.getByText('Paciente Boleto')).toBeVisible();
      await expect(page.getByTestId('boleto-digitable-line')).toHaveText(line);
      // Who receives and who pays, by CNPJ and CPF, and the barcode a cashier's reader takes: the line's fields in the
      // barcode's order (FEBRABAN), 44 digits.
      await expect(page.getByText('CNPJ 11.222.333/0001-81')).toBeVisible();
      await expect(page.getByText(`CPF ${cpf}`)).toBeVisible();
      const digits = line.replace(/\D/g, '');
      const barcode = page.getByRole('img', { name: 'Código de barras do boleto' });
      await expect(barcode).toBeVisible();
      await expect(barcode).toHaveAttribute('data-barcode', digits.slice(0, 4) + digits.slice(32) + digits.slice(4, 9) + digits.slice(10, 20) + digits.slice(21, 31));
      expect((await barcode.boundingBox())?.width ?? 0).toBeLessThanOrEqual(PHONE.width);
      await expect(page.getByRole('button', { name: 'Imprimir' })).toBeEnabled();
      await page.getByRole('link', { name: 'Voltar' }).click();

      // On a phone each charge is a card that shows every value and its action: nothing hides behind a sideways scroll.
      const charges = page.getByRole('list', { name: messages.subscriptionPage.chargesCaption });
      await expect(charges.getByRole('listitem')).toHaveCount(1);
      const charge = charges.getByRole('listitem').first();
      for (const label of ['Vencimento', 'Período', 'Forma', 'Valor', 'Status']) await expect(charge).toContainText(label);
      await expect(charge).toContainText('R$');
      await expect(charge.getByText('Pendente', { exact: true })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

      // 'Pagar' reopens the open charge's payment dialog.
      await expect(page.getByTestId('subscription-status')).toHaveText('Pendente');
      await charge.getByRole('button', { name: 'Pagar' }).click();
      await simulatePaymentAndExpectActive(page, page.getByRole('dialog', { name: 'Pagamento gerado' }));
      await expect(charge.getByText('Pago', { exact: true })).toBeVisible();
      await expect(charge.getByRole('link', { name: 'Ver recibo' })).toBeVisible();

      await page.getByRole('link', { name: 'Ver recibo' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recibo de pagamento');
      await expect(page.getByText(`referente à assinatura do ${PLAN}`)).toBeVisible();
      await expect(page.getByText('CNPJ 11.222.333/0001-81')).toBeVisible();
      await expect(page.getByText(`CPF ${cpf}`)).toBeVisible();
      await page.getByRole('link', { name: 'Voltar' }).click();

      // Self-service cancellation: the rules first (CDC art. 49, within 7 days), then the confirmation.
      await page.getByRole('button', { name: 'Cancelar assinatura' }).click();
      const cancel = page.getByRole('dialog', { name: 'Cancelar assinatura' });
      await expect(cancel.getByTestId('cancellation-rules')).toContainText('Valor a devolver');
      await expect(cancel.getByTestId('cancellation-rules')).toContainText('7 dias');
      // Once cancelled there is nothing left to preview: the dialog's preview is not read again (it answered 409).
      const previewReads: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/patient/subscription/cancellation') previewReads.push(request.url());
      });
      await cancel.getByRole('button', { name: 'Confirmar cancelamento' }).click();
      await expectToast(page, 'Assinatura cancelada. Enviamos o comprovante para o seu e-mail.');
      await expect(page.getByTestId('subscription-status')).toHaveText('Cancelada');
      await expect(page.getByText('Enviamos o comprovante de cancelamento para o seu e-mail.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Cancelar assinatura' })).toHaveCount(0);
      expect(previewReads).toEqual([]);
      // A withdrawal ends it at once: the page says when it ended, not a paid-through date it no longer covers.
      const summary = page.getByRole('region', { name: PLAN });
      await expect(summary.getByText('Encerrada em', { exact: true })).toBeVisible();
      await expect(summary.getByText('Pago até', { exact: true })).toHaveCount(0);
      // The receipt on the page too: its protocol, and where the refund of what was paid stands.
      const onPage = summary.getByTestId('cancellation-receipt');
      await expect(onPage).toContainText(/Protocolo\s*CAN-\d{8}-[0-9A-F]{8}/);
      await expect(onPage).toContainText(/Reembolso\s*R\$\s?[\d.]+,\d{2}: (em processamento|devolvido)/);
      // Nothing on the page scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

      const receipt = await latestEmailTo(baseURL, email, messages.cancellation.receiptSubject);
      expect(receipt.text).toContain(PLAN);
      expect(receipt.text).toContain('Nenhuma nova cobrança será feita.');

      // The home says the plan ended, with no card to show and no benefits that no longer hold.
      await page.goto(`${demo}/paciente`);
      await expect(page.getByText(/^Encerrada em \d{2}\/\d{2}\/\d{4}\. Os descontos deste plano não valem mais\.$/)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Ver Meu Cartão' })).toHaveCount(0);
      await expect(page.getByText('Seus benefícios')).toHaveCount(0);
      await page.getByRole('link', { name: 'Ver minha assinatura' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Assinatura');

      // Subscribing again starts from the CPF the first checkout recorded (read-only once set): nothing to retype.
      const again = await openCheckout(page, PLAN);
      await expect(again.getByLabel('CPF ou CNPJ')).toHaveValue(cpf);
      await expect(again.getByLabel('E-mail')).toHaveValue(email);
      await again.getByRole('button', { name: 'Cancelar', exact: true }).click();
      await expect(again).toBeHidden();
    });

    test('the confirm button waits for the required fields, and a bad CPF is refused under its field', async ({ page, baseURL }) => {
      const demo = clinicOrigin(baseURL, 'demo');
      await signUpPatientOnDemo(page, demo, 'Paciente Cuidadoso');
      const dialog = await openCheckout(page, PLAN);
      const confirm = dialog.getByRole('button', { name: 'Confirmar Assinatura' });
      await expect(dialog.getByLabel('CPF ou CNPJ')).toHaveAttribute('placeholder', '000.000.000-00');
      await expect(dialog.getByLabel('Telefone (opcional)')).toHaveAttribute('placeholder', '(00) 00000-0000');
      // The CPF is still empty.
      await expect(confirm).toBeDisabled();
      await dialog.getByLabel('CPF ou CNPJ').fill('111.444.777-00');
      await dialog.getByLabel('Nome completo').fill('');
      await expect(confirm).toBeDisabled();
      await dialog.getByLabel('Nome completo').fill('Paciente Cuidadoso');
      await expect(confirm).toBeEnabled();

      // Card fields appear only for the card, with the browser's card autofill names.
      await expect(dialog.getByLabel('Número do cartão')).toHaveCount(0);
      await dialog.getByRole('radio', { name: /Cartão de Crédito/ }).check();
      await expect(dialog.getByLabel('Número do cartão')).toHaveAttribute('autocomplete', 'cc-number');
      await dialog.getByRole('radio', { name: /PIX/ }).check();

      await dialog.getByRole('checkbox', { name: /Li e aceito os termos de adesão/ }).click();
      await confirm.click();
      await expect(dialog.getByText('CPF ou CNPJ inválido')).toBeVisible();
      await expect(dialog.getByLabel('CPF ou CNPJ')).toHaveAttribute('aria-invalid', 'true');
      // Nothing was created.
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(page.getByText('Você ainda não tem uma assinatura. Escolha um plano abaixo.')).toBeVisible();
    });
  });
});
