import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { claimToken, expectAccessible, followLink, pressButton, watchCsp } from './support/portal';

/** Renaming a device with the keyboard. dave@ starts with no device and claims a demo token first. */
const DAVE = 'dave@example.com';

test('dave renames his token, and the activity records it', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, DAVE);
  await claimToken(page, DAVE, { serial: 'D100-0003', counter: 0, name: 'Duo token' });
  const card = page.getByRole('article', { name: 'Duo token' });
  await expect(card).toBeVisible();

  await pressButton(page, 'Rename “Duo token”');
  const dialog = page.getByRole('dialog', { name: 'Rename “Duo token”' });
  const field = dialog.getByLabel('New name');
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('Duo token');
  await expectAccessible(page, 'the rename dialog');

  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('Please enter a name.')).toBeVisible();
  await page.keyboard.type('Desk drawer token');
  await page.keyboard.press('Enter');

  await expect(page.getByText('The device is now called “Desk drawer token”.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: 'Desk drawer token' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Duo token' })).toHaveCount(0);

  // The new name survives a reload (it is the server's, not the screen's).
  await page.reload();
  await expect(page.getByRole('article', { name: 'Desk drawer token' })).toBeVisible();

  await followLink(page, 'Activity', page.getByRole('navigation', { name: 'Main' }));
  await expect(page.getByText('Renamed a device to “Desk drawer token”')).toBeVisible();
  await expect(page.getByText('Added the hardware token D100-0003')).toBeVisible();
  expect(csp.violations()).toEqual([]);
});
