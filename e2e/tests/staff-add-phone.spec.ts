import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { expectAccessible, pressButton, watchCsp } from './support/portal';

/**
 * Phones by number on the embedded default (builtin MFA provider): it adds no phone by number (its phones
 * are the portal's own app, Portal Authenticator), so Add a device does not offer it, and the page, opened
 * by its address, points to the app and the other kinds, with no number form that would save nothing; no
 * push is offered for a phone that cannot take one (an authenticator app).
 * (Phones by number, with push, run on the Duo stand-in; the portal's app in portal-authenticator.spec.ts.)
 */
const BOB = 'bob@example.com';

test('bob learns that phones are set up with the portal’s app here, is pointed to it, and is offered no push for his authenticator app', async ({
  page,
}) => {
  const csp = watchCsp(page);
  await openSignedIn(page, BOB);
  await page.goto('/devices/add/phone');
  await expect(page.getByRole('heading', { level: 1, name: 'Add a phone' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Set up your phone with Portal Authenticator' })).toBeVisible();
  await expect(page.getByText(/This portal does not add phones by their number/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Set up Portal Authenticator' })).toHaveAttribute(
    'href',
    '/devices/add/portal-authenticator',
  );
  await expect(page.getByRole('link', { name: 'Add an authenticator app' })).toHaveAttribute('href', '/devices/add/authenticator');
  await expect(page.getByRole('button', { name: 'Add the phone' })).toHaveCount(0);
  await expect(page.getByLabel('Phone number')).toHaveCount(0);
  await expect(page.getByRole('main')).not.toContainText('cannot be added');
  await expectAccessible(page, 'the phone page without phones by number');

  await page.goto('/');
  await pressButton(page, 'Check it works: “iPhone 15”');
  const dialog = page.getByRole('dialog', { name: 'Check that “iPhone 15” works' });
  await expect(dialog.getByLabel('Code from the device')).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Send a push' })).toHaveCount(0);
  await expectAccessible(page, 'the test dialog of a phone');
  expect(csp.violations()).toEqual([]);
});
