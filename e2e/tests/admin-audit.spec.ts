import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { onDuo, openSignedIn } from './helpers';
import { justify } from './support/admin';
import { chooseOption, expectAccessible, followLink, pressButton, typeInto, watchCsp } from './support/portal';

/**
 * The audit log as admin@ (Solution Administrator) sees it: an import of tokens (on Duo, which keeps
 * the token inventory itself, a bypass code issued for helpdesk@, a protected account) is recorded with its
 * ticket, the filters find it, the CSV export of the same filter contains it, and "Verify the chain"
 * reports the log intact. Tampering with a row in the database is shown by admin-audit-tamper.spec.ts
 * (its own portal, whose database files the test edits between two runs) and by the server
 * integration test `admin.int.test.ts`.
 */
const ADMIN = 'admin@example.com';
const TICKET = 'AUD-3001';
const ACTION = onDuo ? 'admin.user.create_bypass_codes' : 'admin.inventory.import';
const ACTION_LABEL = onDuo ? 'Bypass codes issued' : 'Tokens imported';
/** The family of ACTION in the action filter's words (admin.user.* or admin.inventory.*). */
const ACTION_FAMILY = onDuo ? 'Everything the service desk did for a person' : 'Hardware token inventory (import, unassign, retire)';

test('admin finds an event in the audit log, exports it as CSV, and the chain verifies', { tag: '@both' }, async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, ADMIN);

  await test.step('an administrative change to find', async () => {
    if (onDuo) {
      await page.goto('/admin/users/helpdesk%40example.com/');
      await expect(page.getByRole('heading', { level: 1, name: 'Hana Helpdesk' })).toBeVisible();
      await pressButton(page, 'Issue bypass codes');
      const dialog = page.getByRole('dialog', { name: 'Issue bypass codes for helpdesk@example.com' });
      await typeInto(page, 'Number of hours or days the codes stay valid', '1', dialog);
      await justify(page, 'Audit journey code', TICKET, dialog);
      await pressButton(page, 'Issue the codes', dialog);
      const panel = page.getByRole('region', { name: 'New bypass code for helpdesk@example.com' });
      await expect(panel.getByRole('heading')).toBeFocused();
      await pressButton(page, 'I have passed them on', panel);
      return;
    }
    await page.goto('/admin/tokens');
    await expect(page.getByRole('heading', { level: 1, name: 'Hardware tokens' })).toBeVisible();
    const csv = ['serial,seed', `D100-8101,${'cd'.repeat(20)}`, ''].join('\n');
    await page.getByLabel('Seed file (CSV)').setInputFiles({ name: 'tokens.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await justify(page, 'Audit journey token', TICKET);
    await pressButton(page, 'Import');
    await expect(page.getByText('1 token imported')).toBeVisible();
  });

  await test.step('filter the log by actor and action', async () => {
    await followLink(page, 'Audit log', page.getByRole('navigation', { name: 'Administration' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeFocused();
    await expect(page.getByRole('table', { name: 'Audit events, newest first' })).toBeVisible();
    await expectAccessible(page, 'the audit log');
    // Part of the name is enough, and the family of actions is chosen by its name.
    await typeInto(page, 'Done by', 'admin@');
    await chooseOption(page, 'Action', ACTION_FAMILY);
    await chooseOption(page, 'Outcome', 'Done');
    await pressButton(page, 'Show events');
    const table = page.getByRole('table', { name: 'Audit events, newest first' });
    await expect(table.getByRole('row').nth(1)).toContainText(`Ticket: ${TICKET}`);
    await expect(table.getByRole('row').nth(1)).toContainText(ACTION_LABEL);
    await expect(table.getByRole('row').nth(1)).toContainText('as Solution Administrator');
  });

  await test.step('the CSV export of the same filter contains the event', async () => {
    const download = page.waitForEvent('download');
    await pressButton(page, 'Export as CSV');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = fs.readFileSync(await file.path(), 'utf8');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe(
      '"id","occurredAt","actorUpn","actorRoles","targetUpn","action","outcome","reason","requestId","clientAddress","details","hash"',
    );
    const prefix = ACTION.slice(0, ACTION.lastIndexOf('.') + 1);
    expect(lines.slice(1).every((l) => l.includes('"admin@example.com"') && l.includes(`"${prefix}`))).toBe(true);
    expect(text).toContain(`"${ACTION}"`);
    expect(text).toContain(TICKET);
  });

  await test.step('verify the chain', async () => {
    await pressButton(page, 'Verify the chain');
    await expect(page.getByText('The audit log is intact')).toBeVisible();
    await expect(page.getByText(/\d+ events checked: none was changed or removed\./)).toBeVisible();
    await expectAccessible(page, 'the chain verified');
  });
  expect(csp.violations()).toEqual([]);
});
