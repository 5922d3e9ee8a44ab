import { messages } from '@carteirinha/shared/messages';
import { expect, test } from '../fixtures';

/** 'Corrigir CPF' (issue 22): the clinic admin gives a CPF to its real owner from /clinica/configuracoes. */
test.describe('/clinica/configuracoes: Corrigir CPF', () => {
  for (const viewport of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1280, height: 900 },
  ]) {
    test(`the clinic admin checks the CPF before asking, and reads the answer in view (${viewport.name})`, async ({ page, signInAs, visit }) => {
      await page.setViewportSize(viewport);
      await signInAs('clinicAdmin');
      await visit('/clinica/configuracoes');
      const form = page.getByRole('form', { name: 'Corrigir CPF' });
      await expect(form).toBeVisible();

      // A CPF with wrong check digits never leaves the browser.
      let asked = 0;
      page.on('request', (request) => {
        if (request.url().endsWith('/api/clinic/cpf-claims')) asked += 1;
      });
      await form.getByLabel('CPF').fill('529.982.247-26');
      await form.getByLabel('E-mail do paciente').fill('ninguem-aqui@teste.dev');
      await form.getByRole('button', { name: 'Passar CPF' }).click();
      await expect(form).toContainText('CPF inválido');
      expect(asked).toBe(0);

      // A valid CPF for an e-mail no patient of the clinic has: the server's answer, beside the form.
      await form.getByLabel('CPF').fill('529.982.247-25');
      await form.getByRole('button', { name: 'Passar CPF' }).click();
      const result = page.getByTestId('cpf-owner-result');
      await expect(result).toHaveText(messages.cards.cpfOwnerNotFound);
      await expect(result).toBeInViewport();
      expect(asked).toBe(1);
    });
  }

  test('is not offered to the reception: Configurações is the clinic admin\'s page', async ({ page, signInAs, visit }) => {
    await signInAs('clinicStaff');
    await visit('/clinica/configuracoes');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acesso restrito');
    await expect(page.getByRole('form', { name: 'Corrigir CPF' })).toHaveCount(0);
  });
});
