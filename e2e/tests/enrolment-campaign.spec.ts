import { expect, test } from '@playwright/test';
import { openSignedIn } from './helpers';
import { mailTo } from './support/mailbox';
import { enrolAuthenticator, expectAccessible, followLink, pressButton, signOut, typeInto, watchCsp } from './support/portal';

/**
 * An enrolment campaign, with the keyboard alone: admin@ starts one on the directory group "Campaign
 * pilot" (xena and yusuf, neither with a device); xena's e-mail arrives with the deadline and a link to
 * "Add a device"; she signs in, sees the banner, puts it off ("Remind me later"), adds an authenticator
 * app, and has no banner; the reports page then counts her enrolled. axe on each screen.
 */
const ADMIN = 'admin@example.com';
const XENA = 'xena@example.com';
const GROUP = 'Campaign pilot';

test('a campaign on "Campaign pilot": the mail arrives, xena puts the banner off, enrols, and is counted', async ({ page }) => {
  const csp = watchCsp(page);
  await openSignedIn(page, ADMIN);

  await test.step('the administrator starts a campaign on the group', async () => {
    await followLink(page, 'Administration', page.getByRole('navigation', { name: 'Main' }));
    await followLink(page, 'Campaigns', page.getByRole('navigation', { name: 'Administration' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Enrolment campaigns' })).toBeVisible();
    await expect(page.getByText('No campaign yet')).toBeVisible();
    await expectAccessible(page, 'the Campaigns page, empty');
    await pressButton(page, 'Start a campaign');
    await expect(page.getByRole('heading', { level: 2, name: 'Start a campaign' })).toBeFocused();
    await typeInto(page, 'Find a group', 'pilot');
    await pressButton(page, `Choose ${GROUP}`);
    await expect(page.getByText(`Chosen: ${GROUP} (2 members)`)).toBeVisible();
    await expectAccessible(page, 'the new campaign form');
    await pressButton(page, 'Start the campaign');
    const row = page.getByRole('table', { name: 'Enrolment campaigns' }).getByRole('row', { name: new RegExp(GROUP) });
    await expect(row).toContainText('0 of 2 people have a device');
    await expect(page.getByRole('heading', { level: 2, name: 'Campaigns' })).toBeFocused();
    await expectAccessible(page, 'the Campaigns page with a campaign');
  });

  await test.step('xena’s e-mail arrives: the deadline, the link to "Add a device", whom to ask, no unsubscribe', async () => {
    const mail = await mailTo(XENA, /^Please add a sign-in device by /);
    expect(mail.text).toMatch(/\/devices\/add/);
    expect(mail.text).toContain('service desk');
    expect(mail.text).toContain('cannot be switched off');
    expect(`${mail.text}\n${mail.html}`).not.toMatch(/unsubscribe/i);
  });

  await test.step('xena signs in and sees the banner', async () => {
    await signOut(page);
    await openSignedIn(page, XENA);
    const banner = page.getByRole('region', { name: /^Please add a sign-in device by / });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('You can put this off 3 more times, for 1 day each time.');
    await expect(banner.getByRole('link', { name: 'Add a device' })).toBeVisible();
    await expectAccessible(page, 'the overview with the campaign banner');
  });

  await test.step('she puts it off: the banner goes, and stays gone after a reload', async () => {
    await pressButton(page, 'Remind me later');
    await expect(page.getByText('We will remind you again in 1 day.')).toBeVisible();
    await expect(page.getByRole('region', { name: /add a sign-in device/i })).toHaveCount(0);
    await expect(page.locator('#main')).toBeFocused();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: /^Hello, Xena/ })).toBeVisible();
    await expect(page.getByRole('region', { name: /add a sign-in device/i })).toHaveCount(0);
  });

  await test.step('she adds an authenticator app: no banner, and the portal has recorded her enrolled', async () => {
    await followLink(page, 'Add a device', page.getByRole('navigation', { name: 'Main' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Add a device' })).toBeVisible();
    await enrolAuthenticator(page, XENA, "Xena's phone");
    // The overview asks again whether a campaign wants anything of her: it finds her device, and records her enrolled.
    const asked = page.waitForResponse((r) => r.request().method() === 'GET' && r.url().endsWith('/api/me/campaign'));
    await page.goto('/');
    expect(await (await asked).json()).toEqual({ campaign: null });
    await expect(page.getByRole('article', { name: "Xena's phone" })).toBeVisible();
    await expect(page.getByRole('region', { name: /add a sign-in device/i })).toHaveCount(0);
    await expectAccessible(page, 'the overview after enrolling');
  });

  await test.step('the reports page counts her enrolled, in the chart’s text and in its table', async () => {
    await signOut(page);
    await openSignedIn(page, ADMIN);
    await followLink(page, 'Administration', page.getByRole('navigation', { name: 'Main' }));
    await followLink(page, 'Reports', page.getByRole('navigation', { name: 'Administration' }));
    const section = page.getByRole('region', { name: 'Enrolment campaigns' });
    await expect(section.getByRole('img', { name: /campaign running/ })).toHaveAccessibleName(
      '1 campaign running: 1 of its 2 people have what it asks.',
    );
    const row = section.getByRole('table', { name: 'Progress of the running campaigns' }).getByRole('row', { name: new RegExp(GROUP) });
    // People, Enrolled, Overdue, Put off, Reminded, E-mailed, Not e-mailed yet.
    await expect(row.getByRole('cell')).toHaveText([/./, '2', '1', '0', '0', '0', '1', '0']);
    await expectAccessible(page, 'the reports page with the campaign’s progress');
  });

  expect(csp.violations()).toEqual([]);
});
