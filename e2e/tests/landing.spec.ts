import { expect, test } from '../fixtures';

test.describe('landing page', () => {
  test('shows every section, the three plans and the footer', async ({ page, visit }) => {
    await visit('/');
    await expect(page).toHaveTitle(/Carteirinha/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    const nav = page.getByRole('navigation', { name: 'Principal' });
    for (const [label, anchor] of [
      ['Recursos', '#features'],
      ['Benefícios', '#benefits'],
      ['Planos', '#pricing'],
    ] as const) {
      await expect(nav.getByRole('link', { name: label })).toHaveAttribute('href', anchor);
      await expect(page.locator(anchor)).toBeAttached();
    }

    const pricing = page.locator('#pricing');
    await expect(pricing.getByRole('heading', { name: 'Starter' })).toBeVisible();
    await expect(pricing.getByRole('heading', { name: 'Professional' })).toBeVisible();
    await expect(pricing.getByRole('heading', { name: 'Enterprise' })).toBeVisible();
    await expect(pricing.getByText('R$ 297')).toBeVisible();
    await expect(pricing.getByText('R$ 697')).toBeVisible();
    await expect(pricing.getByText('Mais Popular')).toBeVisible();
    await expect(pricing.getByRole('link', { name: 'Falar com Vendas' })).toBeVisible();

    await expect(page.getByRole('heading', { name: 'Pronto para transformar sua clínica?' })).toBeVisible();
    await expect(page.getByText('© 2025 Carteirinha. Todos os direitos reservados.')).toBeVisible();
  });

  test('the anchor links scroll to their section', async ({ page, visit }) => {
    await visit('/');
    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Planos' }).click();
    await expect(page).toHaveURL(/#pricing$/);
    await expect(page.locator('#pricing')).toBeInViewport();
  });

  test("'Entrar' and 'Começar Agora' lead to /auth", async ({ page, visit }) => {
    await visit('/');
    await page.getByRole('banner').getByRole('link', { name: 'Entrar' }).click();
    await expect(page).toHaveURL(/\/auth$/);

    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Começar Agora' }).click();
    await expect(page).toHaveURL(/\/auth/);
    await expect(page.getByRole('tab', { name: 'Cadastrar' })).toBeVisible();
  });
});
