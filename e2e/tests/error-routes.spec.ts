import { expect, test } from '@playwright/test';

const routes = [
  { path: '/error/accountdisabled', heading: /disabled/i },
  { path: '/error/unauthorized', heading: /not authori[sz]ed|not allowed|unauthori[sz]ed/i },
  { path: '/error/401', heading: /not authori[sz]ed|not allowed|unauthori[sz]ed/i },
  { path: '/error/missingtwofactor', heading: /two-factor|second factor/i },
  { path: '/error/500', heading: /went wrong|server error/i },
  { path: '/loggedout', heading: /signed out|logged out/i },
];

test.describe('error and logged-out routes', () => {
  for (const { path, heading } of routes) {
    test(`${path} renders its page without signing in`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      expect(new URL(page.url()).pathname).toBe(path);
    });
  }

  test('/error/500 offers a way home', async ({ page }) => {
    await page.goto('/error/500');
    await expect(page.getByRole('link', { name: /home/i })).toHaveAttribute('href', '/');
  });

  test('error routes are exact matches: a longer path is the main application', async ({ page }) => {
    await page.goto('/error/500/extra');
    await page.waitForURL(/\/idp\/interaction\//);
  });
});
