import { expect, test } from '@playwright/test';
import { answerPasscode, nextPasscode, onDuo, openSignedIn, rememberAuthenticator, signInAt, tokenName } from './helpers';
import { justify, showActivity, tokenChoice } from './support/admin';
import {
  chooseOption,
  chooseRadio,
  claimToken,
  enrolAuthenticator,
  expectAccessible,
  followLink,
  pressButton,
  tokenCode,
  typeInto,
  watchCsp,
} from './support/portal';

/**
 * The lost-device wizard from start to finish: grace@ lost her phone and still has her demo token
 * D100-0007. helpdesk@ verifies her with a code of the token, removes the phone, reads her the
 * single-use code, and (after a reload: the wizard resumes where it was) guides her; grace signs
 * in with the code, adds an authenticator app, and helpdesk tests it with a code she reads out. On Duo,
 * which enrols no authenticator apps, her new device is the demo token D100-0009 (waiting in Duo's
 * inventory, see apps/server/test/duo/portal-on-standin.ts).
 */
const HELPDESK = 'helpdesk@example.com';
const GRACE = 'grace@example.com';
const NEW_DEVICE = onDuo ? tokenName('D100-0009') : 'New phone';

test(
  'helpdesk walks grace through a lost phone: verify, remove, code, re-enrol, test',
  { tag: '@both' },
  async ({ page: desk, browser }) => {
    const csp = watchCsp(desk);
    await openSignedIn(desk, HELPDESK);
    await desk.goto('/admin/users/grace%40example.com/');
    await expect(desk.getByRole('heading', { level: 1, name: 'Grace Green' })).toBeVisible();
    await followLink(desk, 'Lost device wizard');
    await expect(desk.getByRole('heading', { level: 1, name: 'Lost device: Grace Green' })).toBeFocused();
    const current = desk.getByRole('list', { name: 'Steps' }).locator('[aria-current="step"]');
    await expect(current).toContainText('Verify the caller');
    await expectAccessible(desk, 'the wizard, step 1');

    await test.step('1. verify grace with a code of her token', async () => {
      await chooseOption(desk, 'Device they read the code from', tokenChoice('D100-0007'));
      await typeInto(desk, 'Code they read out', tokenCode('D100-0007', 0));
      await desk.keyboard.press('Enter');
      await expect(desk.getByRole('heading', { name: 'Step 2: Remove the lost device' })).toBeVisible();
      rememberAuthenticator(GRACE, { kind: 'hotp', serial: 'D100-0007', nextCounter: 1 });
      await expect(current).toContainText('Remove the lost device');
    });

    let code = '';
    await test.step('2 and 3. remove the lost phone; the single-use code is shown once', async () => {
      await chooseRadio(desk, 'Lost phone');
      await justify(desk, 'Phone lost on the train; verified with her token', 'INC-6001');
      await expectAccessible(desk, 'the wizard, step 2');
      await pressButton(desk, 'Remove the device and issue the code');
      const panel = desk.getByRole('region', { name: 'Bypass code for grace@example.com' });
      await expect(panel.getByRole('heading')).toBeFocused();
      await expect(panel).toContainText('The lost device has been removed.');
      await expect(panel).toContainText('Each code works once');
      code = ((await panel.locator('.code-list code').first().textContent()) ?? '').trim();
      expect(code).toMatch(/^\d{3} \d{3} \d{3}$/);
      await expectAccessible(desk, 'the wizard, step 3');
    });

    await test.step('interrupted: after a reload the wizard resumes at step 4, without the code', async () => {
      await desk.reload();
      await expect(desk.getByRole('heading', { name: 'Step 4: Guide them to add a new device' })).toBeVisible();
      await expect(desk.getByText(code)).toHaveCount(0);
      await expect(desk.getByText(/It has not been used yet/)).toBeVisible();
      await expectAccessible(desk, 'the wizard, step 4');
    });

    await test.step('4. grace signs in with the code and adds a new device', async () => {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      await page.goto('/');
      await signInAt(page, GRACE, undefined, { secondFactor: 'none' });
      await answerPasscode(page, code);
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
      if (onDuo) await claimToken(page, GRACE, { serial: 'D100-0009', counter: 0, name: NEW_DEVICE });
      else await enrolAuthenticator(page, GRACE, NEW_DEVICE);
      await context.close();
      await pressButton(desk, 'Check for the new device');
      await expect(desk.getByRole('heading', { name: 'Step 5: Test the new device' })).toBeVisible();
    });

    await test.step('5. test the new device with a code grace reads out', async () => {
      await expect(desk.getByLabel('Device they read the code from')).toHaveValue(/.+/);
      await expect(desk.getByLabel('Device they read the code from').locator('option:checked')).toHaveText(NEW_DEVICE);
      await typeInto(desk, 'Code they read out', await nextPasscode(GRACE));
      await desk.keyboard.press('Enter');
      await expect(desk.getByText('Case complete', { exact: true }).last()).toBeVisible();
      await expect(desk.getByRole('main')).toContainText(`“Lost phone” was removed and “${NEW_DEVICE}” works`);
      await expectAccessible(desk, 'the wizard, case complete');
    });

    await test.step("each step is in grace's activity on her page", async () => {
      await followLink(desk, "Back to the user's page");
      await showActivity(desk);
      const activity = desk.getByRole('table', { name: /latest events about grace@example.com/ });
      await expect(activity).toContainText('Lost device removed');
      await expect(activity).toContainText('Lost-device code issued');
      await expect(activity).toContainText('Identity check');
      await expect(activity).toContainText('INC-6001');
    });
    expect(csp.violations()).toEqual([]);
  },
);
