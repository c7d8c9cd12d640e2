import { expect, test } from '@playwright/test';
import { entra, openSignedIn, signInAtEntra } from './entra';

/**
 * Signing in, renewing and signing out in production mode: MSAL in the browser against an Entra
 * tenant (the stand-in), the portal checking Entra's tokens against the tenant's published keys.
 */
test('bob signs in through MSAL redirect at the Entra tenant and sees his first screen', async ({ page }) => {
  const calls: URL[] = [];
  page.on('request', (r) => calls.push(new URL(r.url())));
  await page.goto('/');
  await signInAtEntra(page, 'bob@example.com');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Bob');
  await expect(page.getByText('iPhone 15')).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/');

  const authorize = calls.find((u) => u.pathname.endsWith('/oauth2/v2.0/authorize'))!;
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('redirect_uri')).toBe(new URL('/', page.url()).toString());
  // The sign-in asks for the spec's scopes, with the portal's API scope to consent at once.
  const scopes = authorize.searchParams.get('scope')?.toLowerCase().split(' ') ?? [];
  expect(scopes).toEqual(
    expect.arrayContaining(['openid', 'offline_access', 'user.read', expect.stringMatching(/^api:\/\/.+\/access_as_user$/)]),
  );
  // MSAL trusted the configured authority: no instance discovery, no call to Microsoft's hosts.
  expect(calls.filter((u) => u.hostname !== 'localhost').map((u) => u.origin)).toEqual([]);
  const token = calls.findIndex((u) => u.pathname.endsWith('/oauth2/v2.0/token'));
  expect(token).toBeGreaterThanOrEqual(0);
  expect(calls.findIndex((u) => u.pathname === '/account/getuserinfo')).toBeGreaterThan(token);
});

test('the access token is renewed silently once it has expired, without the sign-in form', async ({ page }) => {
  await openSignedIn(page, 'alice@example.com');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Alice');
  const before = (await entra.issued('alice@example.com')).filter((t) => t.kind === 'api');
  expect(before.length).toBeGreaterThan(0);
  const lastExpiry = Math.max(...before.map((t) => t.exp));
  // Until every token issued so far has expired (the server would refuse each of them now).
  await page.waitForTimeout(Math.max(0, (lastExpiry + 2) * 1000 - Date.now()));

  const forms: string[] = [];
  page.on('framenavigated', (f) => {
    if (f.url().includes('/oauth2/v2.0/authorize')) forms.push(f.url());
  });
  const profile = page.waitForResponse((r) => r.url().includes('/account/getuserinfo'));
  await page.reload();
  expect((await profile).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Alice');
  expect(forms).toEqual([]);
  const renewed = (await entra.issued('alice@example.com')).filter(
    (t) => t.kind === 'api' && t.grant === 'refresh_token' && t.iat > lastExpiry,
  );
  expect(renewed.length).toBeGreaterThan(0);
});

test('sign-out goes through the tenant to /loggedout, and the next visit asks to sign in again', async ({ page }) => {
  await openSignedIn(page, 'carol@example.com');
  const logout = page.waitForRequest((r) => r.url().includes('/oauth2/v2.0/logout'));
  await page.getByRole('button', { name: 'Sign out' }).click();
  const url = new URL((await logout).url());
  expect(url.searchParams.get('post_logout_redirect_uri')).toBe(new URL('/loggedout', page.url()).toString());
  await page.waitForURL(/\/loggedout$/);
  await expect(page.getByRole('heading', { level: 1, name: 'You have signed out' })).toBeVisible();
  await page.goto('/');
  await page.waitForURL(/\/oauth2\/v2\.0\/authorize/);
  await expect(page.getByLabel('Password')).toBeVisible();
});
