import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { answerPasscode, DEMO_PASSWORD, demoTokenSeed, hotp, nextPasscode, onDuo, rememberAuthenticator, signInAt } from './helpers';
import { signOut } from './support/portal';

/**
 * Issue 3's journey: alice (no device yet) signs in with her password, enrols an authenticator app
 * (the test computes its codes from the secret), and from then on must give a passcode after the
 * password; a single-use bypass code works once at sign-in, then no more.
 *
 * The authenticator is enrolled and the bypass code created through the real self-service API, with
 * the bearer token the portal itself sent to /account/getuserinfo. On Duo, which enrols no
 * authenticator apps, alice's first device is the demo token D100-0008 instead (claimed through the
 * same API with two codes), and every code is checked by Duo's Auth API.
 */

const ALICE = 'alice@example.com';
const DUO_SERIAL = 'D100-0008';

/** The claims of a JWT, unverified (the server verified it; this reads what the portal received). */
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** Starts listening for the portal's profile call; resolves to its bearer token. */
function bearerFromProfileCall(page: Page): Promise<string> {
  return page
    .waitForRequest((r) => r.url().includes('/account/getuserinfo'))
    .then((r) => {
      const header = r.headers().authorization ?? '';
      expect(header).toMatch(/^Bearer /);
      return header.slice('Bearer '.length);
    });
}

async function api(request: APIRequestContext, token: string, method: 'GET' | 'POST', path: string, data?: unknown) {
  const res = await request.fetch(path, { method, headers: { authorization: `Bearer ${token}` }, ...(data === undefined ? {} : { data }) });
  const body: unknown = res.headers()['content-type']?.includes('json') ? await res.json() : await res.text();
  return { status: res.status(), body: body as Record<string, unknown> };
}

/** Goes to the portal, gives alice's password and waits for the Passcode page. */
async function passwordThenPasscodePage(page: Page) {
  await page.goto('/');
  await signInAt(page, ALICE, DEMO_PASSWORD, { secondFactor: 'none' });
  await expect(page.getByLabel('Passcode')).toBeVisible();
  await expect(page).toHaveURL(/\/idp\/interaction\/[A-Za-z0-9_-]+$/);
  await expect(page.getByText('Enter the 6-digit code from your authenticator app or hardware token, or a bypass code')).toBeVisible();
  await expect(page.getByLabel('Passcode')).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(page.getByLabel('Passcode')).toHaveAttribute('inputmode', 'numeric');
}

test(
  'alice enrols an authenticator app, then must give a passcode to sign in; a bypass code works once',
  { tag: '@both' },
  async ({ page }) => {
    // Up to one wait for a fresh TOTP step (30 s) besides five sign-ins.
    test.setTimeout(180_000);

    const token = await test.step('sign in with the password only (no device yet)', async () => {
      const bearer = bearerFromProfileCall(page);
      await page.goto('/');
      await signInAt(page, ALICE, DEMO_PASSWORD, { secondFactor: 'none' });
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
      const accessToken = await bearer;
      expect(claimsOf(accessToken)).toMatchObject({ upn: ALICE, amr: ['pwd'] });
      return accessToken;
    });

    await test.step(
      onDuo
        ? `claim the token ${DUO_SERIAL} through the API with two codes`
        : 'enrol an authenticator app through the API, confirmed with a computed code',
      async () => {
        if (onDuo) {
          const codes = [0, 1].map((n) => hotp(demoTokenSeed(DUO_SERIAL), n));
          const claimed = await api(page.request, token, 'POST', '/api/me/devices/hardware-token', { serial: DUO_SERIAL, codes });
          expect(claimed.status, JSON.stringify(claimed.body)).toBe(201);
          rememberAuthenticator(ALICE, { kind: 'hotp', serial: DUO_SERIAL, nextCounter: 2 });
          return;
        }
        const started = await api(page.request, token, 'POST', '/api/me/devices/authenticator');
        expect(started.status, JSON.stringify(started.body)).toBe(201);
        const { enrolmentId, secret, otpauthUri } = started.body as { enrolmentId: string; secret: string; otpauthUri: string };
        expect(otpauthUri).toContain(`secret=${secret}`);
        rememberAuthenticator(ALICE, { kind: 'totp', secret, lastStep: -1 });
        const confirmed = await api(page.request, token, 'POST', `/api/me/devices/authenticator/${enrolmentId}/confirm`, {
          code: await nextPasscode(ALICE),
          name: 'Authenticator app',
        });
        expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
        const devices = await api(page.request, token, 'GET', '/api/me/devices');
        expect(JSON.stringify(devices.body)).toContain('Authenticator app');
      },
    );

    await test.step('sign out', async () => {
      await signOut(page);
    });

    const mfaToken =
      await test.step(`sign in again: password, then the Passcode page with a ${onDuo ? 'token' : 'TOTP'} code`, async () => {
        const bearer = bearerFromProfileCall(page);
        await passwordThenPasscodePage(page);
        await answerPasscode(page, await nextPasscode(ALICE));
        await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
        const accessToken = await bearer;
        expect(claimsOf(accessToken)).toMatchObject({ upn: ALICE, amr: ['pwd', 'mfa'] });
        return accessToken;
      });

    const bypassCode = await test.step('create a single-use bypass code (after confirming it is alice with a passcode)', async () => {
      const stepUp = await api(page.request, mfaToken, 'POST', '/api/me/step-up', { method: 'passcode', code: await nextPasscode(ALICE) });
      expect(stepUp.status, JSON.stringify(stepUp.body)).toBe(200);
      const created = await api(page.request, mfaToken, 'POST', '/api/me/bypass-codes', {
        count: 1,
        validitySeconds: 3600,
        reuseCount: 1,
        replaceExisting: false,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const [first] = (created.body as { codes: Array<{ code: string; usesLeft: number }> }).codes;
      expect(first).toMatchObject({ code: expect.stringMatching(/^\d{3} \d{3} \d{3}$/), usesLeft: 1 });
      return first!.code;
    });

    await test.step('sign out, then sign in with the bypass code: it works', async () => {
      await signOut(page);
      const bearer = bearerFromProfileCall(page);
      await passwordThenPasscodePage(page);
      await answerPasscode(page, bypassCode);
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
      expect(claimsOf(await bearer)).toMatchObject({ upn: ALICE, amr: ['pwd', 'mfa'] });
    });

    await test.step('sign out, then the same bypass code is refused', async () => {
      await signOut(page);
      await passwordThenPasscodePage(page);
      await answerPasscode(page, bypassCode);
      await expect(page.getByRole('alert')).toHaveText('That code was not accepted. Check it and try again.');
      await expect(page).toHaveURL(/\/idp\/interaction\//);
      await expect(page.getByLabel('Passcode')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Verify' })).toBeVisible();
    });
  },
);
