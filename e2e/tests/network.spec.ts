import type { Page } from '@playwright/test';
import { DEMO_CLINIC_SLUG } from '@carteirinha/shared/constants';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { expect, test } from '../fixtures';
import { clinicOrigin, expectToast } from '../tenancy';

/*
 * Rede Credenciada (issues 26 and 27). Clínica Demo's admin adds places by a click on the map and by typed coordinates;
 * the receptionist is refused; the demo patient searches the network and, located on Avenida Paulista, gets the
 * nearest place first with its km. The map's tiles come from the run's local stand-in (e2e/map-tiles.ts).
 *
 * The places this file adds are in Campinas, far from the demo network, and named so the patient's searches below
 * never match them: the two tests may run at once.
 */

const m = messages.network;
const PHONE = { width: 390, height: 844 };
/** Avenida Paulista, where Clínica Demo's own unit is (the demo seed). */
const PAULISTA = { latitude: -23.5614, longitude: -46.6559 };

function placeDialog(page: Page, title: string) {
  return page.getByRole('dialog', { name: title });
}

async function fillPlace(page: Page, title: string, fields: { name: string; category: string; address: string; services: string }) {
  const dialog = placeDialog(page, title);
  await dialog.getByLabel(m.nameLabel, { exact: true }).fill(fields.name);
  await dialog.getByLabel(m.categoryLabel).selectOption({ label: fields.category });
  await dialog.getByLabel(m.addressLabel).fill(fields.address);
  await dialog.getByLabel(m.servicesLabel).fill(fields.services);
}

test('the clinic admin adds a place by clicking the map and one by typed coordinates, within the partner limit', async ({ page, signInAs, visit }) => {
  test.setTimeout(90_000);
  await signInAs('clinicAdmin');
  await visit('/clinica/rede');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(m.title);
  const table = page.getByRole('table', { name: m.caption });
  await expect(table).toContainText('Laboratório Análises Consolação');
  // Clínica Demo is on Professional (5 partners); its seed has two partner clinics and a laboratory.
  await expect(page.getByTestId('partner-limit')).toContainText(formatMessage(m.partnerLimit, { used: 3, max: 5 }));

  // By a click on the map: the pin goes there and the coordinates fill in.
  await page.getByRole('button', { name: m.add }).click();
  const create = placeDialog(page, m.newTitle);
  await fillPlace(page, m.newTitle, { name: 'Unidade Campinas Centro', category: m.categories.unidade_propria, address: 'Rua Barão de Jaguara, 1000 - Centro, Campinas - SP', services: 'Consultas\nVacinas' });
  const map = create.getByRole('region', { name: m.mapLabel });
  // The tiles come from the configured tile server, which the CSP lets through.
  await expect(map.locator('.leaflet-tile-loaded').first()).toBeVisible();
  await expect(map).toContainText('Mapa de teste');
  await map.click({ position: { x: 120, y: 90 } });
  await expect(create.getByLabel(m.latitudeLabel)).toHaveValue(/^-23,\d+$/);
  await expect(create.getByLabel(m.longitudeLabel)).toHaveValue(/^-46,\d+$/);
  await expect(map.getByRole('button', { name: m.pinTitle })).toBeVisible();
  await create.getByRole('button', { name: 'Salvar' }).click();
  await expectToast(page, m.saved);
  await expect(create).toBeHidden();
  const clicked = table.getByRole('row').filter({ hasText: 'Unidade Campinas Centro' });
  await expect(clicked).toContainText(m.categories.unidade_propria);
  await expect(clicked).toContainText('Consultas, Vacinas');

  // By typed coordinates: a latitude out of range is refused on its field, then the right one is saved.
  await page.getByRole('button', { name: m.add }).click();
  await fillPlace(page, m.newTitle, { name: 'Clínica Parceira Cambuí', category: m.categories.clinica_parceira, address: 'Rua Coronel Quirino, 1200 - Cambuí, Campinas - SP', services: 'Cardiologia' });
  await create.getByLabel(m.latitudeLabel).fill('-95');
  await create.getByLabel(m.longitudeLabel).fill('-47,0608');
  await create.getByRole('button', { name: 'Salvar' }).click();
  await expect(create.getByText(m.latitudeInvalid)).toBeVisible();
  await create.getByLabel(m.latitudeLabel).fill('-22,8936');
  await expect(create.getByRole('region', { name: m.mapLabel }).getByRole('button', { name: m.pinTitle })).toBeVisible();
  await create.getByRole('button', { name: 'Salvar' }).click();
  await expectToast(page, m.saved);
  await expect(create).toBeHidden();
  await expect(table.getByRole('row').filter({ hasText: 'Clínica Parceira Cambuí' })).toContainText(m.categories.clinica_parceira);
  await expect(page.getByTestId('partner-limit')).toContainText(formatMessage(m.partnerLimit, { used: 4, max: 5 }));

  // Edited: the typed position comes back in the form.
  await page.getByRole('button', { name: `${m.edit}: Clínica Parceira Cambuí` }).click();
  const edit = placeDialog(page, m.editTitle);
  await expect(edit.getByLabel(m.latitudeLabel)).toHaveValue('-22,8936');
  await expect(edit.getByLabel(m.longitudeLabel)).toHaveValue('-47,0608');
  await edit.getByRole('button', { name: 'Cancelar' }).click();
  await expect(edit).toBeHidden();

  // On a phone, each place is a card with its values and actions; the own unit is deleted after a confirmation.
  await page.setViewportSize(PHONE);
  const card = page.getByRole('list', { name: m.caption }).getByRole('listitem').filter({ hasText: 'Unidade Campinas Centro' });
  await expect(card).toContainText('Rua Barão de Jaguara, 1000 - Centro, Campinas - SP');
  await card.getByRole('button', { name: `${m.delete}: Unidade Campinas Centro` }).click();
  const confirm = page.getByRole('alertdialog', { name: formatMessage(m.deleteTitle, { name: 'Unidade Campinas Centro' }) });
  await confirm.getByRole('button', { name: m.delete }).click();
  await expectToast(page, m.deleted);
  await expect(card).toHaveCount(0);
});

test('the receptionist has no Rede Credenciada to edit: no entry, Acesso restrito, and the server refuses', async ({ page, signInAs, visit }) => {
  await signInAs('clinicStaff');
  await visit('/clinica');
  await expect(page.getByRole('navigation', { name: 'Menu lateral' }).getByRole('link', { name: m.nav })).toHaveCount(0);
  await visit('/clinica/rede');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.accessDenied.title);
  expect((await page.request.get('/api/clinic/network')).status()).toBe(403);
  const body = { name: 'Local da recepção', category: 'laboratorio', address: 'Rua da Recepção, 1', latitude: -23.5, longitude: -46.6, lastConfirmedOn: '2026-01-01' };
  expect((await page.request.post('/api/clinic/network', { data: body })).status()).toBe(403);
});

test('the patient searches the network, and located on Avenida Paulista sees the nearest place first with its km', async ({ page, context, baseURL, signInAs, visit }) => {
  await signInAs('patient');
  await visit('/paciente/rede');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(m.title);
  const list = page.getByRole('list', { name: m.caption });
  for (const name of ['Clínica Demo - Unidade Paulista', 'Clínica Parceira Jardins', 'Laboratório Análises Consolação', 'Clínica Parceira Vila Mariana']) {
    await expect(list.getByRole('listitem', { name })).toBeVisible();
  }
  const map = page.getByRole('region', { name: m.mapTitle });
  await expect(map.getByRole('button', { name: 'Laboratório Análises Consolação' })).toBeVisible();

  // Searched on the server, ignoring accents: the list and the count narrow to the laboratory.
  await page.getByLabel(m.searchLabel).fill('consolacao');
  await expect(page.getByTestId('network-count')).toHaveText(formatMessage(m.found.one, { count: 1 }));
  await expect(list.getByRole('listitem')).toHaveCount(1);
  const lab = list.getByRole('listitem', { name: 'Laboratório Análises Consolação' });
  await expect(lab).toContainText(m.categories.laboratorio);
  await expect(lab).toContainText('Hemograma completo');
  await expect(lab).toContainText(/Dados confirmados em \d{2}\/\d{2}\/\d{4}/);
  await expect(lab.getByRole('link', { name: `${m.directions}: Laboratório Análises Consolação` })).toHaveAttribute('href', 'https://www.google.com/maps/dir/?api=1&destination=-23.5532,-46.6622');
  await expect(lab.getByRole('link', { name: `${m.directions}: Laboratório Análises Consolação` })).toHaveAttribute('target', '_blank');
  await expect(lab.getByRole('link', { name: `${m.priceTable}: Laboratório Análises Consolação` })).toHaveAttribute('href', `${clinicOrigin(baseURL, DEMO_CLINIC_SLUG)}/precos`);
  await expect(map.getByRole('button', { name: 'Clínica Parceira Jardins' })).toHaveCount(0);

  // 'Ativar Localização' with the position granted: the own unit on Avenida Paulista first, at 0,0 km.
  await page.getByLabel(m.searchLabel).fill('');
  await context.grantPermissions(['geolocation']);
  await context.setGeolocation(PAULISTA);
  await page.getByRole('button', { name: m.enableLocation }).click();
  await expect(page.getByText(m.locationOn)).toBeVisible();
  const first = list.getByRole('listitem').first();
  await expect(first).toHaveAccessibleName('Clínica Demo - Unidade Paulista');
  await expect(first.getByTestId('place-distance')).toHaveText('0,0 km');
  await expect(map.getByRole('button', { name: m.youAreHere })).toBeVisible();
  const distances = (await list.getByTestId('place-distance').allTextContents()).map((text) => Number(text.replace(' km', '').replace(',', '.')));
  expect(distances.length).toBeGreaterThanOrEqual(4);
  expect([...distances].sort((a, b) => a - b)).toEqual(distances);
  // Vila Mariana is the farthest of the demo places from Avenida Paulista (about 3,8 km).
  expect(distances[3]).toBeGreaterThan(3);
  expect(distances[3]).toBeLessThan(5);
});

test('the network page remembers the permission: with the position already allowed, it locates on open', async ({ page, context, signInAs, visit }) => {
  await context.grantPermissions(['geolocation']);
  await context.setGeolocation(PAULISTA);
  await signInAs('patient');
  await visit('/paciente/rede');
  // No click on 'Ativar Localização': the permission the patient gave before is enough (issue 29).
  await expect(page.getByText(m.locationOn)).toBeVisible();
  const list = page.getByRole('list', { name: m.caption });
  await expect(list.getByRole('listitem').first()).toHaveAccessibleName('Clínica Demo - Unidade Paulista');
});

test('the network page does not ask for the position on open when the patient has not allowed it', async ({ page, signInAs, visit }) => {
  await signInAs('patient');
  await visit('/paciente/rede');
  await expect(page.getByRole('button', { name: m.enableLocation })).toBeEnabled();
  await expect(page.getByText(m.locationOn)).toHaveCount(0);
});
