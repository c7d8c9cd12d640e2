import { expect, test } from '@playwright/test';
import { signInAt } from './helpers';

test('a deep link survives sign-in', async ({ page }) => {
  await page.goto('/some/path?tab=devices');
  await signInAt(page, 'alice@example.com');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/some/path?tab=devices');
  // The remembered address is used once and then forgotten.
  expect(await page.evaluate(() => [sessionStorage.getItem('firstAuth'), sessionStorage.getItem('redirect')])).toEqual([null, null]);
});
