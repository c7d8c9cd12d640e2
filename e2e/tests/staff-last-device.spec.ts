import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { answerStepUp, enrolAuthenticator, expectAccessible, pressButton, stepUpDialog, watchCsp } from './support/portal';

/**
 * Removing the last device explains the consequence first and needs an explicit acknowledgement.
 * frank@ starts with no device, adds an authenticator app (his first: no step-up), then removes it.
 */
const FRANK = 'frank@example.com';

test('frank is told what removing his only device means before it is removed', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, FRANK);
  await enrolAuthenticator(page, FRANK, 'Only phone');
  await expect(page.getByRole('region', { name: 'Your backup plan' })).toContainText('You have only one device');

  await pressButton(page, 'Remove “Only phone”');
  const dialog = page.getByRole('dialog', { name: 'Remove your only device?' });
  await expect(dialog).toContainText('“Only phone” is your only device');
  await expect(dialog).toContainText(
    'If you remove it, you will not be able to confirm it is you when you sign in until you add another device.',
  );
  const remove = dialog.getByRole('button', { name: 'Remove' });
  await expect(remove).toBeDisabled();
  await expectAccessible(page, 'the last-device explanation');

  // Acknowledge with the keyboard: Tab to the box, Space to tick it.
  const acknowledge = dialog.getByRole('checkbox', { name: 'I understand that I will have no device left' });
  await acknowledge.focus();
  await page.keyboard.press('Space');
  await expect(acknowledge).toBeChecked();
  await expect(remove).toBeEnabled();
  const deletion = page.waitForRequest((r) => r.method() === 'DELETE' && r.url().includes('/api/me/devices/'));
  await remove.focus();
  await page.keyboard.press('Enter');
  expect(new URL((await deletion).url()).searchParams.get('confirmLastDevice')).toBe('true');

  // First removal by frank: the server wants a fresh verification, with the device about to go.
  await expect(stepUpDialog(page)).toBeVisible();
  await answerStepUp(page, FRANK);

  await expect(page.getByText('“Only phone” has been removed.')).toBeVisible();
  await expect(page.getByText('You have not added a device yet')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your backup plan' })).toContainText('You cannot confirm it is you yet');
  await expectAccessible(page, 'the overview after removing the last device');
  expect(csp.violations()).toEqual([]);
});
