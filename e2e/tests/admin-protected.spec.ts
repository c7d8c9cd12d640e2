import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { bearerOfNextAdminCall, searchUser } from './support/admin';
import { expectAccessible, watchCsp } from './support/portal';

/**
 * What an administrator may not do: helpdesk@ can neither act on admin@ (a protected account) nor on
 * their own account through the administration screens; the screens say why, and the API refuses
 * calls made with helpdesk's own token. Staff (bob) are told the area is not for their role.
 */
const HELPDESK = 'helpdesk@example.com';

test('helpdesk cannot act on a protected account nor on their own; the API refuses both', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, HELPDESK);
  const bearer = bearerOfNextAdminCall(page);
  await searchUser(page, 'example.com');
  const results = page.getByRole('table', { name: 'Search results' });
  await expect(results.getByRole('row').filter({ hasText: 'admin@example.com' })).toContainText('Protected account');
  await expect(results.getByRole('row').filter({ hasText: 'helpdesk@example.com' })).toContainText('Your own account');

  await test.step('the protected account: the page says why', async () => {
    await results.getByRole('link', { name: 'Ada Admin' }).click();
    const note = page.getByRole('note');
    await expect(note).toContainText('Not available to you');
    await expect(note).toContainText('This account is protected');
    await expect(page.getByRole('button', { name: 'Issue bypass codes' })).toHaveCount(0);
    await expectAccessible(page, 'the protected account refused');
  });

  await test.step('the own account: the page says why and leads to the own overview', async () => {
    await page.goto('/admin/users/helpdesk%40example.com/');
    await expect(page.getByRole('note')).toContainText('This is your own account');
    await expect(page.getByRole('link', { name: 'Go to your own overview' })).toBeVisible();
    await expectAccessible(page, 'the own account refused');
  });

  await test.step("the API refuses both with helpdesk's own token, saying why", async () => {
    const token = await bearer;
    expect(token).not.toBe('');
    const body = { count: 1, validitySeconds: 3600, reason: 'Trying what the screens hide', ticket: 'TEST-1' };
    for (const [upn, reason] of [
      ['admin@example.com', 'protected_account'],
      [HELPDESK, 'own_account_via_admin'],
    ] as const) {
      const res = await page.request.post(`/api/admin/users/${encodeURIComponent(upn)}/bypass-codes`, {
        headers: { authorization: `Bearer ${token}` },
        data: body,
      });
      expect(res.status(), upn).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'auth.forbidden', details: { reason } });
    }
    const tokens = await page.request.get('/api/admin/tokens', { headers: { authorization: `Bearer ${token}` } });
    expect(tokens.status()).toBe(403);
  });
  expect(csp.violations()).toEqual([]);
});

test('staff do not see the administration area, and its addresses say it is not for their role', async ({ page }) => {
  await openSignedIn(page, 'bob@example.com');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' })).toHaveCount(0);
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Not available for your role' })).toBeVisible();
  await expectAccessible(page, 'the administration area refused to staff');
});

test('every administration screen fits 360 px and passes axe', { tag: '@both' }, async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openSignedIn(page, 'admin@example.com');
  for (const path of [
    '/admin/users?q=example.com',
    '/admin/users/erin%40example.com/',
    '/admin/users/erin%40example.com/lost-device',
    '/admin/tokens',
    '/admin/audit',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /^Loading|Searching/ })).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `horizontal scrolling on ${path} at 360 px`).toBeLessThanOrEqual(0);
    await expectAccessible(page, `${path} at 360 px`);
  }
});
