import { expect, test } from '@playwright/test';
import { onDuo, openSignedIn, tokenName } from './helpers';
import { answerStepUp, claimToken, enrolAuthenticator, expectAccessible, pressButton, stepUpDialog, watchCsp } from './support/portal';

/**
 * Removing the last device explains the consequence first and needs an explicit acknowledgement.
 * frank@ starts with no device, adds an authenticator app (his first: no step-up), then removes it.
 * On Duo, which enrols no authenticator apps, his first device is the demo token D100-0003.
 */
const FRANK = 'frank@example.com';
const ONLY = onDuo ? tokenName('D100-0003') : 'Only phone';

test('frank is told what removing his only device means before it is removed', { tag: '@both' }, async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, FRANK);
  if (onDuo) await claimToken(page, FRANK, { serial: 'D100-0003', counter: 0, name: 'Only token' });
  else await enrolAuthenticator(page, FRANK, ONLY);
  await expect(page.getByRole('region', { name: 'Your backup plan' })).toContainText('You have only one device');

  await pressButton(page, `Remove “${ONLY}”`);
  const dialog = page.getByRole('dialog', { name: 'Remove your only device?' });
  await expect(dialog).toContainText(`“${ONLY}” is your only device`);
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

  // Gone from the list (the banner that says so lasts a few seconds only).
  await expect(page.getByRole('button', { name: `Remove “${ONLY}”` })).toHaveCount(0);
  await expect(page.getByText('You have not added a device yet')).toBeVisible();
  // With no device left, the overview no longer says "Active": a password alone signs frank in now.
  await expect(page.getByRole('region', { name: 'Your multi-factor status' })).toContainText('Not protected yet');
  await expect(page.getByRole('region', { name: 'Your backup plan' })).toHaveCount(0);
  await expectAccessible(page, 'the overview after removing the last device');
  expect(csp.violations()).toEqual([]);
});
