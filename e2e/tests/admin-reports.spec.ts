import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { expectAccessible, followLink, pressButton, watchCsp } from './support/portal';

/**
 * The reports as admin@ (Solution Administrator) reads them on the builtin provider: enrolment
 * coverage with its chart (and the chart's text alternative), the lists, and one of them downloaded
 * as CSV. The figures checked are the demo data's that no other journey changes: disabled@ is disabled,
 * nomfa@ has no MFA account. Everything is reached from the keyboard.
 */
const ADMIN = 'admin@example.com';

test('admin reads the enrolment reports and downloads a list as CSV', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, ADMIN);

  await test.step('open the reports from the administration navigation', async () => {
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { level: 1, name: 'Find a user' })).toBeVisible();
    await followLink(page, 'Reports', page.getByRole('navigation', { name: 'Administration' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeFocused();
  });

  await test.step('coverage: figures, a chart with a text alternative', async () => {
    const headline = page.getByText(/^\d+ of \d+ staff \(\d+(\.\d)?%\) have at least one device\.$/);
    await expect(headline).toBeVisible();
    const [, covered, staff] = /^(\d+) of (\d+)/.exec((await headline.textContent()) ?? '') ?? [];
    // The fourteen demo staff (README), and any that an earlier journey provisioned.
    expect(Number(staff)).toBeGreaterThanOrEqual(14);
    expect(Number(covered)).toBeGreaterThan(0);
    expect(Number(covered)).toBeLessThan(Number(staff));
    const chart = page.getByRole('img', { name: /share of staff with at least one device/ });
    await expect(chart).toBeVisible();
    await expect(chart.locator('svg.recharts-surface').first()).toBeVisible();
    await expect(page.getByRole('table', { name: 'Share of staff by kind of device, day by day', includeHidden: true })).toBeAttached();
  });

  await test.step('the lists show the demo data', async () => {
    const locked = page.getByRole('table', { name: 'Locked or disabled accounts, by sign-in name' });
    await expect(locked.getByRole('row').filter({ hasText: 'disabled@example.com' })).toContainText('Disabled');
    const without = page.getByRole('table', { name: 'Staff without a device, by sign-in name' });
    await expect(without.getByRole('row').filter({ hasText: 'nomfa@example.com' })).toContainText('No MFA account yet');
    // The security e-mail outbox: this portal sends to the suite's SMTP server (e2e/mailbox.setup.ts).
    await expect(page.getByRole('region', { name: 'Security e-mail', exact: true })).toContainText('Staff are told by e-mail');
    // Audit to a SIEM: neither stream is configured in this lane.
    await expect(page.getByRole('region', { name: 'Audit to a SIEM', exact: true })).toContainText('Audit to a SIEM is switched off');
    await expectAccessible(page, 'the reports');
  });

  await test.step('download the locked or disabled accounts as CSV', async () => {
    const download = page.waitForEvent('download');
    await pressButton(page, 'Download “Locked or disabled accounts” as CSV');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^locked-or-disabled-accounts-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = fs
      .readFileSync(await file.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('"upn","displayName","status","reason","lockedUntil","since"');
    expect(lines.some((l) => l.startsWith('"disabled@example.com",') && l.includes('"disabled"'))).toBe(true);
  });

  expect(csp.violations()).toEqual([]);
});
