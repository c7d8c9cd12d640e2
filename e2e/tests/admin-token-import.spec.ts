import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { justify } from './support/admin';
import { expectAccessible, pressButton, typeInto, watchCsp } from './support/portal';

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
