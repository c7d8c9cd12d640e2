import { expect, test, type Page } from '@playwright/test';
import { openSignedIn } from './helpers';
import { bearerOfNextAdminCall, justify } from './support/admin';
import { chooseOption, expectAccessible, followLink, pressButton, tick, typeInto, watchCsp } from './support/portal';

/**
 * admin@ (Solution Administrator) on the builtin provider, where the portal keeps the token inventory:
 * takes the token D100-0016 from paul@, whose only device it is (the dialog warns and asks, as
 * *Remove* does, with a hint of its own); finds grace@'s events in the audit log by "grace" and an
 * action chosen by name; and reads the reports, whose figures agree with their lists.
 */
const ADMIN = 'admin@example.com';
const PAUL = 'paul@example.com';
const TICKET = 'SRCH-4001';

/** Calls the administration API as the signed-in administrator (the set-up of a step, not what it checks). */
async function adminCall(page: Page, bearer: string, path: string, data: object): Promise<void> {
  const res = await page.request.post(path, { headers: { authorization: `Bearer ${bearer}` }, data });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
}

test('admin unassigns a last token with a warning, finds grace by part of her name, and reads reports that agree', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, ADMIN);
  const bearer = bearerOfNextAdminCall(page);

  await test.step("unassigning paul's only device warns and asks, as Remove does", async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).click();
    await followLink(page, 'Hardware tokens', page.getByRole('navigation', { name: 'Administration' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Hardware tokens' })).toBeFocused();
    await typeInto(page, 'Serial or holder', 'D100-0016');
    await pressButton(page, 'Show');
    const row = page.getByRole('table', { name: 'Hardware tokens' }).getByRole('row').filter({ hasText: 'D100-0016' });
    await expect(row).toContainText(PAUL);
    await pressButton(page, 'Unassign D100-0016', row);
    const dialog = page.getByRole('dialog', { name: 'Unassign D100-0016?' });
    await expect(dialog.getByText('This is their only device')).toBeVisible();
    await expect(dialog).toContainText(`After this, ${PAUL} cannot sign in with a second factor until they add a device.`);
    // Its own hint for the reason: there is no caller in the inventory.
    await expect(dialog).toContainText(`Why you are taking the token back, for example that ${PAUL} returned it`);
    await expect(dialog).not.toContainText('caller');
    await justify(page, 'Paul returned his token', TICKET, dialog);
    await expect(dialog.getByRole('button', { name: 'Unassign' })).toBeDisabled();
    await expectAccessible(page, 'the unassign dialog of a last device');
    await tick(page, 'I understand that they will have no device left', dialog);
    await pressButton(page, 'Unassign', dialog);
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Available');
    await expect(row).not.toContainText(PAUL);
  });

  await test.step('set-up: paul gets bypass codes, and grace an enrolment link (no change to her devices)', async () => {
    const token = await bearer;
    await adminCall(page, token, `/api/admin/users/${encodeURIComponent(PAUL)}/bypass-codes`, {
      count: 2,
      validitySeconds: 3600,
      reason: 'Paul has no device until his new one arrives',
      ticket: TICKET,
    });
    await adminCall(page, token, '/api/admin/users/grace%40example.com/activation', {
      reason: 'Invite Grace to add a device',
      ticket: TICKET,
    });
  });

  await test.step('the audit log finds grace by part of her name, and an action chosen by its name', async () => {
    await followLink(page, 'Audit log', page.getByRole('navigation', { name: 'Administration' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeFocused();
    const actions = await page
      .getByLabel('Action', { exact: true })
      .evaluate((el) => Array.from((el as HTMLSelectElement).options, (o) => o.text));
    expect(actions).toEqual(
      expect.arrayContaining(['Any action', 'Identity check', 'Enrolment link given', 'Every administrative action']),
    );
    expect(actions.filter((a) => /\b[a-z_]+\.[a-z_.*]+/.test(a))).toEqual([]);
    await typeInto(page, 'About', 'grace');
    await chooseOption(page, 'Action', 'Enrolment link given');
    await pressButton(page, 'Show events');
    await expect(page).toHaveURL(/[?&]action=admin\.user\.send_activation(&|$)/);
    const table = page.getByRole('table', { name: 'Audit events, newest first' });
    // The last search's rows stay on screen, marked busy, until this one's arrive: wait for those.
    await expect(page.getByRole('region', { name: 'Audit events, newest first' })).not.toHaveAttribute('aria-busy', 'true');
    const about = table.locator('tbody tr td:nth-child(4)');
    await expect(about.filter({ hasNotText: /^grace@example\.com$/ })).toHaveCount(0);
    const first = table.getByRole('row').nth(1);
    await expect(first).toContainText(`Ticket: ${TICKET}`);
    await expect(first).toContainText('grace@example.com');
    // Every row is about grace; her address wraps after "@" and the dot, not inside a word.
    expect(new Set(await about.allTextContents())).toEqual(new Set(['grace@example.com']));
    await expect(first.locator('td').nth(3).locator('wbr')).toHaveCount(2);
    await expectAccessible(page, 'the audit log searched by part of a name');
  });

  await test.step("the reports' figures and their lists are of one moment and agree", async () => {
    await followLink(page, 'Reports', page.getByRole('navigation', { name: 'Administration' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeFocused();
    const headline = page.getByTestId('coverage-headline');
    await expect(headline).toHaveText(/^\d+ of \d+ staff/);
    const [, covered, staff] = /^(\d+) of (\d+)/.exec((await headline.textContent()) ?? '') ?? [];
    await expect(page.getByTestId('coverage-moment')).toContainText('when you opened this page');

    // Staff without a device: the headline's complement, the list's total, and its rows (one page).
    const without = page.getByRole('table', { name: 'Staff without a device, by sign-in name' });
    await expect(without.getByRole('row').filter({ hasText: PAUL })).toBeVisible();
    const missing = Number(staff) - Number(covered);
    await expect(page.getByTestId('report-without-factor-total')).toHaveText(`${missing} people.`);
    await expect(without.getByRole('row')).toHaveCount(missing + 1);

    // Bypass codes: the people in the figure, the list's total and the people in its rows.
    const codes = page.getByRole('table', { name: 'Bypass codes in force, soonest to expire first' });
    await expect(codes.getByRole('row').filter({ hasText: PAUL })).toHaveCount(2);
    const rows = await codes.locator('tbody tr td:first-child').allTextContents();
    const people = new Set(rows).size;
    const figure = page
      .locator('.report-figures__item')
      .filter({ has: page.getByText('Bypass codes', { exact: true }) })
      .locator('dd');
    await expect(figure).toHaveText(new RegExp(`^${people} (person|people) \\(`));
    await expect(page.getByTestId('report-bypass-codes-total')).toHaveText(
      `${rows.length} codes, held by ${people} ${people === 1 ? 'person' : 'people'}.`,
    );
    await expect(page.getByText(/SMTP_URL/)).toHaveCount(0);
    await expectAccessible(page, 'the reports of one moment');
  });
  expect(csp.violations()).toEqual([]);
});
