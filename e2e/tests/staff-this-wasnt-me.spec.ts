import { expect, test } from '@playwright/test';
import { SECURITY_CONTACT } from '../playwright.config';
import { openSignedIn, signInAt } from './helpers';
import { mailTo } from './support/mailbox';
import { expectAccessible, followLink, pressButton, tabTo, tick, watchCsp } from './support/portal';

/**
 * "This wasn't me" (issue 19), keyboard only, on the builtin portal whose e-mail goes to the test's own
 * SMTP server (e2e/mailbox.setup.ts): carol reports the newest event of her activity, keeps "sign me out
 * everywhere" and "revoke my bypass codes" and also locks her account. The security contact receives the
 * report by e-mail, carol is told her account was locked, no message holds a secret, her browser is
 * signed out (its token refused, its session gone), and signing in again ends on the account-disabled page.
 *
 * The file's name puts it after every other journey of carol's (staff-claim-token): she stays locked.
 */
const CAROL = 'carol@example.com';

test("carol reports an event that wasn't her, locks her account, and the security team is told by e-mail", async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, CAROL);
  await followLink(page, 'Activity', page.getByRole('navigation', { name: 'Main' }));
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();

  // The newest entry shows where it came from, and offers "Doesn't look like you?".
  const newest = page.getByRole('list', { name: 'Your activity, newest first' }).locator(':scope > li').first();
  await expect(newest).toContainText('127.0.0.1');
  await expect(newest).toContainText(/Chrom/);
  const report = newest.getByRole('button', { name: /^Doesn't look like you\? / });
  await tabTo(page, report);
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Report something you did not do' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: 'Sign me out everywhere' })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Revoke all my bypass codes' })).toBeChecked();
  const lock = dialog.getByRole('checkbox', { name: 'Lock my account until the service desk has helped me' });
  await expect(lock).not.toBeChecked();
  await expectAccessible(page, "the 'This wasn't me' dialog");
  await tick(page, 'Lock my account until the service desk has helped me', dialog);
  await expect(lock).toBeChecked();
  await pressButton(page, 'Report it', dialog);

  await expect(dialog.getByText('Thank you, your report was recorded')).toBeVisible();
  await expect(dialog).toContainText('The security team has been told.');
  await expect(dialog).toContainText('You were signed out everywhere.');
  await expect(dialog).toContainText('Your account is locked.');

  // The security contact's report, and carol's own notice; neither carries a code or a secret.
  const toTeam = await mailTo(SECURITY_CONTACT, /^Security report: carol@example\.com says an event was not them$/);
  expect(toTeam.text).toContain('carol@example.com reported an event on their account that they did not do.');
  expect(toTeam.text).toMatch(/lock the account: yes/);
  const toCarol = await mailTo(CAROL, /^Your sign-in was locked$/);
  expect(toCarol.text).toContain('The service desk can unlock it');
  for (const mail of [toTeam, toCarol]) {
    expect(mail.html).not.toBe('');
    // No code (six digits or more, other than an HTML colour) and no secret.
    expect(`${mail.text}\n${mail.html}`).not.toMatch(/(?<![#\w])\d{6,}\b|secret|otpauth:/i);
  }

  // Signed out everywhere: the token this browser holds is refused at once (the spec's unauthorized
  // page), its session at the identity provider is gone, and the locked account cannot come back in.
  // Whether the browser still holds that token decides which comes first: the refusal, or straight the
  // identity provider's sign-in page.
  await page.goto('/');
  const refused = page.getByRole('heading', { level: 1, name: 'You are not allowed to use this portal' });
  await expect(refused.or(page.getByLabel('Username'))).toBeVisible();
  if (await refused.isVisible()) await followLink(page, 'Sign in again', page.getByRole('main'));
  await signInAt(page, CAROL, undefined, { secondFactor: 'none' });
  await expect(page).toHaveURL(/\/error\/accountdisabled$/);
  expect(csp.violations()).toEqual([]);
});
