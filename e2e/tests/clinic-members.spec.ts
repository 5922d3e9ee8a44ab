import type { Page } from '@playwright/test';
import { messages } from '@carteirinha/shared/messages';
import { expect, expectCardShows, test } from '../fixtures';

/*
 * Issue 26, Pacientes: the clinic admin finds a member of the programme by name, CPF or card and opens everything the
 * clinic holds of them; on a phone each member is a card; the receptionist is refused by the sidebar, the address and
 * the server. Clínica Demo's patient (the demo seed: four months paid, twelve weeks of visits) is the member here.
 */

const m = messages.members;
const PHONE = { width: 390, height: 844 };
const DEMO_PATIENT = 'paciente@carteirinha.dev';

function membersTable(page: Page) {
  return page.getByRole('table', { name: m.title });
}

test('the clinic admin searches the members and opens one whole: subscription, cards, charges, visits, validations', async ({ page, signInAs, visit }) => {
  await signInAs('clinicAdmin');
  await visit('/clinica/pacientes');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(m.title);
  await expect(membersTable(page).getByRole('row').nth(1)).toBeVisible();

  // Other tests add patients to Clínica Demo (newest first, paged): the search finds the demo patient on any page.
  const searched = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/clinic/members' && new URL(r.url()).searchParams.get('q') === 'Paulo');
  await page.getByLabel(m.searchLabel).fill('Paulo');
  await searched;
  await expect(membersTable(page).getByRole('row').filter({ hasText: DEMO_PATIENT })).toContainText('Ativa');
  await page.getByLabel(m.searchLabel).fill('ninguém com este nome');
  await expect(page.getByText(m.emptySearch)).toBeVisible();
  await page.getByLabel(m.searchLabel).fill('');
  await page.getByLabel(m.statusFilter).selectOption({ label: m.noSubscription });
  await expect(membersTable(page).getByRole('row').filter({ hasText: DEMO_PATIENT })).toHaveCount(0);
  await page.getByLabel(m.statusFilter).selectOption({ label: m.allStatuses });
  await page.getByLabel(m.searchLabel).fill('Paulo Paciente');

  await membersTable(page).getByRole('row').filter({ hasText: DEMO_PATIENT }).getByRole('link', { name: new RegExp(`^${m.view}`) }).click();
  await expect(page).toHaveURL(/\/clinica\/pacientes\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paulo Paciente');
  for (const section of [m.contact, m.subscriptions, m.cards, m.dependents, m.charges, m.visits, m.validations]) {
    await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible();
  }
  // Four months paid, and the twelve weeks of visits and validations the demo seed wrote.
  await expect(page.getByRole('table', { name: m.charges }).getByRole('row').filter({ hasText: 'Pago' }).first()).toBeVisible();
  await expect(page.getByRole('table', { name: m.visits }).getByRole('row')).toHaveCount(21);
  await expect(page.getByRole('table', { name: m.validations }).getByRole('row').filter({ hasText: m.validationResults.valid }).first()).toBeVisible();
  // The money issue's CPF correction is at hand on the patient's page, already addressed to this patient.
  await expect(page.getByRole('form', { name: messages.cpfOwner.title }).getByLabel(messages.cpfOwner.emailLabel)).toHaveValue(DEMO_PATIENT);
  await page.getByRole('link', { name: m.back }).click();
  await expect(page).toHaveURL(/\/clinica\/pacientes$/);
});

test('on a phone each member is a card with every value and the detail link in view', async ({ page, signInAs, visit }) => {
  await signInAs('clinicAdmin');
  await page.setViewportSize(PHONE);
  await visit('/clinica/pacientes');
  // Other tests add patients to Clínica Demo (newest first): the search brings the demo patient to the top.
  const searched = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/clinic/members' && new URL(r.url()).searchParams.get('q') === DEMO_PATIENT);
  await page.getByLabel(m.searchLabel).fill(DEMO_PATIENT);
  await searched;
  const card = page.getByRole('list', { name: m.title }).getByRole('listitem').filter({ hasText: DEMO_PATIENT });
  await expectCardShows(card, [
    [m.columns.plan, 'Plano Família'],
    [m.columns.status, 'Ativa'],
    [m.columns.dependents, '1'],
  ]);
  // Every value and the link are on the card, reached by scrolling down, never sideways.
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByRole('link', { name: new RegExp(`^${m.view}`) })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test('the receptionist has no Pacientes: not in the sidebar, Acesso restrito by address, refused by the server', async ({ page, signInAs, visit }) => {
  await signInAs('clinicStaff');
  await visit('/clinica');
  await expect(page.getByRole('navigation', { name: 'Menu lateral' }).getByRole('link', { name: m.nav })).toHaveCount(0);
  await visit('/clinica/pacientes');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.accessDenied.title);
  expect((await page.request.get('/api/clinic/members')).status()).toBe(403);
});
