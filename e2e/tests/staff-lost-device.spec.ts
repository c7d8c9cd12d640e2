import { expect, test } from '@playwright/test';
import { nextPasscode, openSignedIn, rememberAuthenticator } from './helpers';
import {
  chooseRadio,
  currentTotp,
  enrolAuthenticator,
  expectAccessible,
  followLink,
  pressButton,
  stepUpIfAsked,
  typeInto,
  watchCsp,
} from './support/portal';

/**
 * The self-service lost-device wizard: ivan@ (no device at the start) adds two authenticator apps,
 * loses the first, and follows "Lost a device?": confirm it is him with the other app, remove the lost
 * one, create one single-use code for the next day, add a new app (the add page brings him back), and
 * test it. With the keyboard alone (support/portal.ts).
 */
const IVAN = 'ivan@example.com';

test('ivan replaces a lost phone himself, step by step', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, IVAN);
  await enrolAuthenticator(page, IVAN, 'Old phone');
  await enrolAuthenticator(page, IVAN, 'Spare app');

  await followLink(page, 'Lost a device?');
  await expect(page.getByRole('heading', { level: 1, name: 'Lost a device' })).toBeFocused();
  await expectAccessible(page, 'the self-service wizard, step 1');

  await test.step('1. confirm it is him with the app he still has (not again when he did a moment ago)', async () => {
    await pressButton(page, 'Confirm it is me');
    // Adding the second app asked him a moment ago: inside that window the wizard does not ask again.
    await stepUpIfAsked(page, IVAN, page.getByRole('heading', { name: 'Step 2: Remove the lost device' }));
  });

  await test.step('2. remove the lost phone', async () => {
    await chooseRadio(page, 'Old phone');
    await pressButton(page, 'Remove it');
    await stepUpIfAsked(page, IVAN, page.getByRole('heading', { name: 'Step 3: A bypass code for the next day' }));
  });

  await test.step('3. one single-use code for the next day, shown once', async () => {
    await pressButton(page, 'Create the code');
    const panel = page.getByRole('region', { name: 'Your new bypass code' });
    await stepUpIfAsked(page, IVAN, panel);
    await expect(panel).toContainText('Each code works once');
    await expectAccessible(page, 'the self-service wizard, the code');
    await pressButton(page, 'Continue: add a new device', panel);
  });

  await test.step('4. add a new app; the add page brings him back', async () => {
    await expect(page.getByRole('heading', { name: 'Step 4: Add a new device' })).toBeVisible();
    await followLink(page, 'Add an authenticator app');
    await expect(page.getByRole('heading', { level: 1, name: 'Add an authenticator app' })).toBeVisible();
    // enrolAuthenticator opens the page itself; here the wizard's link did, with the way back.
    await pressButton(page, 'Show my QR code');
    const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
    await stepUpIfAsked(page, IVAN, qr);
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
    const { code, step } = currentTotp(secret);
    await typeInto(page, 'Code from the app', code);
    await typeInto(page, 'Name for this device', 'New phone');
    await page.keyboard.press('Enter');
    rememberAuthenticator(IVAN, { kind: 'totp', secret, lastStep: step });
    await expect(page.getByRole('heading', { name: 'Step 5: Test the new device' })).toBeVisible();
  });

  await test.step('5. test it', async () => {
    await typeInto(page, 'Code from the device', await nextPasscode(IVAN));
    await page.keyboard.press('Enter');
    await expect(page.getByText('“Old phone” no longer works for your account, and “New phone” works.')).toBeVisible();
    await expectAccessible(page, 'the self-service wizard, done');
  });
  expect(csp.violations()).toEqual([]);
});
