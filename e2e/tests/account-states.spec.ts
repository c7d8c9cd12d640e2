import { expect, test } from '@playwright/test';
import { onDuo, signInAt } from './helpers';

test('a user disabled at the MFA provider lands on the account-disabled page', { tag: '@both' }, async ({ page }) => {
  await page.goto('/');
  await signInAt(page, 'disabled@example.com');
  await page.waitForURL(/\/error\/accountdisabled$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/disabled/i);
  // The builtin demo's reason; Duo gives none for a disabled user.
  if (!onDuo) await expect(page.getByText('Disabled by the security team')).toBeVisible();
});

test('a user not provisioned at the MFA provider lands on the missing-two-factor page', { tag: '@both' }, async ({ page }) => {
  await page.goto('/');
  await signInAt(page, 'nomfa@example.com');
  await page.waitForURL(/\/error\/missingtwofactor$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/two-factor|second factor/i);
});

test('a wrong password is refused on the sign-in page', async ({ page }) => {
  await page.goto('/');
  await signInAt(page, 'bob@example.com', 'not-the-password');
  await expect(page.getByText('Incorrect username or password.')).toBeVisible();
  await expect(page).toHaveURL(/\/idp\/interaction\//);
});
