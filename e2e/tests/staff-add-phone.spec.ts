import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { chooseOption, expectAccessible, pressButton, typeInto, watchCsp } from './support/portal';

/**
 * Phones by number on the embedded default (builtin MFA provider): it adds no phone by number (its phones
 * are the portal's own app, Portal Authenticator), so the page says so plainly and points to the app, still
 * checks a number, and offers no push for a phone that cannot take one (an authenticator app).
 * (Phones by number, with push, run on the Duo stand-in; the portal's app in portal-authenticator.spec.ts.)
 */
const BOB = 'bob@example.com';

test('bob learns that phones are not added by number here, is pointed to the portal’s app, checks his number, and is offered no push for his authenticator app', async ({
  page,
}) => {
  const csp = watchCsp(page);
  await openSignedIn(page, BOB);
  await page.goto('/devices/add/phone');
  await expect(page.getByRole('heading', { level: 1, name: 'Add a phone' })).toBeVisible();
  await expect(page.getByText('Phones cannot be added here')).toBeVisible();
  await expect(page.getByText(/This portal does not add phones by number/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'set up Portal Authenticator' })).toHaveAttribute(
    'href',
    '/devices/add/portal-authenticator',
  );
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
