import { expect, test } from '@playwright/test';
import { openSignedIn } from './entra';

/**
 * The administration area by Entra app role VALUE: helpdesk@ holds Helpdesk.Administrator in the
 * token's roles claim (the portal's default in entra mode), acts on staff, and is refused a protected
 * account (admin@, Solution.Administrator).
 */
async function findUser(page: import('@playwright/test').Page, query: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Find a user' })).toBeVisible();
  await page.getByLabel('Name, sign-in name or e-mail').fill(query);
  await page.keyboard.press('Enter');
  const results = page.getByRole('table', { name: 'Search results' });
  await expect(results).toBeVisible();
  return results;
}

test('a Helpdesk.Administrator opens a member of staff, and is refused a protected account', async ({ page }) => {
  await openSignedIn(page, 'helpdesk@example.com');
  let results = await findUser(page, 'erin');
  await results.getByRole('link', { name: 'Erin Ellis' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Erin Ellis');
  await expect(page.getByRole('list').getByText('Old phone')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Issue bypass codes' })).toBeVisible();

  results = await findUser(page, 'example.com');
  await expect(results.getByRole('row').filter({ hasText: 'admin@example.com' })).toContainText('Protected account');
  await results.getByRole('link', { name: 'Ada Admin' }).click();
  const note = page.getByRole('note');
  await expect(note).toContainText('This account is protected');
  await expect(page.getByRole('button', { name: 'Issue bypass codes' })).toHaveCount(0);
});

test('staff (no app role) see no administration area', async ({ page }) => {
  await openSignedIn(page, 'frank@example.com');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Frank');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' })).toHaveCount(0);
});
