import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { chooseOption, expectAccessible, pressButton, typeInto, watchCsp } from './support/portal';

/**
 * Phones and push on Duo (issue 6; runs with playwright.duo.config.ts only, tag @duo): the screens the
 * builtin provider does not offer. Nothing is changed at Duo: the push is left unanswered and the phone
 * form is not sent (the route tests and test/duo/duo-phones.int.test.ts cover the answers and the adding).
 */
const BOB = 'bob@example.com';

test('@duo bob checks his phone with a push and finds the phone form, by keyboard and accessible', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, BOB);

  await pressButton(page, 'Check it works: “iPhone 15”');
  const dialog = page.getByRole('dialog', { name: 'Check that “iPhone 15” works' });
  await expect(dialog.getByRole('heading', { name: 'Approve a push' })).toBeVisible();
  await expectAccessible(page, 'the test dialog with a push');
  await pressButton(page, 'Send a push', dialog);
  await expect(dialog.getByText(/Push sent to “iPhone 15”\./)).toBeVisible();
  // This tenant requires Verified Duo Push: the number to enter on the phone, while it waits.
  await expect(dialog.getByRole('group', { name: 'Number to enter on the phone' }).getByText(/^\d{3}$/)).toBeVisible();
  await expect(dialog.getByText('Waiting for your answer...')).toBeVisible();
  await expectAccessible(page, 'a push waiting for its answer');
  await pressButton(page, 'Cancel', dialog);
  await expect(dialog).toBeHidden();

  await page.goto('/devices/add/phone');
  await expect(page.getByRole('heading', { level: 1, name: 'Add a phone' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add the phone' })).toBeVisible();
  await expect(page.getByText('Phones cannot be added here')).toHaveCount(0);
  await expect(page.getByLabel('Country or region')).toHaveValue('US');
  await typeInto(page, 'Phone number', '(201) 555-0123');
  await expect(page.getByText('Will be saved in international format: +12015550123')).toBeVisible();
  // Every control of the form answers the keyboard: another country and kind of phone, by arrow keys.
  await chooseOption(page, 'Country or region', /^United Kingdom/);
  await expect(page.getByLabel('Country or region')).toHaveValue('GB');
  await typeInto(page, 'Phone number', '07400 123456');
  await expect(page.getByText('Will be saved in international format: +447400123456')).toBeVisible();
  await chooseOption(page, 'Kind of phone', /Android/);
  await expect(page.getByLabel('Kind of phone')).toHaveValue('android');
  await expectAccessible(page, 'the phone form on Duo');
  expect(csp.violations()).toEqual([]);
});
