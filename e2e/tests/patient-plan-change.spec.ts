import { paymentListSchema } from '@carteirinha/shared/contracts/payments';
import { planChangeOverviewSchema } from '@carteirinha/shared/contracts/plan-changes';
import { dependentsOverviewSchema } from '@carteirinha/shared/contracts/dependents';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { expect, test } from '../fixtures';
import { callFromPage, paidPatientOnDemo } from '../patient-api';
import { clinicOrigin, validCpf } from '../tenancy';

/**
 * Change of plan (issue 27, ADR 028) on a patient of Clínica Demo made for the test, on Plano Individual paid by Pix
 * today: the upgrade to Plano Família charges the difference over the days left of the paid month, takes effect when
 * that charge is paid, and then the plan's three dependents can be added.
 */

const PHONE = { width: 390, height: 844 };
const m = messages.planChange;

test.use({ viewport: PHONE });

test('an upgrade from Individual to Família charges the difference and allows three dependents', async ({ page, baseURL }) => {
  const demo = clinicOrigin(baseURL, 'demo');
  const patient = await paidPatientOnDemo(page, baseURL, 'Carla Troca');
  const overview = await callFromPage(page, '/api/patient/plan-change', (body) => planChangeOverviewSchema.parse(body));
  const family = overview.options.find((option) => option.planName === 'Plano Família');
  if (!family) throw new Error('Plano Família is not offered as a change');
  expect(family.kind).toBe('upgrade');

  await page.goto(`${demo}/paciente/assinatura`);
  const familyCard = page.getByRole('article', { name: 'Plano Família' });
  await familyCard.getByRole('button', { name: m.change }).click();
  const dialog = page.getByRole('dialog', { name: formatMessage(m.title, { plan: 'Plano Família' }) });
  // What is paid now, and why, before confirming.
  await expect(dialog.getByTestId('plan-change-summary')).toHaveText(formatMessage(m.upgradeSummary, { plan: 'Plano Família', charge: formatMoney(family.chargeCents), days: family.remainingDays }));
  await dialog.getByRole('button', { name: m.confirmUpgrade }).click();

  // The charge for the difference opens to be paid; until it is, the plan paid for goes on.
  const payment = page.getByRole('dialog', { name: messages.subscriptionPage.paymentTitle });
  await expect(payment.getByTestId('payment-amount')).toHaveText(formatMoney(family.chargeCents));
  await expect(page.getByTestId('plan-change-notice')).toHaveText(formatMessage(m.awaitingPayment, { plan: 'Plano Família', charge: formatMoney(family.chargeCents) }));
  await expect(page.locator('#current-subscription-title')).toHaveText('Plano Individual');
  await payment.getByRole('button', { name: messages.checkout.simulatePayment }).click();
  await expect(payment).toBeHidden();

  // Paid: Plano Família now, the same paid-through date, no change pending, the charge listed as the plan change.
  await expect(page.locator('#current-subscription-title')).toHaveText('Plano Família', { timeout: 15_000 });
  await expect(familyCard.getByRole('button', { name: messages.checkout.activePlan })).toBeDisabled();
  await expect(page.getByTestId('plan-change-notice')).toHaveCount(0);
  const charges = await callFromPage(page, '/api/patient/payments', (body) => paymentListSchema.parse(body).items);
  expect(charges.filter((charge) => charge.planChange).map((charge) => [charge.amountCents, charge.status])).toEqual([[family.chargeCents, 'received']]);

  // Three dependents, each with their own card; the fourth has no room.
  for (const name of ['Bia', 'Caio', 'Davi']) {
    await callFromPage(page, '/api/patient/dependents', (body) => dependentsOverviewSchema.parse(body), {
      method: 'POST',
      body: { fullName: `${name} Troca ${patient.suffix}`, cpf: validCpf(), birthDate: '2015-03-09', relationship: 'child' },
    }, 201);
  }
  await page.goto(`${demo}/paciente/perfil`);
  const section = page.getByRole('region', { name: messages.dependents.title });
  await expect(section.getByTestId('dependents-room')).toHaveText(formatMessage(messages.dependents.room, { count: 3, max: 3 }), { timeout: 15_000 });
  await expect(section.getByRole('button', { name: messages.dependents.add })).toHaveCount(0);
});


test('the automatic renewal switch in Meu Perfil: off asks first and ends the plan at the paid date, on renews again', async ({ page, baseURL }) => {
  const demo = clinicOrigin(baseURL, 'demo');
  await paidPatientOnDemo(page, baseURL, 'Rita Renova');
  await page.goto(`${demo}/paciente/perfil`);
  const renewal = page.getByRole('switch', { name: messages.autoRenewal.label });
  const state = page.getByTestId('auto-renewal-state');
  await expect(renewal).toBeChecked({ timeout: 15_000 });
  await expect(state).toHaveText(messages.patientProfile.autoRenewalOn);

  await renewal.click();
  const confirm = page.getByRole('alertdialog', { name: messages.autoRenewal.offTitle });
  await confirm.getByRole('button', { name: messages.autoRenewal.offConfirm }).click();
  await expect(confirm).toBeHidden();
  await expect(renewal).not.toBeChecked();
  await expect(state).toContainText('Desativada: o plano termina em');
  await page.reload();
  await expect(page.getByRole('switch', { name: messages.autoRenewal.label })).not.toBeChecked({ timeout: 15_000 });

  await page.getByRole('switch', { name: messages.autoRenewal.label }).click();
  await expect(page.getByRole('switch', { name: messages.autoRenewal.label })).toBeChecked();
  await expect(state).toHaveText(messages.patientProfile.autoRenewalOn);
});
