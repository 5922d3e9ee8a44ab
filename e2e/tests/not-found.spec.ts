import { expect, test } from '../fixtures';

test.describe('not-found screen', () => {
  test.use({ allowConsoleErrors: [/404 Error: User attempted to access non-existent route: \/pagina-que-nao-existe/] });

  test('shows 404, logs the missing path and links back home', async ({ page, visit }) => {
    const logged = page.waitForEvent('console', (message) => message.type() === 'error' && message.text().includes('/pagina-que-nao-existe'));
    await visit('/pagina-que-nao-existe');
    await expect(page.getByText('404', { exact: true })).toBeVisible();
    await expect(page.getByText('Oops! Page not found')).toBeVisible();
    expect((await logged).text()).toContain('/pagina-que-nao-existe');

    await page.getByRole('link', { name: /Return to Home|Voltar/ }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
