import { expect, test } from '@playwright/test';
import { onDuo, openSignedIn, rememberAuthenticator, tokenName } from './helpers';
import { expectAccessible, followLink, pressButton, tokenCode, typeInto, watchCsp } from './support/portal';

/**
 * Claiming a Duo D100 hardware token (serial + two consecutive codes), then checking that it works,
 * and resynchronising it with three codes. carol@ has no device at the start, so the token is her
 * first device (no step-up). The codes are the demo token's (public seed), computed by the test.
 */
const CAROL = 'carol@example.com';
const SERIAL = 'D100-0002';
/** The name carol types; on Duo the token is called by its type and serial instead (no names at Duo). */
const NAME = tokenName(SERIAL, 'Key ring token');

test('carol adds a Duo D100 token with the keyboard, checks it works and resyncs it', { tag: '@both' }, async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, CAROL);
  await expect(page.getByRole('heading', { level: 1, name: 'Hello, Carol' })).toBeVisible();
  await expect(page.getByText('You have not added a device yet')).toBeVisible();
  await expectAccessible(page, 'the overview without devices');

  await test.step('choose a hardware token', async () => {
    await followLink(page, 'Add a device', page.getByRole('navigation', { name: 'Main' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Add a device' })).toBeFocused();
    await expectAccessible(page, 'the choice of device');
    await followLink(page, 'Add a hardware token', page.getByRole('main'));
    await expect(page.getByRole('heading', { level: 1, name: 'Add a hardware token (Duo D100)' })).toBeFocused();
    await expect(
      page.getByText('Turn the token over. The serial number is the series of letters and digits printed on the back'),
    ).toBeVisible();
  });

  await test.step('the form refuses what is missing, then claims the token', async () => {
    await pressButton(page, 'Add the token');
    await expect(page.getByText('Please enter the serial number.')).toBeVisible();
    await expectAccessible(page, 'the token form with errors');
    await typeInto(page, 'Serial number', SERIAL);
    // Tab through the form as a keyboard user would: first code, second code, name, then Enter.
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('First code')).toBeFocused();
    await page.keyboard.type(tokenCode(SERIAL, 0));
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Second code')).toBeFocused();
    await page.keyboard.type(tokenCode(SERIAL, 1));
    await page.keyboard.press('Tab');
    await page.keyboard.type('Key ring token');
    await page.keyboard.press('Enter');
    await expect(page.getByText(`Your hardware token “${NAME}” has been added.`)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    rememberAuthenticator(CAROL, { kind: 'hotp', serial: SERIAL, nextCounter: 2 });
  });

  const card = page.getByRole('article', { name: NAME });
  await test.step('the overview lists it and warns that one device is not enough', async () => {
    await expect(card).toContainText('Hardware token');
    await expect(card).toContainText(`${SERIAL} (Duo D100)`);
    await expect(card).toContainText('Passcode');
    await expect(page.getByRole('region', { name: 'Your backup plan' })).toContainText('You have only one device');
    await expectAccessible(page, 'the overview with one device');
  });

  await test.step('check it works: a wrong code is refused, the next code is accepted', async () => {
    await pressButton(page, `Check it works: “${NAME}”`);
    const dialog = page.getByRole('dialog', { name: `Check that “${NAME}” works` });
    await expect(dialog.getByLabel('Code from the device')).toBeFocused();
    await page.keyboard.type('000000');
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('alert')).toContainText('That code is not correct. Please check it and try again.');
    await expectAccessible(page, 'the device check with a refused code');
    await typeInto(page, 'Code from the device', tokenCode(SERIAL, 2), dialog);
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('status')).toContainText('It works');
    await expect(dialog.getByRole('status')).toContainText(`The code from “${NAME}” was correct`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // Focus goes back to the button that opened the dialog.
    await expect(page.getByRole('button', { name: `Check it works: “${NAME}”` })).toBeFocused();
    // Duo reports no last use for hardware tokens.
    if (!onDuo) await expect(card).not.toContainText('Last used Never');
  });

  await test.step('resync with three consecutive codes after many presses', async () => {
    // The next button in the card, reached with Tab.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: `Resync “${NAME}”` })).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Resync “${NAME}”` });
    await expect(dialog.getByLabel('First code')).toBeFocused();
    // The token was pressed offline well past the verification window (10): codes 20, 21, 22.
    for (const [i, label] of ['First code', 'Second code', 'Third code'].entries()) {
      if (i > 0) await page.keyboard.press('Tab');
      await expect(dialog.getByLabel(label)).toBeFocused();
      await page.keyboard.type(tokenCode(SERIAL, 20 + i));
    }
    await page.keyboard.press('Enter');
    await expect(page.getByText(`“${NAME}” is back in step and ready to use.`)).toBeVisible();
    rememberAuthenticator(CAROL, { kind: 'hotp', serial: SERIAL, nextCounter: 23 });
  });

  expect(csp.violations()).toEqual([]);
});
