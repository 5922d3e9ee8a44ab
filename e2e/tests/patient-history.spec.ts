import type { Page } from '@playwright/test';
import type { CreateVisitRequest } from '@carteirinha/shared/contracts/visits';
import { formatDate, formatDateTime, formatMoney } from '@carteirinha/shared/format';
import { saoPauloDay, saoPauloInstant } from '@carteirinha/shared/sao-paulo-time';
import { demoAccountRequest, expect, test } from '../fixtures';
import { paidPatientOnDemo } from '../patient-api';
import { clinicOrigin } from '../tenancy';

/**
 * Início and Histórico on a patient of Clínica Demo made for the test (other specs add visits to the demo patient):
 * subscribed by Pix and paid, then two visits at the desk and one booked for tomorrow, all through the API the
 * checkout and the desk use. Every figure the pages show is known from those rows.
 */

const PLAN = 'Plano Individual';
const PHONE = { width: 390, height: 844 };
const DAY_MS = 24 * 60 * 60 * 1000;

type Member = { fullName: string; paidCents: number; consulta: string; exame: string; bookedAt: string };

/** A new patient of Clínica Demo, signed in in `page` on the clinic's host, with a paid subscription and visits. */
async function memberWithVisits(page: Page, baseURL: string | undefined): Promise<Member> {
  const { fullName, suffix, paidCents, card } = await paidPatientOnDemo(page, baseURL, 'Helena Histórico');
  const consulta = `Consulta histórico ${suffix}`;
  const exame = `Exame histórico ${suffix}`;
  const bookedAt = saoPauloInstant(saoPauloDay(new Date(Date.now() + DAY_MS)), '10:30');
  const desk = await demoAccountRequest('clinicStaff', baseURL);
  try {
    const visits: CreateVisitRequest[] = [
      { cardId: card.id, serviceName: consulta, category: 'consulta', priceCents: 20000, status: 'concluido' },
      { cardId: card.id, serviceName: exame, category: 'exame', priceCents: 8000, status: 'concluido' },
      { cardId: card.id, serviceName: 'Consulta de retorno', category: 'consulta', priceCents: 20000, status: 'aguardando', scheduledFor: bookedAt, professional: 'Dra. Helena Costa' },
    ];
    for (const visit of visits) expect((await desk.post('/api/clinic/visits', { data: visit })).status()).toBe(201);
  } finally {
    await desk.dispose();
  }
  return { fullName, paidCents, consulta, exame, bookedAt };
}

function figure(page: Page, title: string) {
  return page.getByRole('group', { name: title }).locator('[data-slot="stat-card-value"]');
}

test.describe('the patient portal on real data (issue 27)', () => {
  test('Início: the name, the plan, the next appointment, no dependents and the latest visits with their savings', async ({ page, baseURL }) => {
    const member = await memberWithVisits(page, baseURL);
    const demo = clinicOrigin(baseURL, 'demo');
    await page.goto(`${demo}/paciente`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Olá, ${member.fullName.split(' ')[0]}!`);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 2, name: PLAN })).toBeVisible();
    await expect(main.getByText('Ativa', { exact: true })).toBeVisible();

    const next = main.getByRole('region', { name: 'Próxima Consulta' });
    await expect(next).toContainText(formatDateTime(member.bookedAt));
    await expect(next).toContainText('Consulta de retorno');
    await expect(next).toContainText('com Dra. Helena Costa');
    await expect(main.getByRole('region', { name: 'Dependentes' }).getByTestId('dependents-count')).toHaveText('0');
    const network = main.getByRole('region', { name: 'Rede Credenciada' });
    await expect(network.getByRole('link', { name: 'Ver rede' })).toBeVisible();
    // The demo's places and any another test added meanwhile: a count of them, never none.
    await expect(network.getByTestId('network-count')).toHaveText(/^\d+ locais credenciados$/);

    // Newest first: the exam (R$ 80,00 at 25 %) was recorded after the consultation (R$ 200,00 at 30 %).
    const latest = main.getByRole('region', { name: 'Últimos Atendimentos' }).getByRole('listitem');
    await expect(latest).toHaveCount(2);
    await expect(latest.nth(0)).toContainText(member.exame);
    await expect(latest.nth(0)).toContainText(`Clínica Demo · ${formatDate(new Date())}`);
    await expect(latest.nth(0)).toContainText('Economizou R$ 20,00');
    await expect(latest.nth(1)).toContainText(member.consulta);
    await expect(latest.nth(1)).toContainText('Economizou R$ 60,00');
  });

  test('Histórico: the tiles and rows of the visits, what the plan cost, a period that narrows, and cards on a phone', async ({ page, baseURL }) => {
    const member = await memberWithVisits(page, baseURL);
    const demo = clinicOrigin(baseURL, 'demo');
    await page.goto(`${demo}/paciente/historico`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Histórico');
    // R$ 60,00 + R$ 20,00 saved of R$ 280,00: 28.6 % → 29 %.
    await expect(figure(page, 'Total Economizado')).toHaveText('R$ 80,00');
    await expect(figure(page, 'Atendimentos')).toHaveText('2');
    await expect(figure(page, 'Economia Média')).toHaveText('29%');
    await expect(page.getByTestId('saved-and-paid')).toContainText(`No período, você economizou R$ 80,00 e pagou ${formatMoney(member.paidCents)} pelo plano.`);
    await expect(page.getByRole('region', { name: 'Economia por mês' })).toBeVisible();

    const table = page.getByRole('table', { name: 'Seus atendimentos no período' });
    const rows = table.getByRole('row');
    await expect(rows).toHaveCount(3);
    const today = formatDate(new Date());
    await expect(rows.nth(1).getByRole('cell')).toHaveText([today, 'Clínica Demo', member.exame, 'R$ 80,00', '25%', 'R$ 60,00', 'R$ 20,00']);
    await expect(rows.nth(2).getByRole('cell')).toHaveText([today, 'Clínica Demo', member.consulta, 'R$ 200,00', '30%', 'R$ 140,00', 'R$ 60,00']);

    // Last month had nothing: the period narrows the list and the figures on the server.
    const period = page.getByLabel('Período');
    await period.selectOption({ label: 'Este mês' });
    await expect(page).toHaveURL(/periodo=thisMonth/);
    await expect(figure(page, 'Total Economizado')).toHaveText('R$ 80,00');
    await period.selectOption({ label: 'Mês passado' });
    await expect(figure(page, 'Total Economizado')).toHaveText('R$ 0,00');
    await expect(figure(page, 'Atendimentos')).toHaveText('0');
    await expect(table).toContainText('Nenhum atendimento no período.');
    await expect(page.getByTestId('saved-and-paid')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Economia por mês' })).toHaveCount(0);

    // On a phone: a card per visit with every value, and nothing to scroll sideways.
    await page.setViewportSize(PHONE);
    await period.selectOption({ label: 'Todo o período' });
    const cards = page.getByRole('list', { name: 'Seus atendimentos no período' }).getByRole('listitem');
    await expect(cards).toHaveCount(2);
    for (const value of [today, 'Clínica Demo', member.consulta, 'R$ 200,00', '30%', 'R$ 140,00', 'R$ 60,00']) await expect(cards.nth(1)).toContainText(value);
    for (const label of ['Local', 'Serviço', 'Valor Original', 'Desconto', 'Valor Pago', 'Economia']) await expect(cards.nth(1).getByText(label, { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  });
});
