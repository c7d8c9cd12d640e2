import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'portal-demo';

/** Fills the embedded identity provider's login page (reached by the portal's own redirect). */
export async function signInAt(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
  await page.waitForURL(/\/idp\/interaction\//);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens `path` in the portal and signs in as `username` when the identity provider asks. */
export async function openSignedIn(page: Page, username: string, path = '/'): Promise<void> {
  await page.goto(path);
  await signInAt(page, username);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}
