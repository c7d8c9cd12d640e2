import { expect, test } from '@playwright/test';
import { onDuo, openSignedIn, rememberAuthenticator } from './helpers';
import { claimToken, expectAccessible, followLink, pressButton, watchCsp } from './support/portal';

/**
 * Renaming a device with the keyboard. dave@ starts with no device and claims a demo token first. On
 * Duo, whose hardware tokens have no name, he renames the phone the Duo stand-in gives him instead
 * (apps/server/test/duo/portal-on-standin.ts; with it the token D100-0010 for signing in).
 */
const DAVE = 'dave@example.com';
const START = onDuo ? 'Work mobile' : 'Duo token';

test('dave renames his token, and the activity records it', { tag: '@both' }, async ({ page }) => {
  const csp = watchCsp(page);
  if (onDuo) rememberAuthenticator(DAVE, { kind: 'hotp', serial: 'D100-0010', nextCounter: 0 });
  await openSignedIn(page, DAVE);
  if (!onDuo) await claimToken(page, DAVE, { serial: 'D100-0003', counter: 0, name: START });
  const card = page.getByRole('article', { name: START });
  await expect(card).toBeVisible();

  await pressButton(page, `Rename “${START}”`);
  const dialog = page.getByRole('dialog', { name: `Rename “${START}”` });
  const field = dialog.getByLabel('New name');
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(START);
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
  await expect(page.getByRole('article', { name: START })).toHaveCount(0);

  // The new name survives a reload (it is the server's, not the screen's).
  await page.reload();
  await expect(page.getByRole('article', { name: 'Desk drawer token' })).toBeVisible();

  await followLink(page, 'Activity', page.getByRole('navigation', { name: 'Main' }));
  await expect(page.getByText('Renamed a device to “Desk drawer token”')).toBeVisible();
  if (!onDuo) await expect(page.getByText('Added the hardware token D100-0003')).toBeVisible();
  expect(csp.violations()).toEqual([]);
});
