import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { chooseOption, expectAccessible, pressButton, typeInto, watchCsp } from './support/portal';

/**
 * Phones on the embedded default (builtin MFA provider, issue 6): it has no phone channel, so the portal
 * says so plainly, still checks a number, and offers no push anywhere, as GET /api/me/capabilities says.
 * (The same journeys with a phone that takes pushes run on the Duo stand-in.)
 */
const BOB = 'bob@example.com';

test('bob learns that phones cannot be added here, checks his number from the keyboard, and is offered no push', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, BOB);
  await page.goto('/devices/add/phone');
  await expect(page.getByRole('heading', { level: 1, name: 'Add a phone' })).toBeVisible();
  await expect(page.getByText('Phones cannot be added here')).toBeVisible();
  await expect(page.getByText(/it cannot send pushes or text messages/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add the phone' })).toHaveCount(0);
  await expect(page.getByLabel('Country or region')).toHaveValue('US');
  await typeInto(page, 'Phone number', '(201) 555-0123');
  await pressButton(page, 'Check the number');
  await expect(page.getByText('+1 201 555 0123 is a valid number')).toBeVisible();
  await expect(page.getByText('In international format: +12015550123. It has not been saved.')).toBeVisible();
  // Another country, chosen with the arrow keys; the number is checked for it.
  await chooseOption(page, 'Country or region', /^United Kingdom/);
  await expect(page.getByLabel('Country or region')).toHaveValue('GB');
  await typeInto(page, 'Phone number', '07400 123456');
  await pressButton(page, 'Check the number');
  await expect(page.getByText('In international format: +447400123456. It has not been saved.')).toBeVisible();
  await expectAccessible(page, 'the phone page without a phone channel');

  await page.goto('/');
  await pressButton(page, 'Check it works: “iPhone 15”');
  const dialog = page.getByRole('dialog', { name: 'Check that “iPhone 15” works' });
  await expect(dialog.getByLabel('Code from the device')).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Send a push' })).toHaveCount(0);
  await expectAccessible(page, 'the test dialog of a phone');
  expect(csp.violations()).toEqual([]);
});
