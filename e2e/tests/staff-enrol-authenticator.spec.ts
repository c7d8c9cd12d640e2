import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { enrolAuthenticator, expectAccessible, pressButton, watchCsp } from './support/portal';
import { clipboardText } from './support/clipboard';

/**
 * Adding an authenticator app (TOTP) as alice@: QR code as a data: image and the setup key for manual
 * entry, confirmed by the app's first code (computed here from the key the page shows). When alice
 * already has a device (the sign-in journey gives her one), the portal first asks her to confirm it is
 * her; the step-up is answered with her known authenticator.
 */
const ALICE = 'alice@example.com';

test('alice adds an authenticator app by keyboard, reading the key from the page', async ({ page, context }) => {
  const csp = watchCsp(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openSignedIn(page, ALICE);

  const secret = await enrolAuthenticator(page, ALICE, 'Work phone', async () => {
    await expectAccessible(page, 'the authenticator enrolment with its QR code');
    await pressButton(page, 'Copy the key');
    await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
    expect(await clipboardText(context, page)).toMatch(/^[A-Z2-7]{16,}$/);
  });
  expect(await clipboardText(context, page)).toBe(secret);

  await expect(page).toHaveURL(/\/$/);
  const card = page.getByRole('article', { name: 'Work phone' });
  await expect(card).toContainText('Authenticator app');
  await expect(card).toContainText('Passcode');
  await expectAccessible(page, 'the overview after adding an authenticator');
  expect(csp.violations()).toEqual([]);
});

/**
 * On Duo there is no third-party authenticator app to enrol (Duo's equivalent is a phone activated in
 * Duo Mobile): the page is still offered, and asking for the QR code says it is not available; no
 * secret is shown and no device is added.
 */
test('on Duo, adding an authenticator app says it is not available', { tag: '@duo' }, async ({ page }) => {
  const csp = watchCsp(page);
  // frank@ has no device yet (alice has one on Duo after the sign-in journey; he adds his in staff-last-device).
  await openSignedIn(page, 'frank@example.com');
  await page.goto('/devices/add/authenticator');
  await expect(page.getByRole('heading', { level: 1, name: 'Add an authenticator app' })).toBeVisible();
  const enrolment = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/me/devices/authenticator'));
  await pressButton(page, 'Show my QR code');
  const response = await enrolment;
  expect(response.status()).toBe(409);
  expect(((await response.json()) as { code: string }).code).toBe('mfa.not_supported_by_provider');
  await expect(page.getByText("This is not available with your organisation's multi-factor service.")).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toHaveCount(0);
  await expect(page.getByTestId('totp-secret')).toHaveCount(0);
  await expectAccessible(page, 'the authenticator enrolment refused by Duo');
  await page.goto('/');
  await expect(page.getByText('You have not added a device yet')).toBeVisible();
  expect(csp.violations()).toEqual([]);
});
