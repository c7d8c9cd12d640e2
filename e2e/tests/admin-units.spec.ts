import { expect, test } from '@playwright/test';
import { demoAuthenticatorSecret, openSignedIn, rememberAuthenticator } from './helpers';
import { expectAccessible, followLink, pressButton, signOut, typeInto, watchCsp } from './support/portal';

/**
 * Administrative units, with the keyboard alone: admin@ creates the unit "Finance team" holding tina
 * and assigns the Helpdesk Administrator sam to it; sam then signs in, is told whom he can help, finds
 * tina, and finds nobody when he searches for uma (in no unit of his); uma's page by its address
 * answers as for someone who does not exist. axe on each screen.
 */
const ADMIN = 'admin@example.com';
const SAM = 'sam@example.com';
const UNIT = 'Finance team';

test('a unit for sam: the administrator defines it, sam finds only its people', async ({ page }) => {
  rememberAuthenticator(SAM, { kind: 'totp', secret: demoAuthenticatorSecret(SAM, "Sam's phone"), lastStep: 0 });
  const csp = watchCsp(page);
  await openSignedIn(page, ADMIN);

  await test.step('the Units page, before any unit', async () => {
    await followLink(page, 'Administration', page.getByRole('navigation', { name: 'Main' }));
    await followLink(page, 'Units', page.getByRole('navigation', { name: 'Administration' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Administrative units' })).toBeVisible();
    await expect(page.getByText('No units yet')).toBeVisible();
    await expectAccessible(page, 'the Units page, empty');
  });

  await test.step('a new unit of tina, served by sam', async () => {
    await pressButton(page, 'New unit');
    await expect(page.getByRole('heading', { level: 2, name: 'New unit' })).toBeFocused();
    await typeInto(page, 'Name', UNIT);
    const people = page.getByRole('group', { name: 'People', exact: true });
    await typeInto(page, 'Sign-in name', 'tina@example.com', people);
    await page.keyboard.press('Enter');
    await expect(people.getByRole('list')).toContainText('tina@example.com');
    const helpdesk = page.getByRole('group', { name: 'Helpdesk Administrators', exact: true });
    await typeInto(page, 'Sign-in name', SAM, helpdesk);
    await page.keyboard.press('Enter');
    await expect(helpdesk.getByRole('list')).toContainText(SAM);
    await expectAccessible(page, 'the new unit form');
    await pressButton(page, 'Save the unit');
    const row = page.getByRole('table', { name: 'Administrative units' }).getByRole('row', { name: new RegExp(UNIT) });
    await expect(row).toContainText('People: tina@example.com');
    await expect(row).toContainText('1 person in all');
    await expect(row).toContainText(SAM);
    await expect(page.getByRole('heading', { level: 2, name: 'Units' })).toBeFocused();
    await expectAccessible(page, 'the Units page with a unit');
  });

  await test.step('sam signs in and is told whom he can help', async () => {
    await signOut(page);
    await openSignedIn(page, SAM);
    await followLink(page, 'Administration', page.getByRole('navigation', { name: 'Main' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Find a user' })).toBeVisible();
    await expect(page.getByText(`You can help people in: ${UNIT}.`)).toBeVisible();
  });

  await test.step('he finds tina, of his unit', async () => {
    await typeInto(page, 'Name, sign-in name or e-mail', 'tina');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('table', { name: 'Search results' }).getByRole('link', { name: 'Tina Torres' })).toBeVisible();
    await expectAccessible(page, "sam's search within his unit");
  });

  await test.step('a search for uma, in no unit of his, shows nobody', async () => {
    await typeInto(page, 'Name, sign-in name or e-mail', 'uma');
    await page.keyboard.press('Enter');
    await expect(page.getByText('No user matches “uma”')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Search results' })).toHaveCount(0);
    await expectAccessible(page, "sam's search outside his unit");
  });

  await test.step("uma's page by its address: as for someone who does not exist", async () => {
    await page.goto('/admin/users/uma%40example.com/');
    await expect(page.getByText('No such user is known to the portal or the MFA provider.')).toBeVisible();
    await expectAccessible(page, 'a person outside his unit');
  });
  expect(csp.violations()).toEqual([]);
});
