import { expect, test } from '@playwright/test';
import { openSignedIn, rememberAuthenticator, tokenName } from './helpers';
import { answerStepUp, expectAccessible, pressButton, stepUpDialog, watchCsp } from './support/portal';

/**
 * Removing a device needs a fresh verification (step-up). erin@ holds an old phone and the demo
 * token D100-0004 (seeded); nothing verified her recently, so the removal must ask.
 */
const ERIN = 'erin@example.com';

// With the full motion a person gets by default: the dialogs zoom in and out while the keyboard moves
// through them (the other journeys ask for reduced motion, playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

test('erin removes her old phone after confirming it is her with her token', { tag: '@both' }, async ({ page }) => {
  const csp = watchCsp(page);
  rememberAuthenticator(ERIN, { kind: 'hotp', serial: 'D100-0004', nextCounter: 0 });
  await openSignedIn(page, ERIN);
  const phone = page.getByRole('article', { name: 'Old phone' });
  await expect(phone).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your backup plan' })).toContainText('You have 2 devices');

  await pressButton(page, 'Remove “Old phone”');
  const confirm = page.getByRole('dialog', { name: 'Remove “Old phone”?' });
  await expect(confirm).toContainText('You will no longer be able to use “Old phone” to confirm it is you.');
  // The safe choice has the focus.
  await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await expectAccessible(page, 'the remove dialog');
  await pressButton(page, 'Remove', confirm);

  await expect(stepUpDialog(page)).toBeVisible();
  await expectAccessible(page, 'the step-up dialog');
  await answerStepUp(page, ERIN);

  // Gone from the list (the banner that says so lasts a few seconds only).
  await expect(page.getByRole('button', { name: 'Remove “Old phone”' })).toHaveCount(0);
  await expect(phone).toHaveCount(0);
  await expect(page.getByRole('article', { name: tokenName('D100-0004') })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your backup plan' })).toContainText('You have only one device');

  // One entry: the removal, with the confirmation it asked for among its steps.
  await page.goto('/activity');
  const removed = page
    .getByRole('list', { name: 'Your activity, newest first' })
    .locator(':scope > li')
    .filter({ hasText: 'You removed the device “Old phone”' });
  await removed.getByRole('button', { name: 'Details' }).click();
  await expect(removed.getByRole('list', { name: 'What happened, step by step' })).toContainText(/You confirmed it was you with /);
  expect(csp.violations()).toEqual([]);
});
