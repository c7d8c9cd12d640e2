import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { openSignedIn, tokenName } from './helpers';
import { expectAccessible, followLink, pressButton, stepUpIfAsked, tabTo, typeInto, watchCsp } from './support/portal';
import { clipboardText } from './support/clipboard';

/**
 * Bypass codes as bob@ (his demo token D100-0001 answers sign-in and step-up): a validity over 7 days
 * is refused by the form (nothing sent) and by the API; two codes are created, shown once, copied and
 * downloaded; one is revoked. bob's devices are left as they are (other journeys expect them).
 */
const BOB = 'bob@example.com';

/** Starts listening for the portal's next API call; resolves to its bearer token. */
function bearerOfNextApiCall(page: Page): Promise<string> {
  return page.waitForRequest((r) => r.url().includes('/api/me/')).then((r) => (r.headers().authorization ?? '').replace(/^Bearer /, ''));
}

test('bob creates, copies and revokes bypass codes; more than 7 days is refused', { tag: '@both' }, async ({ page, context }) => {
  const csp = watchCsp(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openSignedIn(page, BOB);
  const token = bearerOfNextApiCall(page);
  await followLink(page, 'Bypass codes', page.getByRole('navigation', { name: 'Main' }));
  await expect(page.getByRole('heading', { level: 1, name: 'Bypass codes' })).toBeFocused();
  const list = page.getByRole('region', { name: 'Your bypass codes' });
  await expect(list.getByText(/You have no bypass codes|Code 1/).first()).toBeVisible();
  const before = await list.getByRole('listitem').count();
  await expectAccessible(page, 'the bypass-codes page');

  await test.step('a validity over 7 days is refused by the form, and nothing is sent', async () => {
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/me/bypass-codes')) posts.push(r.url());
    });
    // One code for a day, said in a sentence; the numbers are behind "More options".
    await expect(page.getByText('You will get 1 code. It works once and stays valid for 1 day.')).toBeVisible();
    await pressButton(page, 'More options');
    await typeInto(page, 'Number of hours or days the codes stay valid', '8');
    await pressButton(page, 'Create codes');
    await expect(page.getByText('Bypass codes can stay valid for at most 7 days. Please choose a shorter time.')).toBeVisible();
    await expectAccessible(page, 'the bypass form refusing 8 days');
    expect(posts).toEqual([]);
  });

  await test.step('the API refuses it too', async () => {
    const bearer = await token;
    const refused = await page.request.post('/api/me/bypass-codes', {
      headers: { authorization: `Bearer ${bearer}` },
      data: { count: 1, validitySeconds: 8 * 24 * 60 * 60, reuseCount: 1 }, // 8 days
    });
    expect(refused.status()).toBe(400);
    const body = (await refused.json()) as { code: string; details?: { field?: string } };
    expect(['request.invalid', 'bypass.validity_too_long']).toContain(body.code);
    expect(body.details?.field).toBe('validitySeconds');
  });

  await test.step('create two codes valid for 2 days (after confirming it is bob)', async () => {
    await typeInto(page, 'How many codes', '2');
    await typeInto(page, 'Number of hours or days the codes stay valid', '2');
    await pressButton(page, 'Create codes');
    const panel = page.getByRole('region', { name: 'Your 2 new bypass codes' });
    await stepUpIfAsked(page, BOB, panel);
    await expect(panel.getByRole('heading', { name: 'Your 2 new bypass codes' })).toBeFocused();
    await expect(panel).toContainText('This is the only time you will see these codes.');
    const codes = await panel.locator('.code-list code').allTextContents();
    expect(codes).toHaveLength(2);
    for (const code of codes) expect(code).toMatch(/^\d{3} \d{3} \d{3}$/);
    await expectAccessible(page, 'the new bypass codes');

    await pressButton(page, 'Copy the codes', panel);
    await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
    expect(await clipboardText(context, page)).toBe(codes.join('\n'));
    // The portal writes the clipboard but may not read it (Permissions-Policy: clipboard-read=()).
    await expect(page.evaluate(() => navigator.clipboard.readText())).rejects.toThrow(/permissions policy/);

    const download = page.waitForEvent('download');
    await pressButton(page, 'Download as a text file', panel);
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^bypass-codes-\d{4}-\d{2}-\d{2}\.txt$/);
    const text = fs.readFileSync(await file.path(), 'utf8');
    expect(text).toContain('Bypass codes for bob@example.com');
    for (const code of codes) expect(text).toContain(code);

    await pressButton(page, 'I have saved them', panel);
    await expect(panel).toBeHidden();
    await expect(page.getByText(codes[0]!)).toHaveCount(0);
  });

  await test.step('the list shows them (never the codes); revoking one leaves the other', async () => {
    await expect(list.getByRole('listitem')).toHaveCount(before + 2);
    const revoke = list.getByRole('button', { name: /^Revoke the code created/ }).last();
    await tabTo(page, revoke);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Revoke this bypass code?' });
    await expect(dialog.getByRole('button', { name: 'Keep it' })).toBeFocused();
    await pressButton(page, 'Revoke', dialog);
    // Gone from the list (the banner that says so lasts a few seconds only, which a busy machine can miss).
    await expect(list.getByRole('listitem')).toHaveCount(before + 1);
  });

  await test.step('the overview counts the live codes', async () => {
    await followLink(page, 'Overview', page.getByRole('navigation', { name: 'Main' }));
    await expect(page.getByRole('heading', { level: 1, name: /^Hello/ })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Bypass codes', exact: true })).toContainText(
      `You have ${before + 1} active bypass code`,
    );
    await expect(page.getByRole('heading', { level: 3, name: 'iPhone 15' })).toBeVisible();
    await expect(page.getByText(tokenName('D100-0001'))).toBeVisible();
  });
  expect(csp.violations()).toEqual([]);
});
