import { generateCpf } from '@brazilian-utils/brazilian-utils';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { approvedClinicWithPlanUnreviewed, saveStarterPlan } from '../clinic-owner';
import { expect, expectAccessible, test } from '../fixtures';

/*
 * Issue 26, 'Importar CSV': the clinic admin sends a company's spreadsheet with good and bad lines; the preview names
 * each bad line's problem and nothing is written; 'Confirmar importação' writes the good lines, which Pacientes then
 * lists. The receptionist has no import: no button, Acesso restrito by address, refused by the server. Without a plan to
 * put the patients on — the plans did not load, or none is on sale — the form says why and cannot be sent.
 */

const t = messages.memberImport;
const m = messages.members;

test('an import with good and bad lines shows the errors, writes nothing until confirmed, then lists the good lines', async ({ page, signInAs, visit }) => {
  await signInAs('clinicAdmin');
  await visit('/clinica/pacientes');
  // The clinic's plans are held back at first: until they come, the form has no plan and cannot be sent.
  let releasePlans = () => {};
  const plansHeld = new Promise<void>((resolve) => (releasePlans = resolve));
  await page.route('**/api/clinic/subscription-plans', async (route) => {
    await plansHeld;
    await route.continue();
  });
  await page.getByRole('link', { name: t.open }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.title);
  await expect(page.getByRole('button', { name: messages.common.loading })).toBeDisabled();
  await expect(page.getByLabel(t.plan)).toBeDisabled();
  releasePlans();
  await expect(page.getByRole('button', { name: t.preview })).toBeEnabled();

  const stamp = Date.now();
  const good = [
    { name: `Ana Importada ${stamp}`, email: `ana.${stamp}@horizonte.test` },
    { name: `Bruno Importado ${stamp}`, email: `bruno.${stamp}@horizonte.test` },
  ];
  const csv = [
    'nome;CPF;e-mail;data de nascimento;telefone',
    `${good[0]?.name};${generateCpf()};${good[0]?.email};15/03/1990;11988887777`,
    `${good[1]?.name};${generateCpf()};${good[1]?.email};;`,
    `Carla Errada ${stamp};123.456.789-00;carla.${stamp}@horizonte.test;;`,
    `Diego Repetido ${stamp};${generateCpf()};${good[1]?.email};;`,
  ].join('\r\n');

  await page.getByLabel(t.companyName).fill('Construtora Horizonte Ltda');
  await page.getByLabel(t.cnpj).fill('11222333000181');
  await page.getByLabel(t.file).setInputFiles({ name: 'funcionarios.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await page.getByRole('button', { name: t.preview }).click();

  const preview = page.getByRole('list', { name: t.previewTitle });
  await expect(page.getByText(formatMessage(t.previewSummary, { total: 4, valid: 2, invalid: 2 }))).toBeVisible();
  await expect(preview.getByRole('listitem').filter({ hasText: `Carla Errada ${stamp}` })).toContainText(messages.validation.invalidCpf);
  await expect(preview.getByRole('listitem').filter({ hasText: `Diego Repetido ${stamp}` })).toContainText(formatMessage(t.duplicateEmailInFile, { line: 3 }));

  // Nothing was written by the preview: the search (by e-mail) finds nobody of the file yet.
  const term = `${stamp}@horizonte.test`;
  const before = await page.request.get(`/api/clinic/members?q=${encodeURIComponent(term)}`);
  expect((await before.json()).total).toBe(0);

  await page.getByRole('button', { name: t.confirm }).click();
  await expect(page).toHaveURL(/\/clinica\/pacientes$/);
  await page.getByLabel(m.searchLabel).fill(term);
  const table = page.getByRole('table', { name: m.title });
  for (const person of good) await expect(table.getByRole('row').filter({ hasText: person.email })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: `Carla Errada ${stamp}` })).toHaveCount(0);
  await expect(table.getByRole('row').filter({ hasText: `Diego Repetido ${stamp}` })).toHaveCount(0);
});

test('plans that did not load are named, with Tentar novamente, and the import waits for them', async ({ page, signInAs, visit }) => {
  await signInAs('clinicAdmin');
  // The connection drops for the plans' request (and its one retry), then comes back.
  await page.route('**/api/clinic/subscription-plans', (route) => route.abort('internetdisconnected'));
  await visit('/clinica/pacientes/importar');
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toBeVisible();
  await expect(page.getByRole('button', { name: t.preview })).toBeDisabled();
  await expect(page.getByLabel(t.plan)).toBeDisabled();

  await page.unroute('**/api/clinic/subscription-plans');
  await page.getByRole('button', { name: messages.common.retry }).click();
  await expect(page.getByLabel(t.plan)).toBeEnabled();
  await expect(page.getByLabel(t.plan).getByRole('option', { name: 'Plano Individual' })).toHaveCount(1);
  await expect(page.getByRole('button', { name: t.preview })).toBeEnabled();
  await expect(page.getByRole('button', { name: messages.common.retry })).toHaveCount(0);
});

test('a new clinic with no plan on sale yet is sent to Planos, and can import once its plan is reviewed', async ({ page, baseURL, visit }) => {
  await approvedClinicWithPlanUnreviewed(page, baseURL);
  await visit('/clinica/pacientes/importar');
  await expect(page.getByRole('alert').filter({ hasText: t.noPlanOnSale })).toBeVisible();
  await expect(page.getByRole('button', { name: t.preview })).toBeDisabled();
  await expect(page.getByLabel(t.plan)).toBeDisabled();
  await expectAccessible(page);
  await page.getByRole('link', { name: t.goToPlans }).click();
  await expect(page).toHaveURL(/\/clinica\/planos$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.clinicPlans.title);

  const plan = await saveStarterPlan(page);
  await visit('/clinica/pacientes/importar');
  await expect(page.getByLabel(t.plan)).toHaveValue(plan.id);
  await expect(page.getByRole('button', { name: t.preview })).toBeEnabled();
  await expect(page.getByText(t.noPlanOnSale)).toHaveCount(0);
});

test('the receptionist has no import: no button, Acesso restrito by address, refused by the server', async ({ page, signInAs, visit }) => {
  await signInAs('clinicStaff');
  await visit('/clinica/pacientes/importar');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.accessDenied.title);
  await expect(page.getByRole('link', { name: t.open })).toHaveCount(0);
  const refused = await page.request.post('/api/clinic/member-imports/preview', { data: {}, headers: { origin: new URL(page.url()).origin } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe('FORBIDDEN');
});
