import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { expectAccessible, followLink, pressButton, signOut, tabTo, tick, watchCsp } from './support/portal';

/**
 * The factor policy, with the keyboard alone and axe on each screen:
 * - victor, a contractor (directory group "Contractors", whose policy allows only security keys; seeded,
 *   README), is offered only a security key on Add a device, and told why each other kind is missing;
 * - admin@ opens the factor policy, previews requiring a passkey or security key of everyone (it would
 *   leave people with no device they may use), and saving it is refused with their names: nothing changes.
 */
const VICTOR = 'victor@example.com';
const ADMIN = 'admin@example.com';

test('victor, a contractor, is offered only security keys, with the reason for the rest', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, VICTOR);
  await followLink(page, 'Add a device', page.getByRole('main'));
  await expect(page.getByRole('heading', { level: 1, name: 'Add a device' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 2, name: /^Security key/ })).toBeVisible();
  await expect(main.locator('.choice-card a')).toHaveText(['Add a security key']);
  const why = main.getByRole('region', { name: 'Why some kinds are not offered' });
  await expect(why).toContainText('These are not offered to you under the policy for Contractors:');
  await expect(why.getByRole('listitem')).toHaveText([
    'A passkey on this computer or phone: not allowed',
    'Portal Authenticator on your phone: not allowed',
    'An authenticator app: not allowed',
    'A hardware token: not allowed',
  ]);
  await expectAccessible(page, 'Add a device for a contractor');

  await followLink(page, 'Add a security key', main);
  await expect(page.getByRole('heading', { level: 2, name: 'Security key' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Your organisation allows only security keys here');
  await expectAccessible(page, 'the security key page for a contractor');
  await signOut(page);
  expect(csp.violations()).toEqual([]);
});

test('the administrator previews a policy that would leave people without a device, and saving it is refused with their names', async ({
  page,
}) => {
  const csp = watchCsp(page);
  await openSignedIn(page, ADMIN);
  await followLink(page, 'Administration', page.getByRole('navigation', { name: 'Main' }));
  await followLink(page, 'Factor policy', page.getByRole('navigation', { name: 'Administration' }));
  await expect(page.getByRole('heading', { level: 1, name: 'Factor policy' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Contractors (1 member)' })).toBeVisible();
  await expectAccessible(page, 'the factor policy page');

  const everyone = page.getByRole('form', { name: 'Policy for everyone' });
  await tick(page, 'Require a passkey or security key (phishing-resistant)', everyone);
  await pressButton(page, 'Preview', everyone);
  const preview = everyone.getByRole('region', { name: 'What this would do' });
  await expect(preview).toContainText('Saving this would be refused.');
  await expect(preview).toContainText('bob@example.com');
  await expectAccessible(page, 'the preview of a refused change');

  await pressButton(page, 'Save', everyone);
  const refused = everyone.getByRole('alert').filter({ hasText: 'Not saved: some people would be left with no device they may use' });
  await expect(refused).toContainText('bob@example.com');
  await expectAccessible(page, 'a refused change');

  // Nothing was stored: the page read again shows the requirement off.
  await page.reload();
  const box = page.getByRole('form', { name: 'Policy for everyone' }).getByRole('checkbox', { name: /Require a passkey/ });
  await expect(box).not.toBeChecked();
  await tabTo(page, box);
  await signOut(page);
  expect(csp.violations()).toEqual([]);
});
