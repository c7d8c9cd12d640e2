import { expect, test } from '@playwright/test';
import { signInAt } from './helpers';

test.describe('when the profile call fails', () => {
  test('a 401 shows the unauthorized page', async ({ page }) => {
    await page.route('**/account/getuserinfo?*', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: '{"code":"auth.token_invalid","message":"x"}' }),
    );
    await page.goto('/');
    await signInAt(page, 'bob@example.com');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/not authori[sz]ed|not allowed|unauthori[sz]ed/i);
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  });

  test('a 500 shows the server error page without a home link', async ({ page }) => {
    await page.route('**/account/getuserinfo?*', (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'database on fire' }),
    );
    await page.goto('/');
    await signInAt(page, 'bob@example.com');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/went wrong|server error/i);
    await expect(page.getByRole('link', { name: /home/i })).toHaveCount(0);
  });
});
