import { patientCardListSchema } from '@carteirinha/shared/contracts/cards';
import { subscriptionPlanListSchema } from '@carteirinha/shared/contracts/subscription-plans';
import { contractTermsSchema, createSubscriptionResponseSchema } from '@carteirinha/shared/contracts/subscriptions';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { expect, test } from '../fixtures';
import { callFromPage } from '../patient-api';
import { captchaHeadersInPage } from '../captcha';
import { TEST_PASSWORD, clinicOrigin, expectToast, uniqueEmail, validCpf } from '../tenancy';

/**
 * Dependents (issue 27) on a patient of Clínica Demo made for the test, subscribed to Plano Família ('Titular e até 3
 * dependentes') by Pix and paid through the API the checkout uses: the demo patient's own card is read by other specs.
 */

const PLAN = 'Plano Família';
const PHONE = { width: 390, height: 844 };
const m = messages.dependents;
const anything = (body: unknown) => body;

test.use({ viewport: PHONE });

test.describe('Dependentes (issue 27)', () => {
  test('a dependent added in Meu Perfil shows on Início and has a card that validates at the clinic', async ({ page, baseURL, signInAs, visit }) => {
    const demo = clinicOrigin(baseURL, 'demo');
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const holderName = `Paula Família ${suffix}`;
    const dependentName = `Lucas Família ${suffix}`;
    const email = uniqueEmail();
    await page.goto(`${demo}/auth`);
    await callFromPage(page, '/api/auth/sign-up/email', anything, { method: 'POST', headers: await captchaHeadersInPage(page), body: { name: holderName, email, password: TEST_PASSWORD } });
    const plans = await callFromPage(page, '/api/patient/subscription-plans', (body) => subscriptionPlanListSchema.parse(body));
    const plan = plans.items.find((item) => item.name === PLAN);
    if (!plan) throw new Error(`no ${PLAN} on sale at Clínica Demo`);
    const terms = await callFromPage(page, '/api/patient/terms', (body) => contractTermsSchema.parse(body));
    const created = await callFromPage(
      page,
      '/api/patient/subscriptions',
      (body) => createSubscriptionResponseSchema.parse(body),
      {
        method: 'POST',
        headers: { 'idempotency-key': `dependentes-${suffix}` },
        body: { planId: plan.id, paymentMethod: 'pix', customerData: { name: holderName, email, cpfCnpj: validCpf() }, termsId: terms.id, acceptTerms: true },
      },
      201,
    );
    await callFromPage(page, `/api/patient/payments/${created.payment.id}/simulate`, anything, { method: 'POST', body: {} });

    // Meu Perfil: 'Adicionar', the price said before confirming, the dependent listed as a card.
    await page.goto(`${demo}/paciente/perfil`);
    const section = page.getByRole('region', { name: m.title });
    await expect(section.getByTestId('dependents-room')).toHaveText(formatMessage(m.room, { count: 0, max: plan.maxMembers - 1 }), { timeout: 15_000 });
    await section.getByRole('button', { name: m.add }).click();
    const dialog = page.getByRole('dialog', { name: m.addTitle });
    await dialog.getByLabel(m.fullName).fill(dependentName);
    await dialog.getByLabel(m.cpf).fill(validCpf());
    await dialog.getByLabel(m.birthDate).fill('2016-05-20');
    await dialog.getByLabel(m.relationship).selectOption({ label: m.relationships.child });
    await expect(dialog.getByTestId('dependent-price-change')).toBeVisible();
    await dialog.getByRole('button', { name: m.confirmAdd }).click();
    await expectToast(page, m.added);
    await expect(dialog).toBeHidden();
    const item = section.getByTestId('dependent-item').filter({ hasText: dependentName });
    await expect(item).toContainText(m.relationships.child);
    await expect(item).toContainText('20/05/2016');
    // Their card is issued at once by the cards job; the list asks again until its number is there.
    await expect(item).toContainText(/•••• \d{4}/, { timeout: 15_000 });

    // Início: the dependents tile counts and names them.
    await page.goto(`${demo}/paciente`);
    const tile = page.getByRole('region', { name: messages.patient.dependents });
    await expect(tile.getByTestId('dependents-count')).toHaveText('1', { timeout: 15_000 });
    await expect(tile).toContainText(dependentName);

    // Meu Cartão: the holder's card first; the dependent's own, chosen from Meu Perfil's 'Ver carteirinha'.
    await page.goto(`${demo}/paciente/perfil`);
    await page.getByTestId('dependent-item').filter({ hasText: dependentName }).getByRole('link', { name: m.seeCard }).click();
    await expect(page.getByRole('tab', { name: dependentName })).toHaveAttribute('aria-selected', 'true', { timeout: 15_000 });
    const cards = await callFromPage(page, '/api/patient/cards', (body) => patientCardListSchema.parse(body).items);
    expect(cards.map((card) => card.personName)).toEqual([holderName, dependentName]);
    const dependentCard = cards[1];
    if (!dependentCard) throw new Error('the dependent has no card');
    await expect(page.getByRole('tabpanel')).toContainText(dependentCard.number.slice(-4));

    // The clinic's receptionist types the dependent's number at Validar Cartão: valid, with the dependent's name.
    await page.context().clearCookies();
    await signInAs('clinicStaff');
    await visit('/clinica/validar');
    const input = page.getByLabel('Número do cartão ou CPF');
    await input.fill(dependentCard.number);
    await input.press('Enter');
    const result = page.getByTestId('validation-result');
    await expect(result).toContainText('Autorizado a aplicar desconto', { timeout: 15_000 });
    await expect(result).toContainText(dependentName);
  });
});
