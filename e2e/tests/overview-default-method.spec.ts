import { expect, test } from '@playwright/test';
import {
  answerPasscode,
  DEMO_PASSWORD,
  demoAuthenticatorSecret,
  nextPasscode,
  openSignedIn,
  rememberAuthenticator,
  signInAt,
} from './helpers';
import { chooseRadio, expectAccessible, followLink, pressButton, signOut, stepUpIfAsked, typeInto, watchCsp } from './support/portal';

/**
 * A truthful overview and a default sign-in method, on the embedded default (builtin provider):
 * - noah has no device: the overview says he is not protected yet (not "Active") and what to add first,
 *   and Add a device offers only kinds that can be added here, in the order the overview gave;
 * - mia has an authenticator app, adds a passkey (which then comes first at sign-in, the safest), makes
 *   her app's code the default, and her next sign-in offers the code first.
 * mia@ and noah@ are seeded for this journey (README).
 */
const MIA = 'mia@example.com';
const NOAH = 'noah@example.com';

/** What an add-device page says when it cannot add its kind. */
const CANNOT = /cannot be added|cannot add|does not offer|not available/i;

test('noah, with no device, is told he is not protected yet, and is offered only what can be added', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const csp = watchCsp(page);
  await openSignedIn(page, NOAH);
  const status = page.getByRole('region', { name: 'Your multi-factor status' });
  await expect(status).toContainText('Not protected yet');
  await expect(status).not.toContainText('Active');
  await expect(status.getByRole('link', { name: 'Add a passkey or security key' })).toBeVisible();
  const advised = await status.getByRole('link').allTextContents();
  // The first device is no backup plan, and there is no default to choose yet.
  await expect(page.getByRole('region', { name: 'Your backup plan' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Default sign-in method' })).toHaveCount(0);
  await expectAccessible(page, "noah's overview with no device");

  await followLink(page, 'Add a device', page.getByRole('main'));
  await expect(page.getByRole('heading', { level: 1, name: 'Add a device' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 2, name: /Recommended/ })).toBeVisible();
  // The same kinds in the same order as the overview advised, the same sentence.
  const offered = await main.locator('.choice-card a').allTextContents();
  expect(offered).toEqual(advised);
  await expect(main).toContainText('We recommend a passkey or security key');
  await expect(main.getByRole('link', { name: 'Add a phone' })).toHaveCount(0);
  await expectAccessible(page, 'Add a device');
  for (const name of offered) {
    await page.goto('/devices/add');
    await followLink(page, name, page.getByRole('main'));
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Add a device');
    await expect(page.getByRole('main')).not.toContainText(CANNOT);
  }

  // The phone page, opened by its address: it points to the portal's app, and has no form that saves nothing.
  await page.goto('/devices/add/phone');
  await expect(page.getByRole('heading', { level: 2, name: 'Set up your phone with Portal Authenticator' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Set up Portal Authenticator' })).toHaveAttribute(
    'href',
    '/devices/add/portal-authenticator',
  );
  await expect(page.getByLabel('Phone number')).toHaveCount(0);
  await expect(page.getByRole('main')).not.toContainText(CANNOT);
  await expectAccessible(page, 'the phone page on the builtin provider');
  expect(csp.violations()).toEqual([]);
});

test('mia makes her authenticator app the default, and her next sign-in offers its code first', async ({ page }) => {
  rememberAuthenticator(MIA, { kind: 'totp', secret: demoAuthenticatorSecret(MIA, "Mia's phone"), lastStep: 0 });
  const csp = watchCsp(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await openSignedIn(page, MIA);
  const section = page.getByRole('region', { name: 'Default sign-in method' });
  await expect(section).toContainText("Offered first: Enter a code from “Mia's phone”");

  await test.step('she adds a passkey, which is then offered first (the safest)', async () => {
    await page.goto('/devices/add');
    await followLink(page, 'Add a passkey or security key', page.getByRole('main'));
    await typeInto(page, 'Name', "Mia's laptop");
    await pressButton(page, 'Continue');
    const added = page.getByText("“Mia's laptop” has been added.");
    const ready = page.getByRole('button', { name: 'Add it now' });
    if (await stepUpIfAsked(page, MIA, ready.or(added))) await pressButton(page, 'Add it now');
    await expect(page.getByRole('article', { name: "Mia's laptop" })).toBeVisible();
    await expect(section).toContainText("Offered first: Use the passkey or security key “Mia's laptop”");
    await expect(section).toContainText('Chosen for you: the safest way you have.');
  });

  await test.step('she chooses her app’s code instead', async () => {
    await pressButton(page, 'Change the default', section);
    await expect(section.getByRole('radio', { name: "Use the passkey or security key “Mia's laptop”" })).toBeFocused();
    await chooseRadio(page, "Enter a code from “Mia's phone”", section);
    await expectAccessible(page, 'the choice of a default sign-in method');
    await pressButton(page, 'Save', section);
    await expect(section).toContainText("Offered first: Enter a code from “Mia's phone”");
    await expect(section.getByRole('button', { name: 'Change the default' })).toBeFocused();
    await expect(section).not.toContainText('Chosen for you');
    await expectAccessible(page, "mia's overview with her default chosen");
  });

  await test.step('her next sign-in offers the code first, the passkey after it', async () => {
    await signOut(page);
    await page.goto('/');
    await signInAt(page, MIA, DEMO_PASSWORD, { secondFactor: 'none' });
    await expect(page.getByRole('heading', { name: 'Verify it is you' })).toBeVisible();
    await expect(page.getByLabel('Passcode')).toBeFocused();
    const passcodeTop = (await page.getByLabel('Passcode').boundingBox())!.y;
    const passkeyTop = (await page.getByRole('button', { name: 'Use your passkey or security key' }).boundingBox())!.y;
    expect(passcodeTop).toBeLessThan(passkeyTop);
    await expectAccessible(page, 'the second-factor page with the code first');
    await answerPasscode(page, await nextPasscode(MIA));
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Default sign-in method' })).toContainText(
      "Offered first: Enter a code from “Mia's phone”",
    );
  });
  expect(csp.violations()).toEqual([]);
});
