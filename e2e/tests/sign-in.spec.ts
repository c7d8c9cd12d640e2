import { expect, test } from '@playwright/test';
import { openSignedIn, signInAt, tokenName } from './helpers';

test.describe('signing in as a member of staff', { tag: '@both' }, () => {
  test('bob signs in through the identity provider and sees his devices', async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (r) => calls.push(new URL(r.url()).pathname));
    await page.goto('/');
    // The shell sends an unauthenticated visitor straight to the identity provider.
    await signInAt(page, 'bob@example.com');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Bob');
    await expect(page.getByText('iPhone 15')).toBeVisible();
    await expect(page.getByText(tokenName('D100-0001'))).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
    // The shell's calls of the spec were made, in order.
    const i = (p: string) => calls.indexOf(p);
    expect(i('/settings/AADClientInfo')).toBeGreaterThanOrEqual(0);
    expect(i('/settings/APIInfo')).toBeGreaterThanOrEqual(0);
    expect(i('/account/getuserinfo')).toBeGreaterThan(i('/idp/token'));
    expect(calls).toContain('/locales/en/shell.json');
  });

  test('the profile call carries the spec query parameters and headers', async ({ page }) => {
    const req = page.waitForRequest((r) => r.url().includes('/account/getuserinfo'));
    await openSignedIn(page, 'bob@example.com');
    const request = await req;
    const url = new URL(request.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ userid: 'bob@example.com', email: 'bob@example.com', firstname: 'Bob', lastname: 'Brown' });
    const headers = await request.allHeaders();
    expect(headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(headers['content-type']).toBe('application/json');
    const claims = JSON.parse(Buffer.from(headers['x-client-claims'] ?? '', 'base64url').toString('utf8'));
    expect(claims).toMatchObject({ upn: 'bob@example.com', given_name: 'Bob', family_name: 'Brown' });
  });

  test('a reload keeps the session without a new login', async ({ page }) => {
    await openSignedIn(page, 'bob@example.com');
    const visitedLogin: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame() && f.url().includes('/idp/interaction/')) visitedLogin.push(f.url());
    });
    await page.reload();
    await expect(page.getByText('iPhone 15')).toBeVisible();
    expect(visitedLogin).toEqual([]);
  });

  test('sign-out ends at the logged-out page, and the next visit asks to sign in again', async ({ page }) => {
    await openSignedIn(page, 'bob@example.com');
    await page.getByRole('button', { name: 'Sign out' }).click();
    // The identity provider asks to confirm ending the session (no script runs on its pages).
    await page.waitForURL(/\/idp\/session\/end/);
    await page.getByRole('button', { name: /sign out/i }).click();
    await page.waitForURL(/\/loggedout$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto('/');
    await page.waitForURL(/\/idp\/interaction\//);
    await expect(page.getByLabel('Username')).toBeVisible();
  });
});
