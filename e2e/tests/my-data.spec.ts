import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { myDataExportSchema } from '@carteirinha/shared/contracts/my-data';
import { demoAccountRequest, expect, test } from '../fixtures';
import { paidPatientOnDemo } from '../patient-api';
import { TEST_PASSWORD, clinicOrigin } from '../tenancy';

/**
 * Meus Dados (issue 27; ADR 027) on a patient of Clínica Demo made for the test — never the demo patient, whom other
 * specs use and whom the deletion would end: subscribed by Pix and paid through the API the checkout uses.
 */

const PHONE = { width: 390, height: 844 };

type Member = { fullName: string; email: string; cardNumber: string };

async function subscribedMember(page: Page, baseURL: string | undefined): Promise<Member> {
  const { fullName, email, card } = await paidPatientOnDemo(page, baseURL, 'Lúcia Privacidade');
  return { fullName, email, cardNumber: card.number };
}

test.describe('Meus Dados (issue 27, LGPD)', () => {
  test('downloads the JSON with the patient in it, and shows the receptionist who looked up the card', async ({ page, baseURL }) => {
    const member = await subscribedMember(page, baseURL);
    const desk = await demoAccountRequest('clinicStaff', baseURL);
    try {
      const answer = await desk.post('/api/clinic/card-validations', { data: { cardToken: member.cardNumber, source: 'manual' } });
      expect(answer.status(), await answer.text()).toBe(200);
    } finally {
      await desk.dispose();
    }

    await page.goto(`${clinicOrigin(baseURL, 'demo')}/paciente/meus-dados`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meus Dados');
    const downloading = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Baixar em JSON' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('meus-dados.json');
    const data = myDataExportSchema.parse(JSON.parse(await readFile(await download.path(), 'utf8')));
    expect(data.account.name).toBe(member.fullName);
    expect(data.clinic.name).toBe('Clínica Demo');
    expect(data.cards.map((card) => card.number)).toEqual([member.cardNumber]);

    const log = page.getByRole('table', { name: 'Quem consultou meu cartão' });
    const rows = log.getByRole('row');
    await expect(rows).toHaveCount(2, { timeout: 15_000 });
    await expect(rows.nth(1)).toContainText('Ana Atendente');
    await expect(rows.nth(1)).toContainText('Recepção');
    await expect(rows.nth(1)).toContainText('Número do cartão');
    await expect(rows.nth(1)).toContainText('Válido');

    // On a phone, the lookup is a card with every value, not a sideways scroll.
    await page.setViewportSize(PHONE);
    await expect(page.getByText('Ana Atendente')).toBeVisible();
    await expect(page.getByText('Número do cartão')).toBeVisible();
  });

  test('deleting a fresh account signs the patient out, says what was kept, and the e-mail no longer signs in', async ({ page, baseURL }) => {
    const member = await subscribedMember(page, baseURL);
    const demo = clinicOrigin(baseURL, 'demo');
    await page.goto(`${demo}/paciente/meus-dados`);
    await page.getByRole('button', { name: 'Solicitar exclusão' }).click();
    const dialog = page.getByRole('dialog', { name: 'Excluir sua conta?' });
    await expect(dialog.getByTestId('deletion-terms')).toContainText('O que guardamos, e por quê');
    await dialog.getByRole('button', { name: 'Excluir minha conta' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Digite EXCLUIR para confirmar.');
    await dialog.getByLabel('Para confirmar, digite EXCLUIR').fill('EXCLUIR');
    await dialog.getByRole('button', { name: 'Excluir minha conta' }).click();

    await expect(page).toHaveURL(/\/conta-excluida$/, { timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sua conta foi excluída');
    const said = page.getByTestId('account-deleted');
    await expect(said).toContainText(/Sua assinatura foi cancelada \(protocolo CAN-/);
    await expect(said).toContainText('Guardamos, sem o seu nome, 1 cobrança(s)');

    // Signed out: the portal sends back to sign-in, and the old address and password no longer open it.
    await page.goto(`${demo}/paciente`);
    await expect(page).toHaveURL(/\/auth/, { timeout: 15_000 });
    const signIn = await page.evaluate(
      async ({ email, password }) => (await fetch('/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })).status,
      { email: member.email, password: TEST_PASSWORD },
    );
    expect(signIn).not.toBe(200);
  });
});
