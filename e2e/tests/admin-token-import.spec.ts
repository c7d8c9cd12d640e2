import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { justify } from './support/admin';
import { expectAccessible, followLink, pressButton, typeInto, watchCsp } from './support/portal';

/**
 * admin@ (Solution Administrator) imports a seed file of two new D100 tokens, one of them with a bad
 * seed: the good one is imported, the bad one refused with the reason; the new token is listed.
 */
const ADMIN = 'admin@example.com';

test('admin imports a token CSV with one bad row and sees it refused with the reason', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, ADMIN);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).click();
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Hardware tokens' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hardware tokens' })).toBeFocused();
  await expect(page.getByRole('table', { name: 'Hardware tokens' })).toContainText('D100-0001');
  await expectAccessible(page, 'the token inventory');

  const csv = ['serial,seed', `D100-8001,${'ab'.repeat(20)}`, 'D100-8002,this-is-not-hex', ''].join('\n');
  await page.getByLabel('Seed file (CSV)').setInputFiles({ name: 'tokens.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await justify(page, 'New tokens from the supplier', 'CHG-2001');
  await pressButton(page, 'Import');
  await expect(page.getByText('1 token imported')).toBeVisible();
  await expect(page.getByText('1 row was refused.')).toBeVisible();
  const refused = page.getByRole('table', { name: 'Refused rows' });
  await expect(refused.getByRole('row').nth(1)).toContainText('3');
  await expect(refused.getByRole('row').nth(1)).toContainText('D100-8002');
  await expect(refused.getByRole('row').nth(1)).toContainText('The seed must be hexadecimal');
  await expectAccessible(page, 'the import report');

  await typeInto(page, 'Serial or holder', 'D100-80');
  await pressButton(page, 'Show');
  const list = page.getByRole('table', { name: 'Hardware tokens' });
  await expect(list.getByRole('row')).toHaveCount(2);
  await expect(list).toContainText('D100-8001');
  await expect(list).toContainText('Available');
  expect(csp.violations()).toEqual([]);
});

/**
 * On Duo the token inventory is Duo's own (the portal keeps no seeds; GET /api/admin/tokens answers 409):
 * the page says where tokens are managed, with no error and no import, and leads back to the users.
 */
test('on Duo, the token inventory page says the tokens are managed at Duo', { tag: '@duo' }, async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, ADMIN);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).click();
  const list = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === '/api/admin/tokens');
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Hardware tokens' }).click();
  expect((await list).status()).toBe(409);
  await expect(page.getByRole('heading', { level: 1, name: 'Hardware tokens' })).toBeFocused();
  const note = page.getByRole('note');
  await expect(note).toContainText("Hardware tokens are managed in your organisation's multi-factor service");
  await expect(note).toContainText('with Duo, in the Duo Admin Panel');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Import' })).toHaveCount(0);
  await expect(page.getByLabel('Seed file (CSV)')).toHaveCount(0);
  await expectAccessible(page, 'the token inventory kept at Duo');
  await followLink(page, 'Find a user', note);
  await expect(page.getByRole('heading', { level: 1, name: 'Find a user' })).toBeVisible();
  expect(csp.violations()).toEqual([]);
});
