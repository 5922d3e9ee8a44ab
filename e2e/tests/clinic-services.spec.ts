import type { Page } from '@playwright/test';
import { patientCardListSchema } from '@carteirinha/shared/contracts/cards';
import { serviceSchema } from '@carteirinha/shared/contracts/services';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { approvedClinicOfNewOwner } from '../clinic-owner';
import { demoAccountRequest, expect, expectCardShows, test } from '../fixtures';
import { clinicOrigin, expectToast } from '../tenancy';

/*
 * Issue 25, Serviços and the public price table: a clinic_admin keeps the price list (create, edit, delete — archived
 * when visits used it — and the price history), and anyone reads the table, today's or a past day's, on the clinic's
 * own site. The receptionist's view of these pages is in clinic-team.spec.ts, with Equipe's.
 */

const m = messages.services;
const p = messages.priceTable;
const PHONE = { width: 390, height: 844 };

function serviceDialog(page: Page, title: string) {
  return page.getByRole('dialog', { name: title });
}

async function fillService(page: Page, title: string, fields: { name: string; category: string; price: string; discount?: string }) {
  const dialog = serviceDialog(page, title);
  await dialog.getByLabel(m.nameLabel, { exact: true }).fill(fields.name);
  await dialog.getByLabel(m.categoryLabel).selectOption({ label: fields.category });
  await dialog.getByLabel(m.priceLabel).fill(fields.price);
  await dialog.getByLabel(m.discountLabel).fill(fields.discount ?? '');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
}

/** "26/11/2026" of a day `daysAgo` before today in São Paulo, and its yyyy-mm-dd. */
function saoPauloDay(daysAgo: number): { iso: string; shown: string } {
  const at = new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000);
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  return { iso, shown: iso.split('-').reverse().join('/') };
}

test('a new owner keeps the price list, and the clinic site shows it today and as it was on a past day (desktop)', async ({ page, baseURL, visit }) => {
  test.setTimeout(90_000);
  const clinic = await approvedClinicOfNewOwner(page, baseURL);
  await visit('/clinica/servicos');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(m.title);
  const table = page.getByRole('table', { name: m.caption });
  await expect(table).toContainText(m.empty);

  // Bad input: the shared schema's pt-BR messages, on the fields; nothing is sent.
  await page.getByRole('button', { name: m.add }).click();
  await fillService(page, m.newTitle, { name: 'X', category: m.categoryPick, price: 'dez', discount: '120' });
  const dialog = serviceDialog(page, m.newTitle);
  await expect(dialog.getByText(m.nameRequired)).toBeVisible();
  await expect(dialog.getByText(m.categoryRequired)).toBeVisible();
  await expect(dialog.getByText(m.priceInvalid)).toBeVisible();
  await expect(dialog.getByText(m.discountInvalid)).toBeVisible();

  // A consulta at R$ 250,00 with the plan's discount (30 %): R$ 175,00 on the card.
  await fillService(page, m.newTitle, { name: 'Consulta cardiológica', category: 'Consulta', price: '250' });
  await expectToast(page, 'Serviço salvo com sucesso!');
  await expect(dialog).toBeHidden();
  const row = table.getByRole('row').filter({ hasText: 'Consulta cardiológica' });
  await expect(row).toContainText('Consulta');
  await expect(row).toContainText('R$ 250,00');
  await expect(row).toContainText(m.planDiscount);
  await expect(row).toContainText(`${clinic.plan.name}: R$ 175,00`);

  // The server's refusal is shown in the dialog, where it was asked.
  await page.getByRole('button', { name: m.add }).click();
  await fillService(page, m.newTitle, { name: 'Consulta cardiológica', category: 'Exame', price: '10' });
  await expect(dialog.getByRole('alert')).toHaveText(formatMessage(m.saveError, { message: m.duplicateName }));
  await dialog.getByRole('button', { name: 'Cancelar' }).click();

  // Edited: a new price and the service's own discount, which wins over the plan's.
  await row.getByRole('button', { name: `${m.edit}: Consulta cardiológica` }).click();
  const edit = serviceDialog(page, m.editTitle);
  await expect(edit.getByLabel(m.priceLabel)).toHaveValue('250,00');
  await fillService(page, m.editTitle, { name: 'Consulta cardiológica', category: 'Consulta', price: '300,00', discount: '50' });
  await expectToast(page, 'Serviço salvo com sucesso!');
  await expect(row).toContainText('R$ 300,00');
  await expect(row).toContainText(formatMessage(m.ownDiscount, { percent: 50 }));
  await expect(row).toContainText(`${clinic.plan.name}: R$ 150,00`);

  // Its price history: the first price closed today, the new one open ('hoje'), full and card prices.
  await row.getByRole('button', { name: `${m.history}: Consulta cardiológica` }).click();
  const history = page.getByRole('dialog', { name: formatMessage(m.historyTitle, { name: 'Consulta cardiológica' }) });
  const stretches = history.getByRole('table', { name: m.history });
  await expect(stretches.getByRole('row').filter({ hasText: 'R$ 175,00' })).toHaveCount(1);
  await expect(stretches.getByRole('row').filter({ hasText: 'R$ 150,00' }).filter({ hasText: m.historyCurrent })).toHaveCount(1);
  await expect(stretches.getByRole('row').filter({ hasText: m.fullPriceRow }).filter({ hasText: 'R$ 300,00' })).toHaveCount(1);
  await page.keyboard.press('Escape');

  // A second service, never used: 'Excluir' deletes it.
  await page.getByRole('button', { name: m.add }).click();
  await fillService(page, m.newTitle, { name: 'Hemograma', category: 'Exame', price: '80' });
  await expectToast(page, 'Serviço salvo com sucesso!');
  await table.getByRole('button', { name: `${m.delete}: Hemograma` }).click();
  const confirm = page.getByRole('alertdialog', { name: formatMessage(m.deleteTitle, { name: 'Hemograma' }) });
  await confirm.getByRole('button', { name: m.delete }).click();
  await expectToast(page, m.deleted);
  await expect(table.getByRole('row').filter({ hasText: 'Hemograma' })).toHaveCount(0);

  // The clinic's site: a plain link on its landing page leads to the table, which anyone may read.
  const site = clinicOrigin(baseURL, clinic.slug);
  await page.context().clearCookies();
  await page.goto(`${site}/`);
  await page.getByRole('link', { name: p.title }).click();
  await expect(page).toHaveURL(`${site}/precos`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.title);
  const today = saoPauloDay(0);
  await expect(page.getByTestId('price-table-date')).toHaveText(formatMessage(p.asOf, { date: today.shown }));
  const prices = page.getByRole('table', { name: formatMessage(p.caption, { clinic: clinic.name }) });
  await expect(prices.getByRole('columnheader', { name: formatMessage(p.cardPrice, { plan: clinic.plan.name }) })).toBeVisible();
  const priced = prices.getByRole('row').filter({ hasText: 'Consulta cardiológica' });
  await expect(priced).toContainText('R$ 300,00');
  await expect(priced).toContainText('R$ 150,00');
  await expect(prices.getByRole('row').filter({ hasText: 'Hemograma' })).toHaveCount(0);

  // A past day: the table as it was then — this clinic had no prices yesterday. The address keeps the day.
  const yesterday = saoPauloDay(1);
  await page.getByLabel(p.dateLabel, { exact: true }).fill(yesterday.iso);
  await page.getByRole('button', { name: p.showDate }).click();
  await expect(page).toHaveURL(`${site}/precos?data=${yesterday.iso}`);
  await expect(page.getByTestId('price-table-date')).toHaveText(formatMessage(p.asOf, { date: yesterday.shown }));
  await expect(page.getByText(p.emptyOnDate)).toBeVisible();
  // Not a day to come: the table says what was charged.
  await page.getByLabel(p.dateLabel, { exact: true }).fill(saoPauloDay(-2).iso);
  await page.getByRole('button', { name: p.showDate }).click();
  await expect(page.getByRole('alert')).toHaveText(p.dateFuture);
  await page.getByRole('button', { name: p.today }).click();
  await expect(page).toHaveURL(`${site}/precos`);
  await expect(priced).toContainText('R$ 150,00');
});

test('a service a visit used is archived, not deleted, and can be put back (Clínica Demo)', async ({ page, baseURL, signInAs, visit }) => {
  await signInAs('clinicAdmin');
  const name = `Ultrassom ${Date.now().toString(36)}`;
  const created = await page.request.post('/api/clinic/services', { data: { name, category: 'exame', priceCents: 18_000, discountPercent: null } });
  expect(created.status(), await created.text()).toBe(201);
  const service = serviceSchema.parse(await created.json());
  // The demo patient's card gets a visit of it.
  const patient = await demoAccountRequest('patient', baseURL);
  try {
    const [card] = patientCardListSchema.parse(await (await patient.get('/api/patient/cards')).json()).items;
    if (!card) throw new Error('the demo patient has no card');
    const recorded = await page.request.post('/api/clinic/visits', { data: { cardId: card.id, serviceId: service.id, status: 'concluido' } });
    expect(recorded.status(), await recorded.text()).toBe(201);
  } finally {
    await patient.dispose();
  }

  await visit('/clinica/servicos');
  const row = page.getByRole('table', { name: m.caption }).getByRole('row').filter({ hasText: name });
  await row.getByRole('button', { name: `${m.delete}: ${name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: m.delete }).click();
  await expectToast(page, m.archivedToast);
  await expect(row).toContainText(m.archived);
  await expect(row.getByRole('button', { name: `${m.edit}: ${name}` })).toHaveCount(0);

  await row.getByRole('button', { name: `${m.restore}: ${name}` }).click();
  await expectToast(page, m.restored);
  await expect(row).toContainText(m.active);
  await expect(row.getByRole('button', { name: `${m.edit}: ${name}` })).toBeVisible();
  await expect(row).toContainText(formatMoney(18_000));
});

test('on a phone each service is a card with every value and action in view', async ({ page, baseURL, visit }) => {
  const clinic = await approvedClinicOfNewOwner(page, baseURL);
  const created = await page.request.post('/api/clinic/services', { data: { name: 'Limpeza de pele', category: 'procedimento', priceCents: 15_000, discountPercent: 10 } });
  expect(created.status()).toBe(201);
  await page.setViewportSize(PHONE);
  await visit('/clinica/servicos');
  const list = page.getByRole('list', { name: m.caption });
  const card = list.getByRole('listitem').filter({ hasText: 'Limpeza de pele' });
  await expectCardShows(card, [
    [m.columns.category, 'Procedimento'],
    [m.columns.price, 'R$ 150,00'],
    [m.columns.discount, formatMessage(m.ownDiscount, { percent: 10 })],
    [m.columns.cardPrice, `${clinic.plan.name}: R$ 135,00`],
    [m.columns.status, m.active],
  ]);
  for (const action of [m.edit, m.history, m.delete]) await expect(card.getByRole('button', { name: `${action}: Limpeza de pele` })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});
