import { expect, test, type Page } from '@playwright/test';
import { onDuo, openSignedIn, signInAt, tokenName } from './helpers';
import { confirmSignOutAtProvider, followLink, pressButton } from './support/portal';

/**
 * The scripts and stylesheets a page of the portal fetches: not the identity provider's own pages, not
 * the service worker (registered by its own address, /service-worker.js, as the spec says).
 */
function watchAssets(page: Page, origin: string): Array<{ path: string; type: string }> {
  const assets: Array<{ path: string; type: string }> = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    const type = r.resourceType();
    if (url.origin !== origin || url.pathname.startsWith('/idp/') || url.pathname === '/service-worker.js') return;
    if (type === 'script' || type === 'stylesheet' || /\.(m?js|css)$/.test(url.pathname)) assets.push({ path: url.pathname, type });
  });
  return assets;
}

test.describe('signing in as a member of staff', { tag: '@both' }, () => {
  test('bob signs in through the identity provider and sees his devices', async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (r) => calls.push(new URL(r.url()).pathname));
    await page.goto('/');
    // The shell sends an unauthenticated visitor straight to the identity provider.
    await signInAt(page, 'bob@example.com');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Bob');
    await expect(page.getByRole('heading', { level: 3, name: 'iPhone 15' })).toBeVisible();
    await expect(page.getByText(tokenName('D100-0001'))).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
    // The shell's calls of the spec were made, in order.
    const i = (p: string) => calls.indexOf(p);
    expect(i('/settings/AADClientInfo')).toBeGreaterThanOrEqual(0);
    expect(i('/settings/APIInfo')).toBeGreaterThanOrEqual(0);
    expect(i('/account/getuserinfo')).toBeGreaterThan(i('/idp/token'));
    expect(calls).toContain('/locales/en/shell.json');
  });

  test('the lazily loaded chunks are fetched under static/js and static/css, and nothing from elsewhere', async ({ page, baseURL }) => {
    const assets = watchAssets(page, new URL(baseURL!).origin);
    await openSignedIn(page, 'bob@example.com');
    // A lazy route of its own (the phone page) on top of the lazily loaded main application. On the
    // builtin provider Add a device offers the portal's own app instead of phones by number, so the
    // phone page is opened by its address.
    await followLink(page, 'Add a device', page.getByRole('navigation', { name: 'Main' }));
    if (onDuo) await followLink(page, 'Add a phone', page.getByRole('main'));
    else await page.goto('/devices/add/phone');
    await expect(page.getByRole('heading', { level: 1, name: 'Add a phone' })).toBeVisible();

    // What index.html loads itself; every other script or stylesheet was loaded lazily.
    const html = await (await page.request.get('/')).text();
    const entry = new Set([...html.matchAll(/(?:src|href)="\.\/([^"]+\.(?:js|css))"/g)].map((m) => `/${m[1]}`));
    expect([...entry].some((p) => p.endsWith('.js'))).toBe(true);
    const lazy = assets.filter((a) => !entry.has(a.path));
    const lazyScripts = lazy.filter((a) => a.type === 'script' || a.path.endsWith('.js'));
    const lazyStyles = lazy.filter((a) => a.type === 'stylesheet' || a.path.endsWith('.css'));
    expect(lazyScripts.map((a) => a.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/static\/js\/AddPhonePage-[\w-]+\.js$/)]),
    );
    expect(lazyStyles.length, 'the main application brings its stylesheets lazily').toBeGreaterThan(0);
    // Every script the portal fetched (the entry and the lazy chunks) comes from static/js, every
    // stylesheet from static/css: no other place, no inline data.
    for (const { path, type } of assets) {
      if (type === 'script' || path.endsWith('.js')) expect(path, `script ${path}`).toMatch(/^\/static\/js\/[\w-]+\.js$/);
      else expect(path, `stylesheet ${path}`).toMatch(/^\/static\/css\/[\w-]+\.css$/);
    }
  });

  test('the profile call carries the spec query parameters and headers', async ({ page }) => {
    const req = page.waitForRequest((r) => r.url().includes('/account/getuserinfo'));
    await openSignedIn(page, 'bob@example.com');
    const request = await req;
    const url = new URL(request.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({
      userid: 'bob@example.com',
      email: 'bob@example.com',
      firstname: 'Bob',
      lastname: 'Brown',
    });
    const headers = await request.allHeaders();
    expect(headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(headers['content-type']).toBe('application/json');
    const claims = JSON.parse(Buffer.from(headers['x-client-claims'] ?? '', 'base64url').toString('utf8'));
    expect(claims).toMatchObject({ upn: 'bob@example.com', given_name: 'Bob', family_name: 'Brown' });
  });

  test('a reload keeps the session without a new login, and the portal starts once', async ({ page }) => {
    await openSignedIn(page, 'bob@example.com');
    const visitedLogin: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame() && f.url().includes('/idp/interaction/')) visitedLogin.push(f.url());
    });
    const calls: string[] = [];
    page.on('request', (r) => calls.push(new URL(r.url()).pathname));
    await page.reload();
    await expect(page.getByRole('heading', { level: 3, name: 'iPhone 15' })).toBeVisible();
    expect(visitedLogin).toEqual([]);
    // One start-up per page load (issue 16): each settings call and the profile call exactly once.
    await page.waitForLoadState('networkidle');
    const count = (p: string) => calls.filter((c) => c === p).length;
    expect([count('/settings/AADClientInfo'), count('/settings/APIInfo'), count('/account/getuserinfo')]).toEqual([1, 1, 1]);
  });

  test('sign-out ends at the logged-out page, and the next visit asks to sign in again', async ({ page }) => {
    let bearer = '';
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/account/getuserinfo') bearer = r.headers()['authorization'] ?? bearer;
    });
    await openSignedIn(page, 'bob@example.com');
    expect(bearer).toMatch(/^Bearer /);
    // From the keyboard; the identity provider asks to confirm ending the session (no script runs on its pages).
    await pressButton(page, 'Sign out');
    await confirmSignOutAtProvider(page);
    await page.waitForURL(/\/loggedout$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The access token the page held is refused by the API at once (sign-out revokes, issue 14).
    const copied = await page.request.get('/api/me/devices', { headers: { authorization: bearer } });
    expect(copied.status()).toBe(401);
    await page.goto('/');
    await page.waitForURL(/\/idp\/interaction\//);
    await expect(page.getByLabel('Username')).toBeVisible();
  });
});
