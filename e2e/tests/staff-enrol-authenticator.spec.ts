import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { enrolAuthenticator, expectAccessible, watchCsp } from './support/portal';

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
    await page.getByRole('button', { name: 'Copy the key' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^[A-Z2-7]{16,}$/);
  });
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  await expect(page).toHaveURL(/\/$/);
  const card = page.getByRole('article', { name: 'Work phone' });
  await expect(card).toContainText('Authenticator app');
  await expect(card).toContainText('Passcode');
  await expectAccessible(page, 'the overview after adding an authenticator');
  expect(csp.violations()).toEqual([]);
});
