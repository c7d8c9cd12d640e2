import { expect, test, type Locator, type Page } from '@playwright/test';
import { nextPasscode, onDuo, openSignedIn, tokenName } from './helpers';
import { tokenChoice } from './support/admin';
import { expectAccessible, pressButton, stepUpDialog, typeInto } from './support/portal';

/**
 * The accessibility sweep: axe-core (WCAG 2.2 AA, with Label in Name) on every screen of the portal —
 * the shell's error routes and /loggedout, every page of staff (bob), of the Helpdesk Administrator and
 * of the Solution Administrator, and every dialog those pages open (opened from the keyboard, checked,
 * then closed with Escape without changing anything). Any violation fails.
 */

const BOB = 'bob@example.com';

/** Waits until the page's main heading shows and nothing is loading any more. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^(Loading|Searching)/ })).toHaveCount(0);
}

async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await settled(page);
  await expectAccessible(page, path);
}

/** Opens a dialog with a button (from the keyboard), checks it, and closes it with Escape. */
async function checkDialog(page: Page, button: string | RegExp, dialogName: string | RegExp, scope: Page | Locator = page): Promise<void> {
  await pressButton(page, button, scope);
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, `the dialog “${String(dialogName)}”`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

test.describe('accessibility sweep: every screen passes axe (WCAG 2.2 AA)', { tag: '@both' }, () => {
  // Many screens per test, each measured by axe: longer than one journey.
  test.describe.configure({ timeout: 300_000 });
  test('the shell: error routes and the logged-out page', async ({ page }) => {
    for (const path of [
      '/error/accountdisabled',
      '/error/unauthorized',
      '/error/401',
      '/error/missingtwofactor',
      '/error/500',
      '/loggedout',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(page, path);
    }
  });

  test('staff: every page, every device dialog and the step-up', async ({ page }) => {
    await openSignedIn(page, BOB);
    await settled(page);
    await expectAccessible(page, "bob's overview");

    const token = tokenName('D100-0001');
    await test.step('the device dialogs (opened and closed, nothing changed)', async () => {
      await checkDialog(page, `Check it works: “${token}”`, `Check that “${token}” works`);
      if (!onDuo) {
        await checkDialog(page, `Rename “${token}”`, `Rename “${token}”`);
        await checkDialog(page, `Check it works: “iPhone 15”`, 'Check that “iPhone 15” works');
      }
      await checkDialog(page, `Resync “${token}”`, `Resync “${token}”`);
      await checkDialog(page, `Remove “${token}”`, `Remove “${token}”?`);
    });

    for (const path of [
      '/devices/add',
      '/devices/add/authenticator',
      '/devices/add/token',
      '/devices/add/phone',
      '/devices/lost',
      '/bypass-codes',
      '/activity',
      '/help',
      '/admin',
      '/no-such-page',
    ]) {
      await visit(page, path);
    }

    await test.step('the step-up dialog', async () => {
      await page.goto('/devices/add/token');
      await settled(page);
      await typeInto(page, 'Serial number', 'D100-0002');
      await typeInto(page, 'First code', '000000');
      await typeInto(page, 'Second code', '000001');
      await page.keyboard.press('Enter');
      await expect(stepUpDialog(page)).toBeVisible();
      await expectAccessible(page, 'the step-up dialog');
      await page.keyboard.press('Escape');
      await expect(stepUpDialog(page)).toBeHidden();
    });
  });

  test('helpdesk: search, a user page with its dialogs, the lost-device wizard, refusals', async ({ page }) => {
    await openSignedIn(page, 'helpdesk@example.com');
    await settled(page);
    await expectAccessible(page, "the helpdesk administrator's overview (protected account)");
    await visit(page, '/admin/users');
    await visit(page, '/admin/users?q=example.com');
    await visit(page, '/admin/users/bob%40example.com/');

    await test.step("verify bob (a code of his token), then open each of his page's dialogs", async () => {
      const region = page.getByRole('region', { name: 'Verify the caller' });
      await region.getByLabel('Device they read the code from').selectOption({ label: tokenChoice('D100-0001') });
      await typeInto(page, 'Code they read out', await nextPasscode(BOB), region);
      await page.keyboard.press('Enter');
      await expect(region.getByRole('status').filter({ hasText: 'Verified by' })).toContainText('Verified by code at');
      await expectAccessible(page, "bob's page, verified");
      await checkDialog(page, 'Issue bypass codes', 'Issue bypass codes for bob@example.com');
      await checkDialog(page, `Resync “${tokenName('D100-0001')}”`, /^Resync/);
      await checkDialog(page, `Remove “${tokenName('D100-0001')}”`, /^Remove/);
    });

    await visit(page, '/admin/users/bob%40example.com/lost-device');
    await visit(page, '/admin/users/admin%40example.com/');
    await visit(page, '/admin/tokens');
    await visit(page, '/admin/audit');
    await visit(page, '/admin/no-such-page');
  });

  test('solution administrator: overview, tokens, audit log and their dialogs', async ({ page }) => {
    await openSignedIn(page, 'admin@example.com');
    await settled(page);
    await expectAccessible(page, "the solution administrator's overview");
    await visit(page, '/admin/users?q=example.com');
    await visit(page, '/admin/users/helpdesk%40example.com/');
    await visit(page, '/admin/users/admin%40example.com/');
    await visit(page, '/admin/tokens');
    if (!onDuo) {
      const table = page.getByRole('table', { name: 'Hardware tokens' });
      await expect(table).toContainText('D100-0002');
      await checkDialog(page, 'Unassign D100-0001', 'Unassign D100-0001?');
      await checkDialog(page, 'Retire D100-0002', 'Retire D100-0002?');
    }
    await visit(page, '/admin/audit');
    for (const path of ['/bypass-codes', '/activity', '/help', '/devices/add']) await visit(page, path);
  });
});
