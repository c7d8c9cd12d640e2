import { expect, test } from '@playwright/test';
import { nextPasscode, openSignedIn, tokenName } from './helpers';
import { expectAccessible, pressButton, watchCsp } from './support/portal';

/**
 * The activity tells what happened on the account: here bob@ checks his token (a wrong code, then a
 * right one) and finds both checks, in plain words, newest first. Also: the help page, and the layout
 * at 360 px wide.
 */
const BOB = 'bob@example.com';

test('bob finds his device checks in the activity, newest first', { tag: '@both' }, async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, BOB);

  await pressButton(page, `Check it works: “${tokenName('D100-0001')}”`);
  const dialog = page.getByRole('dialog', { name: `Check that “${tokenName('D100-0001')}” works` });
  await expect(dialog.getByLabel('Code from the device')).toBeFocused();
  await page.keyboard.type('000000');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toContainText('That code is not correct.');
  await dialog.getByLabel('Code from the device').fill(await nextPasscode(BOB));
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('status')).toContainText('It works');
  await page.keyboard.press('Escape');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeFocused();
  const entries = page.getByRole('list', { name: 'Your activity, newest first' }).locator(':scope > li');
  await expect(entries.first()).toContainText('You checked that your hardware token works');
  await expect(entries.first()).not.toContainText('Failed');
  await expect(entries.nth(1)).toContainText('A check that a device works did not pass');
  await expect(entries.nth(1)).toContainText('Failed');
  await expect(entries.nth(1)).toContainText('Reason: That code is not correct.');
  await expectAccessible(page, 'the activity timeline');
  expect(csp.violations()).toEqual([]);
});

test('help links come from the configuration; every screen fits 360 px', { tag: '@both' }, async ({ page }) => {
  const csp = watchCsp(page);
  await page.setViewportSize({ width: 360, height: 740 });
  await openSignedIn(page, BOB);
  const info = (await (await page.request.get('/settings/APIInfo')).json()) as { links: { setupInstructions: string; community: string } };
  for (const path of [
    '/',
    '/devices/add',
    '/devices/add/authenticator',
    '/devices/add/token',
    '/devices/add/phone',
    '/bypass-codes',
    '/activity',
    '/help',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `horizontal scrolling on ${path} at 360 px`).toBeLessThanOrEqual(0);
    await expectAccessible(page, `${path} at 360 px`);
  }
  await expect(page.getByRole('link', { name: 'Open the setup instructions (opens in a new tab)' })).toHaveAttribute(
    'href',
    info.links.setupInstructions,
  );
  await expect(page.getByRole('link', { name: 'Visit the community page (opens in a new tab)' })).toHaveAttribute(
    'href',
    info.links.community,
  );
  expect(csp.violations()).toEqual([]);
});
