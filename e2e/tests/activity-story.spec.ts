import { expect, test } from '@playwright/test';
import { answerPasscode, demoAuthenticatorSecret, nextPasscode, rememberAuthenticator, signInAt, totpAt, totpStep } from './helpers';
import { expectAccessible, watchCsp } from './support/portal';

/**
 * The activity reads like a story: olga (an authenticator app "Olga's phone", nothing else happens
 * to her) signs in once with a wrong code, then the right one, and her activity shows two entries:
 * the attempt as someone else's, never hers, and her sign-in. Each has one "Doesn't look like you?";
 * the steps open behind "Details". On a desktop, then on a phone.
 */
const OLGA = 'olga@example.com';

test('olga reads a wrong code and her sign-in as two entries, with their steps behind Details', async ({ page }) => {
  const csp = watchCsp(page);
  const secret = demoAuthenticatorSecret(OLGA, "Olga's phone");
  rememberAuthenticator(OLGA, { kind: 'totp', secret, lastStep: 0 });
  // A code that none of the steps the server accepts (the current one and either side) gives.
  const valid = new Set([-1, 0, 1, 2].map((d) => totpAt(secret, totpStep() + d)));
  const wrong = ['000000', '111111', '222222'].find((code) => !valid.has(code))!;

  await page.goto('/activity');
  await signInAt(page, OLGA, undefined, { secondFactor: 'none' });
  await answerPasscode(page, wrong);
  await expect(page.getByRole('alert')).toHaveText('That code was not accepted. Check it and try again.');
  await answerPasscode(page, await nextPasscode(OLGA));
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();

  const list = page.getByRole('list', { name: 'Your activity, newest first' });
  const entries = list.locator(':scope > li');
  await expect(entries).toHaveCount(2);
  const [signedIn, attempt] = [entries.nth(0), entries.nth(1)];
  await expect(signedIn.locator('.timeline__what')).toHaveText('You signed in with your authenticator app');
  await expect(attempt.locator('.timeline__what')).toHaveText('Someone tried to sign in as you with a wrong code Failed');
  await expect(attempt).not.toContainText(/by you/i);
  await expect(attempt).toContainText('127.0.0.1');
  await expect(attempt).toContainText(/Chrom/);
  for (const entry of [signedIn, attempt]) await expect(entry.getByRole('button', { name: /^Doesn't look like you\?/ })).toHaveCount(1);
  // No internal name or protocol word anywhere on the page.
  await expect(page.getByRole('main')).not.toContainText(/method:|totp|hotp|idp\.|mfa\./i);

  const details = attempt.getByRole('button', { name: 'Details' });
  await expect(details).toHaveAttribute('aria-expanded', 'false');
  await details.click();
  await expect(details).toHaveAttribute('aria-expanded', 'true');
  const steps = attempt.getByRole('list', { name: 'What happened, step by step' }).getByRole('listitem');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('The right password was entered');
  await expect(steps.nth(1)).toContainText('A wrong code was entered');
  await expectAccessible(page, 'the activity, an entry opened');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(signedIn.getByRole('button', { name: /^Doesn't look like you\?/ })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'horizontal scrolling on the activity at 390 px').toBeLessThanOrEqual(0);
  await expectAccessible(page, 'the activity on a phone');
  expect(csp.violations()).toEqual([]);
});
