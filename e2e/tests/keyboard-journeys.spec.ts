import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { expectFocusVisible, followLink, pressButton, tabTo } from './support/portal';

/**
 * Journeys with the keyboard alone: every control is reached with Tab (Shift+Tab) and used with Enter
 * or Space; no click. At each stop the focus must be visible (tabTo checks `:focus-visible` and its
 * outline or ring). The device, bypass-code, step-up and lost-device journeys (staff-*.spec.ts,
 * admin-lost-device.spec.ts) go through the same Tab-only helpers (pressButton, typeInto, followLink).
 *
 * These run with the full motion a person gets by default (antd's focus rings and menus animate); the
 * other journeys ask for reduced motion (playwright.config.ts).
 */
test.use({ reducedMotion: 'no-preference' });

test('sign-out with the keyboard alone, through the identity provider’s confirmation', async ({ page }) => {
  await openSignedIn(page, 'bob@example.com');
  // The first Tab stop is the skip link, then the navigation: the focus shows at each one.
  await page.keyboard.press('Tab');
  await expectFocusVisible(page);
  await page.keyboard.press('Tab');
  await expectFocusVisible(page);
  await pressButton(page, 'Sign out');
  await page.waitForURL(/\/idp\/session\/end/);
  await tabTo(page, page.getByRole('button', { name: /sign out/i }));
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/loggedout$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('the audit log exported as CSV with the keyboard alone', async ({ page }) => {
  await openSignedIn(page, 'admin@example.com');
  await followLink(page, 'Administration', page.getByRole('navigation', { name: 'Main' }));
  await expect(page.getByRole('heading', { level: 1, name: 'Find a user' })).toBeVisible();
  await followLink(page, 'Audit log');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await pressButton(page, 'Show events');
  await expect(page.getByRole('table', { name: 'Audit events, newest first' })).toBeVisible();
  const download = page.waitForEvent('download');
  await pressButton(page, 'Export as CSV');
  expect((await download).suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
});

test('the device actions of the overview answer Space as well as Enter, with a visible focus', { tag: '@both' }, async ({ page }) => {
  await openSignedIn(page, 'helpdesk@example.com');
  const check = page.getByRole('button', { name: /^Check it works: / }).first();
  await tabTo(page, check);
  await page.keyboard.press('Space');
  const dialog = page.getByRole('dialog', { name: /^Check that “.+” works$/ });
  await expect(dialog).toBeVisible();
  // The dialog puts the focus on its code field, visibly.
  await expect(dialog.getByLabel('Code from the device')).toBeFocused();
  await expectFocusVisible(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The focus goes back to the button that opened it.
  await expect(check).toBeFocused();
  await expectFocusVisible(page);
});
