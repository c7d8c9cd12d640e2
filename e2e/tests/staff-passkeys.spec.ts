import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { DEMO_PASSWORD, openSignedIn, signInAt } from './helpers';
import {
  chooseRadio,
  signOut,
  expectAccessible,
  followLink,
  pressButton,
  stepUpDialog,
  tabTo,
  tick,
  typeInto,
  watchCsp,
} from './support/portal';

/**
 * Passkeys and security keys (issue 18) with Chromium's virtual authenticators (the DevTools
 * protocol's WebAuthn domain): a platform passkey ("internal" transport, like Windows Hello or Touch
 * ID) and a roaming security key ("usb"). Both verify the user (PIN or biometrics) and answer at once.
 *
 * One authenticator is plugged in at a time, as a person holds one device at a time: when a journey
 * moves from one to the other, the first is unplugged with its credentials kept, and plugged back
 * later with them (WebAuthn.getCredentials / addCredential).
 *
 * judy@ and kim@ start with no device (seeded for these journeys). Every step is taken with the keyboard
 * alone (support/portal.ts: Tab to a control, Enter or Space, arrow keys in a radio group).
 */
const JUDY = 'judy@example.com';
const KIM = 'kim@example.com';

type Kind = 'passkey' | 'security key';

class VirtualAuthenticators {
  private current: { kind: Kind; id: string } | null = null;
  private readonly saved = new Map<Kind, unknown[]>();
  constructor(private readonly cdp: CDPSession) {}

  static async enable(page: Page): Promise<VirtualAuthenticators> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    return new VirtualAuthenticators(cdp);
  }

  /** Plugs in `kind` (unplugging the other one first, keeping its credentials). */
  async use(kind: Kind): Promise<void> {
    if (this.current?.kind === kind) return;
    if (this.current) {
      const { credentials } = await this.cdp.send('WebAuthn.getCredentials', { authenticatorId: this.current.id });
      this.saved.set(this.current.kind, credentials);
      await this.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: this.current.id });
    }
    const { authenticatorId } = await this.cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: kind === 'passkey' ? 'internal' : 'usb',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    for (const credential of this.saved.get(kind) ?? [])
      await this.cdp.send('WebAuthn.addCredential', { authenticatorId, credential: credential as never });
    this.current = { kind, id: authenticatorId };
  }

  async credentialCount(): Promise<number> {
    if (!this.current) return 0;
    return (await this.cdp.send('WebAuthn.getCredentials', { authenticatorId: this.current.id })).credentials.length;
  }
}

/** Adds a passkey or security key named `name` from the add-device screen (the browser's ceremony answers). */
async function addPasskey(page: Page, name: string, afterStepUp?: () => Promise<void>): Promise<void> {
  await page.goto('/devices/add');
  await followLink(page, 'Add a passkey or security key', page.getByRole('main'));
  await expect(page.getByRole('heading', { name: 'Add a passkey or security key', level: 1 })).toBeVisible();
  await typeInto(page, 'Name', name);
  await pressButton(page, 'Continue');
  if (afterStepUp) {
    await afterStepUp();
    await pressButton(page, 'Add it now');
  }
  await expect(page.getByText(`“${name}” has been added.`)).toBeVisible();
}

/** Confirms the step-up dialog with the passkey or security key plugged in. */
async function stepUpWithPasskey(page: Page): Promise<void> {
  const dialog = stepUpDialog(page);
  await expect(dialog).toBeVisible();
  await chooseRadio(page, 'Use your passkey or security key', dialog);
  await expectAccessible(page, 'the step-up dialog with a passkey');
  await pressButton(page, 'Use your passkey or security key', dialog);
  await expect(dialog).toBeHidden();
}

test('judy adds a passkey, signs in with it, steps up with it and removes it', async ({ page }) => {
  const csp = watchCsp(page);
  const authenticators = await VirtualAuthenticators.enable(page);
  await authenticators.use('passkey');
  await openSignedIn(page, JUDY);

  // Her first device: no step-up.
  await addPasskey(page, 'Work laptop');
  const laptop = page.getByRole('article', { name: 'Work laptop' });
  await expect(laptop).toContainText('Passkey');
  await expect(laptop).toContainText('Passkey sign-in (phishing-resistant)');
  expect(await authenticators.credentialCount()).toBe(1);

  // "Check it works" asks the passkey.
  await pressButton(page, 'Check it works: “Work laptop”');
  const test = page.getByRole('dialog', { name: 'Check “Work laptop”' });
  await pressButton(page, 'Use my passkey or security key', test);
  await expect(test.getByRole('status')).toContainText('It works');
  // The footer's Close (the dialog's corner has one too).
  await tabTo(page, test.getByRole('button', { name: 'Close' }).last());
  await page.keyboard.press('Enter');
  await expect(test).toBeHidden();

  // Signing in again at the portal's identity provider: the password, then the passkey.
  await signOut(page);
  await page.goto('/');
  await signInAt(page, JUDY, DEMO_PASSWORD, { secondFactor: 'none' });
  await expect(page.getByRole('heading', { name: 'Verify it is you' })).toBeVisible();
  await pressButton(page, 'Use your passkey or security key');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  // Removing it (her only device) needs a step-up: with the passkey.
  await pressButton(page, 'Remove “Work laptop”');
  const dialog = page.getByRole('dialog', { name: 'Remove your only device?' });
  await tick(page, 'I understand that I will have no device left', dialog);
  await pressButton(page, 'Remove', dialog);
  await stepUpWithPasskey(page);
  // Gone from the list (the banner that says so lasts a few seconds only).
  await expect(page.getByRole('button', { name: 'Remove “Work laptop”' })).toHaveCount(0);
  await expect(laptop).toHaveCount(0);

  // One entry: the removal, confirmed with the passkey.
  await page.goto('/activity');
  const removed = page
    .getByRole('list', { name: 'Your activity, newest first' })
    .locator(':scope > li')
    .filter({ hasText: 'You removed the device “Work laptop”' });
  await removed.getByRole('button', { name: 'Details' }).click();
  await expect(removed.getByRole('list', { name: 'What happened, step by step' })).toContainText(
    'You confirmed it was you with a passkey or security key',
  );
  expect(csp.violations()).toEqual([]);
});

test('kim adds a security key, then a passkey after a step-up with the key, and removes both', async ({ page }) => {
  const csp = watchCsp(page);
  const authenticators = await VirtualAuthenticators.enable(page);
  await authenticators.use('security key');
  await openSignedIn(page, KIM);

  await addPasskey(page, 'Blue key');
  await expect(page.getByRole('article', { name: 'Blue key' })).toContainText('Security key');

  // A second device: confirm it is her with the security key, then add the passkey on her laptop.
  await addPasskey(page, 'Laptop', async () => {
    await stepUpWithPasskey(page);
    await expect(page.getByRole('button', { name: 'Add it now' })).toBeVisible();
    await authenticators.use('passkey');
  });
  await expect(page.getByRole('article', { name: 'Laptop' })).toContainText('Passkey');
  await expectAccessible(page, 'the overview with a passkey and a security key');

  // The step-up is still fresh: the key goes at once; then the passkey, her last device.
  await pressButton(page, 'Remove “Blue key”');
  const confirmKey = page.getByRole('dialog', { name: 'Remove “Blue key”?' });
  // The dialog focuses the safe choice once open: wait for it, so the Enter below cannot land on "Keep it".
  await expect(confirmKey.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await pressButton(page, 'Remove', confirmKey);
  // Gone from the list (the banner that says so lasts a few seconds only).
  await expect(page.getByRole('button', { name: 'Remove “Blue key”' })).toHaveCount(0);
  await pressButton(page, 'Remove “Laptop”');
  const last = page.getByRole('dialog', { name: 'Remove your only device?' });
  await tick(page, 'I understand that I will have no device left', last);
  await pressButton(page, 'Remove', last);
  // Gone from the list (the banner that says so lasts a few seconds only).
  await expect(page.getByRole('button', { name: 'Remove “Laptop”' })).toHaveCount(0);
  await expect(page.getByText('You have not added a device yet')).toBeVisible();
  expect(csp.violations()).toEqual([]);
});
