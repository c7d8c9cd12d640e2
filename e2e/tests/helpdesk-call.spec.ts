import { expect, test, type Page } from '@playwright/test';
import { demoAuthenticatorSecret, nextPasscode, openSignedIn, rememberAuthenticator } from './helpers';
import { chooseOption, expectAccessible, expectFocusVisible, followLink, pressButton, typeInto, watchCsp } from './support/portal';

/**
 * A helpdesk call as the service desk takes it, with the keyboard alone at 1280×800: helpdesk@ finds
 * lena (two authenticator apps, nobody else's journey), sees who she is on a short page, follows
 * "Verify identity first" without leaving it, types the call's ticket and reason once, checks a wrong
 * code (one failure) then a right one (the actions unlock in view and take the focus), issues her a
 * bypass code, and finds the reason and ticket already in the lost-device wizard. Then her page on a
 * phone (390×844), top to bottom. axe on each screen.
 */
const HELPDESK = 'helpdesk@example.com';
const LENA = 'lena@example.com';
const LENA_PAGE = '/admin/users/lena%40example.com/';
const TICKET = 'INC-7301';
const REASON = 'Lena cannot find her work phone';

const documentHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);
const pathOf = (page: Page) => new URL(page.url()).pathname;

test('a helpdesk call with the keyboard alone: find, verify, act, and the wizard keeps the call', async ({ page: desk }) => {
  await desk.setViewportSize({ width: 1280, height: 800 });
  rememberAuthenticator(LENA, { kind: 'totp', secret: demoAuthenticatorSecret(LENA, 'Work phone'), lastStep: 0 });
  const csp = watchCsp(desk);
  await openSignedIn(desk, HELPDESK);

  await test.step('find lena', async () => {
    await followLink(desk, 'Administration', desk.getByRole('navigation', { name: 'Main' }));
    await expect(desk.getByRole('heading', { level: 1, name: 'Find a user' })).toBeVisible();
    await typeInto(desk, 'Name, sign-in name or e-mail', 'lena');
    await desk.keyboard.press('Enter');
    await followLink(desk, 'Lena Lund', desk.getByRole('table', { name: 'Search results' }));
    await expect(desk.getByRole('heading', { level: 1, name: 'Lena Lund' })).toBeFocused();
  });

  const region = desk.getByRole('region', { name: 'Verify the caller' });
  const actionsHeading = desk.getByRole('heading', { level: 2, name: 'Devices and codes' });
  await test.step('her page before the check: who she is, short, the actions locked once', async () => {
    const status = desk.getByRole('region', { name: 'Status' });
    await expect(status).toContainText('Active');
    await expect(status).toContainText('Protected accountNo');
    await expect(status).toContainText('Work phone, Tablet');
    await expect(desk.getByRole('button', { name: 'Issue bypass codes' })).toBeDisabled();
    await expect(desk.getByText(/Verify identity first/)).toHaveCount(1);
    expect(await documentHeight(desk)).toBeLessThanOrEqual(1600);
    // The account's own actions come last, not first.
    const buttons = desk.getByRole('main').getByRole('button');
    await expect(buttons.first()).not.toHaveText('Disable the account');
    await expect(buttons.last()).toHaveText('Disable the account');
    await expectAccessible(desk, "lena's page before the check");
  });

  await test.step('"Verify identity first" moves to the verification and stays on the page', async () => {
    const before = pathOf(desk);
    await followLink(desk, 'Verify identity first');
    await expect(desk.getByRole('heading', { level: 2, name: 'Verify the caller' })).toBeFocused();
    await expectFocusVisible(desk);
    expect(pathOf(desk)).toBe(before);
    await expect(desk.getByRole('heading', { level: 1, name: 'Lena Lund' })).toBeVisible();
  });

  await test.step('the call typed once; a wrong code fails, once', async () => {
    await typeInto(desk, 'Ticket reference', TICKET, region);
    await typeInto(desk, 'Reason', REASON, region);
    await chooseOption(desk, 'Device they read the code from', 'Work phone', region);
    await typeInto(desk, 'Code they read out', '000000', region);
    await desk.keyboard.press('Enter');
    await expect(region.getByText('Not verified', { exact: true })).toBeVisible();
    await expect(desk.getByText('Not verified', { exact: true })).toHaveCount(1);
    await expect(region.getByText('That code is not correct.')).toHaveCount(1);
    await expect(region.getByText(/^Verified by/)).toHaveCount(0);
    await expect(desk.getByRole('button', { name: 'Issue bypass codes' })).toBeDisabled();
  });

  await test.step('a right code: said once, the forms fold, the actions unlock in view and take the focus', async () => {
    await typeInto(desk, 'Code they read out', await nextPasscode(LENA), region);
    await desk.keyboard.press('Enter');
    await expect(region.getByRole('status').filter({ hasText: 'Verified by' })).toContainText(
      new RegExp(`^✓ Verified by code at .+, until .+ \\(ticket ${TICKET}\\)\\.$`),
    );
    await expect(desk.getByText(/Verified by code/)).toHaveCount(1);
    await expect(region.getByLabel('Code they read out')).toHaveCount(0);
    await expect(actionsHeading).toBeFocused();
    await expectFocusVisible(desk);
    await expect(actionsHeading).toBeInViewport();
    const issue = desk.getByRole('button', { name: 'Issue bypass codes' });
    await expect(issue).toBeEnabled();
    await expect(issue).toBeInViewport();
    await expect(desk.getByRole('button', { name: 'Remove “Work phone”' })).toBeInViewport();
    await expect(desk.getByText(/Verify identity first/)).toHaveCount(0);
    await expectAccessible(desk, "lena's page, verified");
  });

  await test.step('issue her a bypass code: the reason and ticket are already there', async () => {
    await pressButton(desk, 'Issue bypass codes');
    const dialog = desk.getByRole('dialog', { name: `Issue bypass codes for ${LENA}` });
    await expect(dialog.getByLabel('Reason')).toHaveValue(REASON);
    await expect(dialog.getByLabel('Ticket reference')).toHaveValue(TICKET);
    await pressButton(desk, 'Issue the codes', dialog);
    const panel = desk.getByRole('region', { name: `New bypass code for ${LENA}` });
    await expect(panel.getByRole('heading')).toBeFocused();
    await expect(panel.locator('.code-list code').first()).toHaveText(/^\d{3} \d{3} \d{3}$/);
    await pressButton(desk, 'I have passed them on', panel);
    await expect(panel).toBeHidden();
    await expect(desk.getByRole('table', { name: /Live bypass codes/ })).toContainText(HELPDESK);
  });

  await test.step('the lost-device wizard carries the call on: verified, reason and ticket filled in', async () => {
    await followLink(desk, 'Lost device wizard');
    await expect(desk.getByRole('heading', { name: 'Step 2: Remove the lost device' })).toBeVisible();
    await expect(desk.getByLabel('Reason')).toHaveValue(REASON);
    await expect(desk.getByLabel('Ticket reference')).toHaveValue(TICKET);
    await expectAccessible(desk, 'the wizard with the call carried on');
    await followLink(desk, "Back to the user's page");
    await expect(desk.getByRole('heading', { level: 1, name: 'Lena Lund' })).toBeVisible();
    await expect(region.getByRole('status').filter({ hasText: 'Verified by' })).toContainText('Verified by code');
  });

  await test.step("another demo user's page with devices is as short before a check", async () => {
    await desk.goto('/admin/users/bob%40example.com/');
    await expect(desk.getByRole('heading', { level: 1, name: 'Bob Brown' })).toBeVisible();
    await expect(desk.getByRole('region', { name: 'Verify the caller' }).getByLabel('Code they read out')).toBeVisible();
    expect(await documentHeight(desk)).toBeLessThanOrEqual(1600);
  });
  expect(csp.violations()).toEqual([]);
});

test('the call on a phone (390×844): the page reads top to bottom', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, HELPDESK);
  await page.goto(LENA_PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Lena Lund' })).toBeVisible();
  const order = ['Verify the caller', 'Devices and codes', 'Recent activity', 'Account'];
  const tops = [await page.getByRole('heading', { level: 1 }).boundingBox()];
  for (const name of order) tops.push(await page.getByRole('heading', { level: 2, name }).boundingBox());
  const ys = tops.map((box) => box?.y ?? Number.NaN);
  expect(ys).toEqual([...ys].sort((a, b) => a - b));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'horizontal scrolling at 390 px').toBeLessThanOrEqual(0);
  await expectAccessible(page, "lena's page on a phone");
});
