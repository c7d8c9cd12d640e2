import { expect, test } from '@playwright/test';
import { answerPasscode, nextPasscode, onDuo, openSignedIn, signInAt } from './helpers';
import { justify, searchUser, showActivity, tokenChoice } from './support/admin';
import { chooseOption, expectAccessible, followLink, pressButton, typeInto, watchCsp } from './support/portal';

/**
 * The service desk at work: helpdesk@ finds bob, verifies him with a code of his token (D100-0001,
 * computed as the token would show it), issues him one bypass code with a reason and a ticket, and
 * reads it out; bob then signs in with that code, and his activity shows what the service desk did.
 */
const HELPDESK = 'helpdesk@example.com';
const BOB = 'bob@example.com';
const REASON = 'Bob left his token at home; verified with a code of his token';
const TICKET = 'INC-5001';

test(
  'helpdesk verifies bob, issues him a bypass code, and bob signs in with it and sees it in his activity',
  { tag: '@both' },
  async ({ page: desk, browser }) => {
    const csp = watchCsp(desk);
    await openSignedIn(desk, HELPDESK);

    await test.step('find bob', async () => {
      await searchUser(desk, 'brown');
      await expectAccessible(desk, 'the user search results');
      await followLink(desk, 'Bob Brown');
      await expect(desk.getByRole('heading', { level: 1, name: 'Bob Brown' })).toBeFocused();
      await expect(desk.getByRole('region', { name: 'Status' })).toContainText('Active');
      await expectAccessible(desk, "bob's page");
    });

    await test.step('verify him: a wrong code, then a code of his token', async () => {
      const region = desk.getByRole('region', { name: 'Verify the caller' });
      // The page's one line about the verification in force (the code's failure has its own, beside the form).
      const summary = region.getByRole('status').filter({ hasText: /^(Not verified yet|✓ Verified)/ });
      await chooseOption(desk, 'Device they read the code from', tokenChoice('D100-0001'), region);
      await typeInto(desk, 'Code they read out', '000000', region);
      await desk.keyboard.press('Enter');
      await expect(region.getByText('Not verified', { exact: true })).toBeVisible();
      await expect(region.getByText('That code is not correct.')).toBeVisible();
      await expect(summary).toContainText('Not verified yet');
      await typeInto(desk, 'Code they read out', await nextPasscode(BOB), region);
      await desk.keyboard.press('Enter');
      await expect(summary).toContainText(/Verified by code at .+, until .+\./);
      // The actions it unlocked take the focus.
      await expect(desk.getByRole('heading', { level: 2, name: 'Devices and codes' })).toBeFocused();
    });

    let code = '';
    await test.step('issue one bypass code with a reason and a ticket; it is shown once', async () => {
      await pressButton(desk, 'Issue bypass codes');
      const dialog = desk.getByRole('dialog', { name: 'Issue bypass codes for bob@example.com' });
      await expect(dialog.getByLabel('How many codes')).toBeFocused();
      await typeInto(desk, 'Number of hours or days the codes stay valid', '8', dialog);
      await pressButton(desk, 'Issue the codes', dialog);
      await expect(dialog.getByText('Bypass codes can stay valid for at most 7 days. Please choose a shorter time.')).toBeVisible();
      await expect(dialog.getByText('Please say why you are doing this.')).toBeVisible();
      await expectAccessible(desk, 'the issue dialog refusing 8 days');
      await typeInto(desk, 'Number of hours or days the codes stay valid', '1', dialog);
      await justify(desk, REASON, TICKET, dialog);
      await pressButton(desk, 'Issue the codes', dialog);
      const panel = desk.getByRole('region', { name: 'New bypass code for bob@example.com' });
      await expect(panel.getByRole('heading')).toBeFocused();
      code = ((await panel.locator('.code-list code').first().textContent()) ?? '').trim();
      expect(code).toMatch(/^\d{3} \d{3} \d{3}$/);
      await expectAccessible(desk, 'the new code for bob');
      await pressButton(desk, 'I have passed them on', panel);
      await expect(panel).toBeHidden();
      await expect(desk.getByRole('table', { name: /Live bypass codes/ })).toContainText(
        // Duo records who made a code as its Admin API integration; the portal's audit log says who it was.
        onDuo ? 'Duo Admin API' : 'helpdesk@example.com',
      );
      await showActivity(desk);
      await expect(desk.getByRole('table', { name: /latest events about bob@example.com/ })).toContainText(TICKET);
    });
    expect(csp.violations()).toEqual([]);

    await test.step('bob signs in with the code, and his activity shows what the service desk did', async () => {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      await page.goto('/activity');
      await signInAt(page, BOB, undefined, { secondFactor: 'none' });
      await answerPasscode(page, code);
      await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
      const issued = page
        .getByRole('list', { name: 'Your activity, newest first' })
        .locator(':scope > li')
        .filter({ hasText: 'created 1 bypass code for you' });
      await expect(issued.locator('.timeline__what')).toHaveText('The service desk (helpdesk@example.com) created 1 bypass code for you');
      await expectAccessible(page, "bob's activity");
      await context.close();
    });
  },
);
