import type { Browser, Page } from '@playwright/test';
import { cardsOnceIssued } from '../patient-api';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { approvedClinicOfNewOwner, type OwnedClinic } from '../clinic-owner';
import { expect, expectCardShows, test } from '../fixtures';
import { E2E_PORT } from '../ports';
import { TEST_PASSWORD, clinicOrigin, expectToast, latestEmailTo, uniqueEmail, validCpf } from '../tenancy';

/*
 * Issue 25, Equipe and who sees what: a clinic_admin invites, changes and removes the team; the last administrator
 * cannot lock the clinic out; a receptionist sees neither Serviços nor Equipe. And the end-to-end line: a new
 * owner invites a receptionist, who accepts on the clinic's own host and validates a patient's card.
 */

const t = messages.team;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const OWNER_NAME = 'Dona Nova';

function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Menu lateral' });
}

function teamRow(page: Page, text: string) {
  return page.getByRole('table', { name: t.caption }).getByRole('row').filter({ hasText: text });
}

/** 'Convidar' filled and sent; the dialog closes on success. */
async function invite(page: Page, email: string, role: 'Admin de Clínica' | 'Atendente') {
  await page.getByRole('button', { name: t.invite, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t.inviteTitle });
  await dialog.getByLabel(t.emailLabel).fill(email);
  await dialog.getByRole('radio', { name: role }).check();
  await dialog.getByRole('button', { name: t.send }).click();
  return dialog;
}

/** The receptionist opens the invitation e-mail's link (on the clinic's own host) and creates a password. */
async function acceptInvitation(browser: Browser, clinic: OwnedClinic, link: URL): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto(link.href);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Aceitar convite');
  await expect(page.getByTestId('invitation-welcome')).toHaveText(`Boas-vindas à equipe da ${clinic.name}! Você foi convidado como Atendente.`);
  const form = page.getByRole('form', { name: 'Criar senha' });
  await form.getByLabel('Senha', { exact: true }).fill(TEST_PASSWORD);
  await form.getByLabel('Confirmar senha').fill(TEST_PASSWORD);
  await form.getByRole('button', { name: 'Criar senha' }).click();
  await expect(page).toHaveURL(`${clinicOrigin(link.origin, clinic.slug)}/clinica`);
  return page;
}

/** A patient signs up on the clinic's site, subscribes to its plan by Pix and pays; answers the card's number. */
async function patientWithCard(browser: Browser, clinic: OwnedClinic, site: string): Promise<string> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  try {
    await page.goto(`${site}/auth?tab=cadastrar`);
    const signUp = page.getByRole('tabpanel', { name: 'Cadastrar' });
    await signUp.getByLabel('Nome Completo').fill('Paciente da Equipe');
    await signUp.getByLabel('Email').fill(uniqueEmail());
    await signUp.getByLabel('Senha').fill(TEST_PASSWORD);
    await signUp.getByRole('button', { name: 'Cadastrar' }).click();
    await expect(page).toHaveURL(`${site}/paciente`);
    await page.goto(`${site}/paciente/assinatura`);
    await page.getByRole('article', { name: clinic.plan.name, exact: true }).getByRole('button', { name: 'Assinar Agora' }).click();
    const checkout = page.getByRole('dialog', { name: `Assinar ${clinic.plan.name}` });
    await checkout.getByLabel('CPF ou CNPJ').fill(validCpf());
    await checkout.getByRole('radio', { name: /PIX/ }).check();
    await checkout.getByText('Ler os termos de adesão').click();
    await checkout.getByRole('checkbox', { name: /Li e aceito os termos de adesão/ }).click();
    await checkout.getByRole('button', { name: 'Confirmar Assinatura' }).click();
    const payment = page.getByRole('dialog', { name: 'Pagamento gerado' });
    await payment.getByRole('button', { name: 'Simular pagamento' }).click();
    await expectToast(page, 'Pagamento confirmado!');
    await expect(page.getByTestId('subscription-status')).toHaveText('Ativa');
    // Read from the page: only the browser resolves `*.localhost`.
    const [card] = await cardsOnceIssued(page);
    if (!card) throw new Error('the paid subscription has no card');
    return card.number;
  } finally {
    await context.close();
  }
}

test('a new owner invites a receptionist, who accepts on the clinic host and validates a card; then changes and removes her', async ({ page, browser, baseURL, visit }) => {
  test.setTimeout(180_000);
  const clinic = await approvedClinicOfNewOwner(page, baseURL);
  const site = clinicOrigin(baseURL, clinic.slug);
  // A service with its own discount (50 %), which the visit then uses instead of the plan's 30 %.
  const service = await page.request.post('/api/clinic/services', { data: { name: 'Consulta de retorno', category: 'consulta', priceCents: 20_000, discountPercent: 50 } });
  expect(service.status()).toBe(201);

  await visit('/clinica');
  await sidebar(page).getByRole('link', { name: t.nav }).click();
  await expect(page).toHaveURL(/\/clinica\/equipe$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.title);
  const owner = teamRow(page, clinic.ownerEmail);
  await expect(owner).toContainText(`${OWNER_NAME} ${t.you}`);
  await expect(owner).toContainText('Admin de Clínica');
  await expect(owner).toContainText(t.statusActive);

  // The only administrator can neither demote nor remove herself: the server says why, in the dialog.
  await owner.getByRole('button', { name: `${t.changeRole}: ${OWNER_NAME}` }).click();
  const roleDialog = page.getByRole('dialog', { name: formatMessage(t.changeRoleTitle, { name: OWNER_NAME }) });
  await roleDialog.getByRole('radio', { name: 'Atendente' }).check();
  await roleDialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(roleDialog.getByRole('alert')).toHaveText(formatMessage(t.roleChangeError, { message: t.lastAdmin }));
  await roleDialog.getByRole('button', { name: 'Cancelar' }).click();
  await owner.getByRole('button', { name: `${t.remove}: ${OWNER_NAME}` }).click();
  const removeOwner = page.getByRole('alertdialog', { name: formatMessage(t.removeTitle, { name: OWNER_NAME }) });
  await removeOwner.getByRole('button', { name: t.remove }).click();
  await expect(removeOwner.getByRole('alert')).toHaveText(formatMessage(t.removeError, { message: t.lastAdmin }));
  await removeOwner.getByRole('button', { name: 'Cancelar' }).click();
  await expect(owner).toContainText('Admin de Clínica');

  // Bad input is refused before anything is sent; then the receptionist is invited.
  const badInvite = await invite(page, 'nao-e-um-email', 'Atendente');
  await expect(badInvite.getByText(messages.validation.invalidEmail)).toBeVisible();
  await badInvite.getByRole('button', { name: 'Cancelar' }).click();
  const receptionist = uniqueEmail();
  await invite(page, receptionist, 'Atendente');
  await expectToast(page, formatMessage(t.invited, { email: receptionist }));
  const invited = teamRow(page, receptionist);
  await expect(invited).toContainText('Atendente');
  await expect(invited).toContainText(t.statusInvited);

  // A second invitation, resent and then cancelled.
  const other = uniqueEmail();
  await invite(page, other, 'Admin de Clínica');
  await expectToast(page, formatMessage(t.invited, { email: other }));
  await teamRow(page, other).getByRole('button', { name: `${t.resend}: ${other}` }).click();
  await expectToast(page, t.resent);
  await teamRow(page, other).getByRole('button', { name: `${t.cancelInvitation}: ${other}` }).click();
  await page.getByRole('alertdialog', { name: formatMessage(t.cancelInvitationTitle, { email: other }) }).getByRole('button', { name: t.cancelInvitation }).click();
  await expectToast(page, t.invitationCanceled);
  await expect(teamRow(page, other)).toHaveCount(0);

  // The e-mail carries the clinic's name, and its link the clinic's own host.
  const mail = await latestEmailTo(baseURL, receptionist, formatMessage(messages.adminUsers.inviteSubjectClinic, { clinic: clinic.name }));
  const link = new URL(/https?:\/\/\S+/.exec(mail.text)?.[0] ?? '');
  expect(link.host).toBe(`${clinic.slug}.localhost:${E2E_PORT}`);
  const desk = await acceptInvitation(browser, clinic, link);
  try {
    // The receptionist's sidebar: the desk's pages only.
    await expect(sidebar(desk).getByRole('link', { name: 'Validar Cartão' })).toBeVisible();
    await expect(sidebar(desk).getByRole('link', { name: messages.services.title })).toHaveCount(0);
    await expect(sidebar(desk).getByRole('link', { name: t.nav })).toHaveCount(0);

    // A patient subscribes on the clinic's site; the receptionist validates the card and records a visit.
    const cardNumber = await patientWithCard(browser, clinic, site);
    await desk.goto(`${site}/clinica/validar`);
    const input = desk.getByLabel('Número do cartão ou CPF');
    await input.fill(cardNumber);
    await input.press('Enter');
    const result = desk.getByTestId('validation-result');
    await expect(result).toContainText('Autorizado a aplicar desconto');
    await result.getByRole('button', { name: 'Registrar Atendimento' }).click();
    const visitDialog = desk.getByRole('dialog', { name: 'Registrar Atendimento' });
    await visitDialog.getByLabel('Serviço').selectOption({ label: 'Consulta de retorno — Consulta — R$ 200,00' });
    // The service's own discount, as the server will charge it.
    await expect(visitDialog.getByTestId('visit-preview')).toContainText('50%');
    await expect(visitDialog.getByTestId('visit-preview')).toContainText('R$ 100,00');
    await visitDialog.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(desk, 'Atendimento registrado com sucesso!');

    // Back in Equipe: she is active; made an administrator, then her access is removed and her session ends at once.
    await page.reload();
    await expect(invited).toContainText(t.statusActive);
    await invited.getByRole('button', { name: new RegExp(`^${t.changeRole}: `) }).click();
    const promote = page.getByRole('dialog', { name: /^Alterar função de / });
    await promote.getByRole('radio', { name: 'Admin de Clínica' }).check();
    await promote.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, t.roleChanged);
    await expect(invited).toContainText('Admin de Clínica');
    await invited.getByRole('button', { name: new RegExp(`^${t.remove}: `) }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: t.remove }).click();
    await expectToast(page, t.removed);
    await expect(invited).toHaveCount(0);
    await desk.goto(`${site}/clinica/validar`);
    await expect(desk).toHaveURL(/\/auth(\?|$)/);
  } finally {
    await desk.context().close();
  }
});

test('a receptionist sees neither Serviços nor Equipe, and their addresses say Acesso restrito', async ({ page, signInAs, visit }) => {
  await signInAs('clinicStaff');
  await visit('/clinica');
  await expect(sidebar(page).getByRole('link', { name: 'Atendimentos' })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: messages.services.title })).toHaveCount(0);
  await expect(sidebar(page).getByRole('link', { name: t.nav })).toHaveCount(0);
  for (const path of ['/clinica/servicos', '/clinica/equipe']) {
    await visit(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.accessDenied.title);
    await expect(page.getByText(messages.accessDenied.text)).toBeVisible();
  }
  // The server refuses them too.
  expect((await page.request.get('/api/clinic/team')).status()).toBe(403);
  expect((await page.request.post('/api/clinic/services', { data: { name: 'Serviço da recepção', category: 'exame', priceCents: 100, discountPercent: null } })).status()).toBe(403);
});

test('on a phone each person of the team is a card with every value and action in view', async ({ page, baseURL, visit }) => {
  const clinic = await approvedClinicOfNewOwner(page, baseURL);
  const invitee = uniqueEmail();
  expect((await page.request.post('/api/clinic/team', { data: { email: invitee, role: 'clinic_staff' } })).status()).toBe(201);
  await page.setViewportSize(PHONE);
  await visit('/clinica/equipe');
  const list = page.getByRole('list', { name: t.caption });
  const owner = list.getByRole('listitem').filter({ hasText: clinic.ownerEmail });
  await expectCardShows(owner, [
    [t.columns.email, clinic.ownerEmail],
    [t.columns.role, 'Admin de Clínica'],
    [t.columns.status, t.statusActive],
    [t.columns.lastSignIn, ''],
  ]);
  for (const action of [t.changeRole, t.remove]) await expect(owner.getByRole('button', { name: `${action}: ${OWNER_NAME}` })).toBeInViewport({ ratio: 1 });
  const pending = list.getByRole('listitem').filter({ hasText: invitee });
  await expectCardShows(pending, [
    [t.columns.role, 'Atendente'],
    [t.columns.status, t.statusInvited],
  ]);
  await pending.scrollIntoViewIfNeeded();
  for (const action of [t.resend, t.cancelInvitation]) await expect(pending.getByRole('button', { name: `${action}: ${invitee}` })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  // 'Convidar' is at hand on the phone too.
  await expect(page.getByRole('button', { name: t.invite, exact: true })).toBeVisible();
});
