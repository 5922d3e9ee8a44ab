import { mySubscriptionResponseSchema } from '@carteirinha/shared/contracts/subscriptions';
import { formatDate } from '@carteirinha/shared/format';
import { expect, test } from '../fixtures';

test.describe('/paciente (Início)', () => {
  test('shows the active plan, its validity and its discounts', async ({ page, signInAs, visit }) => {
    await signInAs('patient');
    await visit('/paciente');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Olá, Paulo!');

    // The demo subscription is paid through one month after seeding: read the exact instant from the API the page reads.
    const response = await page.request.get('/api/patient/subscription');
    expect(response.status()).toBe(200);
    const { subscription } = mySubscriptionResponseSchema.parse(await response.json());
    expect(subscription?.expiresAt).toBeTruthy();
    const expiresAt = subscription!.expiresAt!;
    const daysLeft = (new Date(expiresAt).getTime() - Date.now()) / (24 * 60 * 60 * 1000);
    expect(daysLeft).toBeGreaterThan(27);
    expect(daysLeft).toBeLessThanOrEqual(31);

    const main = page.getByRole('main');
    // The demo patient is on Plano Família, with one dependent (seed.ts).
    await expect(main.getByRole('heading', { level: 2, name: 'Plano Família' })).toBeVisible();
    await expect(main.getByText('Ativa', { exact: true })).toBeVisible();
    await expect(main.getByText(`Válido até ${formatDate(expiresAt)}`)).toBeVisible();
    await expect(main.getByRole('heading', { level: 3, name: 'Seus benefícios' })).toBeVisible();
    await expect(main.getByRole('list', { name: 'Seus benefícios' }).getByRole('listitem')).toHaveText([
      'Consultas com 30% de desconto',
      'Exames com 25% de desconto',
      'Procedimentos com 20% de desconto',
    ]);
  });

  test('Ver Meu Cartão opens the digital card', async ({ page, signInAs, visit }) => {
    await signInAs('patient');
    await visit('/paciente');
    await page.getByRole('main').getByRole('link', { name: 'Ver Meu Cartão' }).click();
    await expect(page).toHaveURL(/\/paciente\/cartao$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meu Cartão');
  });
});
