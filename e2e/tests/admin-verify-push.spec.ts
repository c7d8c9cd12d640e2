import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { answerVerificationPush, verificationPushesOf, verificationPushIds } from './support/duo-standin';
import { showActivity } from './support/admin';
import { expectAccessible, pressButton, watchCsp } from './support/portal';

/**
 * The service desk verifies a caller with a verification push (Duo only, tag @duo):
 * helpdesk@ sends one to bob's phone, the page shows the confirmation code the phone shows (bob reads it
 * back), bob approves: verified. A second push, denied: not verified, said plainly. What bob does on his
 * phone, the test does at the Duo stand-in (support/duo-standin.ts).
 */
const HELPDESK = 'helpdesk@example.com';
const BOB = 'bob@example.com';

test('helpdesk verifies bob with a verification push: approved, then denied', { tag: '@duo' }, async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, HELPDESK);
  await page.goto('/admin/users/bob%40example.com/');
  await expect(page.getByRole('heading', { level: 1, name: 'Bob Brown' })).toBeVisible();
  const region = page.getByRole('region', { name: 'Verify the caller' });
  await expect(region.getByRole('heading', { name: 'Send a verification push' })).toBeVisible();
  await expect(region.getByLabel('Phone to send the push to').locator('option:checked')).toHaveText(/^iPhone 15/);
  await expectAccessible(page, 'the verification push offered');

  await test.step('approved: the code on the phone is the one shown here, and bob is verified', async () => {
    const before = await verificationPushIds(BOB);
    await pressButton(page, 'Send a verification push', region);
    const code = region.getByRole('group', { name: 'Confirmation code' });
    await expect(code).toBeVisible();
    await expect(region.getByText(/Waiting for the caller to approve the push on “iPhone 15”/)).toBeVisible();
    await expectAccessible(page, 'a verification push waiting, with its code');
    // Bob reads back the code his phone shows: the one on the page.
    await expect.poll(async () => (await verificationPushesOf(BOB)).filter((p) => !before.includes(p.pushId)).length).toBe(1);
    const onPhone = (await verificationPushesOf(BOB)).find((p) => !before.includes(p.pushId))!;
    expect(onPhone).toMatchObject({ phone: 'iPhone 15', result: 'waiting', confirmationCode: expect.stringMatching(/^\d{6}$/) });
    await expect(code).toContainText(onPhone.confirmationCode);
    const sent = await answerVerificationPush(BOB, 'iPhone 15', 'approve', before);
    expect(sent.pushId).toBe(onPhone.pushId);
    // Said once, in the page's line about the verification in force; the forms fold away.
    await expect(region.getByRole('status').filter({ hasText: 'Verified by' })).toContainText(/Verified by push at .+, until .+\./);
    await expect(code).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2, name: 'Devices and codes' })).toBeFocused();
    await expectAccessible(page, 'a verification push approved');
  });

  await test.step('denied: not verified, said plainly', async () => {
    const before = await verificationPushIds(BOB);
    await pressButton(page, 'Check again', region);
    await pressButton(page, 'Send a verification push', region);
    const code = region.getByRole('group', { name: 'Confirmation code' });
    await expect(code).toBeVisible();
    const sent = await answerVerificationPush(BOB, 'iPhone 15', 'deny', before);
    await expect(code).toHaveCount(0);
    expect((await verificationPushesOf(BOB)).find((p) => p.pushId === sent.pushId)?.result).toBe('deny');
    await expect(region.getByText('Not verified: the push was denied')).toBeVisible();
    await expect(region.getByText(/The push was denied on “iPhone 15”, so the caller is not verified\./)).toBeVisible();
    await expectAccessible(page, 'a verification push denied');
  });

  await test.step("the checks are on bob's page", async () => {
    await showActivity(page);
    const activity = page.getByRole('table', { name: /latest events about bob@example.com/ });
    await expect(activity).toContainText('Identity check');
  });
  expect(csp.violations()).toEqual([]);
});
