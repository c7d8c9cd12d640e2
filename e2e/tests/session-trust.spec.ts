import { expect, test, type Page } from '@playwright/test';
import { openSignedIn } from './helpers';
import { answerStepUp, pressButton, stepUpDialog } from './support/portal';

/**
 * A step-up belongs to the browser session that earned it. bob signs in twice, in two browser contexts
 * (as a second browser, or a token copied from another sign-in, would be). He confirms it is him in the
 * first; the second is still asked, in the screens and at the API. Nothing of bob's is changed: adding
 * an authenticator app is only started (its QR code shown), never confirmed.
 */
const BOB = 'bob@example.com';

/** Starts adding an authenticator app; answers whether the portal asked to confirm it is bob first. */
async function startAddingApp(page: Page): Promise<'asked' | 'qr'> {
  await page.goto('/devices/add/authenticator');
  await expect(page.getByRole('heading', { level: 1, name: 'Add an authenticator app' })).toBeVisible();
  await pressButton(page, 'Show my QR code');
  const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  return Promise.race([
    stepUpDialog(page)
      .waitFor({ state: 'visible' })
      .then(() => 'asked' as const),
    qr.waitFor({ state: 'visible' }).then(() => 'qr' as const),
  ]);
}

/** The bearer token of the page's next API call. */
function bearerOfNextApiCall(page: Page): Promise<string> {
  return page.waitForRequest((r) => r.url().includes('/api/me/')).then((r) => (r.headers().authorization ?? '').replace(/^Bearer /, ''));
}

test('a step-up in one browser does not unlock another sign-in of the same person', async ({ page, browser }) => {
  const other = await browser.newContext({ ignoreHTTPSErrors: true });
  const second = await other.newPage();
  try {
    await openSignedIn(page, BOB);
    await openSignedIn(second, BOB);

    await test.step('the first browser confirms it is bob and goes on', async () => {
      expect(await startAddingApp(page)).toBe('asked');
      await answerStepUp(page, BOB);
      await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
    });

    await test.step('the second browser is still asked', async () => {
      expect(await startAddingApp(second)).toBe('asked');
      await second.keyboard.press('Escape');
      await expect(stepUpDialog(second)).toBeHidden();
    });

    await test.step('and the API refuses its token a sensitive change, with nothing created', async () => {
      const token = bearerOfNextApiCall(second);
      await second.goto('/bypass-codes');
      const bearer = await token;
      const before = await second.request.get('/api/me/bypass-codes', { headers: { authorization: `Bearer ${bearer}` } });
      expect(before.status()).toBe(200);
      const refused = await second.request.post('/api/me/bypass-codes', {
        headers: { authorization: `Bearer ${bearer}` },
        data: { count: 1, validitySeconds: 3600, reuseCount: 1 },
      });
      expect(refused.status()).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe('auth.step_up_required');
      const after = await second.request.get('/api/me/bypass-codes', { headers: { authorization: `Bearer ${bearer}` } });
      expect(await after.json()).toEqual(await before.json());
    });

    await test.step('the first browser is still trusted: no question asked again', async () => {
      expect(await startAddingApp(page)).toBe('qr');
    });
  } finally {
    await other.close();
  }
});
