import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { expect, test } from '../fixtures';
import { clinicOrigin, expectToast } from '../tenancy';

test.describe('/clinica/planos', () => {
  test("the demo clinic's admin creates a plan, and a patient of the clinic sees it", async ({ page, signInAs, visit, browser, baseURL }) => {
    await signInAs('clinicAdmin');
    await visit('/clinica');
    await page.getByRole('navigation', { name: 'Menu lateral' }).getByRole('link', { name: 'Planos', exact: true }).click();
    await expect(page).toHaveURL(/\/clinica\/planos$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Planos');
    await expect(page.getByRole('table', { name: 'Planos de pacientes da clínica' })).toContainText('Plano Individual');
    await expect(page.getByRole('region', { name: 'Termos do contrato' }).getByTestId('terms-version')).toContainText('Versão 1');
    await expect(page.getByRole('region', { name: 'Cobrança' }).getByLabel('Dias de tolerância')).toHaveValue(/^\d+$/);

    const name = `Plano Sênior ${Date.now().toString(36)}`;
    const trigger = page.getByRole('button', { name: 'Novo Plano' });
    await trigger.click();
    const dialog = page.getByRole('dialog', { name: 'Novo Plano' });
    await dialog.getByLabel('Nome', { exact: true }).fill(name);
    await dialog.getByLabel('Descrição').fill('Para quem tem mais de 60 anos.');
    await dialog.getByLabel('Preço do titular (R$)').fill('4,99');
    await dialog.getByLabel('Preço do titular (R$)').blur();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    // Refused in the form: below the minimum a provider takes.
    await expect(dialog.getByText('O preço mínimo de um plano é R$ 5,00')).toBeVisible();

    await dialog.getByLabel('Preço do titular (R$)').fill('129,9');
    await dialog.getByLabel('Preço do titular (R$)').blur();
    await expect(dialog.getByLabel('Preço do titular (R$)')).toHaveValue('129,90');
    await dialog.getByLabel('Preço por dependente (R$)').fill('39,90');
    await dialog.getByLabel('Pessoas cobertas (titular + dependentes)').fill('3');
    await dialog.getByLabel('Carência (dias)').fill('30');
    await dialog.getByLabel('Benefícios').fill('Consultas geriátricas\nExames laboratoriais');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Plano criado com sucesso!');
    await expect(dialog).toBeHidden();
    // Focus goes back to the button that opened the dialog.
    await expect(trigger).toBeFocused();
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('R$ 129,90/mês');
    await expect(row).toContainText('30 dias');
    await expect(row).toContainText('Ativo');

    // The demo patient sees it among the clinic's plans, on the clinic's own host.
    const demo = clinicOrigin(baseURL, 'demo');
    const patient = await browser.newContext({ baseURL: demo });
    try {
      // Signed in through the clinic's page: Node's own requests cannot resolve *.localhost, the browser can.
      const patientPage = await patient.newPage();
      await patientPage.goto('/auth');
      const form = patientPage.getByRole('tabpanel', { name: 'Entrar' });
      await form.getByLabel('Email').fill(DEMO_ACCOUNTS.patient);
      await form.getByLabel('Senha').fill(DEMO_PASSWORD);
      await form.getByRole('button', { name: 'Entrar', exact: true }).click();
      await expect(patientPage).toHaveURL(`${demo}/paciente`);
      await patientPage.goto('/paciente/assinatura');
      const card = patientPage.getByRole('article', { name, exact: true });
      await expect(card).toContainText('R$ 129,90');
      await expect(card).toContainText('+ R$ 39,90 por dependente');
      await expect(card).toContainText('Até 3 pessoas');
      await expect(card).toContainText('Consultas geriátricas');
    } finally {
      await patient.close();
    }
  });

  test('the terms refuse a text that does not say the card is not a health plan, and leaving asks first', async ({ page, signInAs, visit }) => {
    await signInAs('clinicAdmin');
    await visit('/clinica/planos');
    const terms = page.getByRole('region', { name: 'Termos do contrato' });
    await terms.getByLabel('Texto dos termos').fill('Texto novo dos termos. '.repeat(12));
    await terms.getByRole('button', { name: 'Publicar nova versão' }).click();
    await expect(terms.getByText('Os termos precisam dizer com clareza que o cartão "não é plano de saúde".')).toBeVisible();
    // Nothing was published: still version 1, and the unsaved text makes leaving ask.
    await expect(terms.getByTestId('terms-version')).toContainText('Versão 1');
    await page.getByRole('navigation', { name: 'Menu lateral' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
    const ask = page.getByRole('alertdialog', { name: 'Sair sem salvar?' });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Continuar editando' }).click();
    await expect(page).toHaveURL(/\/clinica\/planos$/);
  });

  test('on a phone each plan is a card with its price, discounts and Editar in sight', async ({ page, signInAs, visit }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs('clinicAdmin');
    await visit('/clinica/planos');
    const plans = page.getByRole('list', { name: 'Planos de pacientes da clínica' });
    const individual = plans.getByRole('listitem').filter({ hasText: 'Plano Individual' });
    await expect(individual).toContainText('R$');
    await expect(individual).toContainText('Descontos');
    await expect(individual).toContainText(/Consultas \d+%/);
    const edit = individual.getByRole('button', { name: 'Editar Plano Individual' });
    await edit.scrollIntoViewIfNeeded();
    await expect(edit).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await edit.click();
    await expect(page.getByRole('dialog', { name: 'Editar Plano' })).toBeVisible();
  });

  test('staff do not see Planos and cannot open /clinica/planos', async ({ page, signInAs, visit }) => {
    await signInAs('clinicStaff');
    await visit('/clinica');
    await expect(page.getByRole('navigation', { name: 'Menu lateral' }).getByRole('link', { name: 'Planos', exact: true })).toHaveCount(0);
    await visit('/clinica/planos');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acesso restrito');
    await expect(page.getByRole('button', { name: 'Novo Plano' })).toHaveCount(0);
  });
});
