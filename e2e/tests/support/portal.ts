import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { demoTokenSeed, hotp, nextPasscode, rememberAuthenticator, tokenName, totpAt, totpStep } from '../helpers';

/**
 * Helpers of the self-service journeys (staff-*.spec.ts): accessibility and CSP checks, the step-up
 * dialog, and the codes of demo hardware tokens and authenticator apps the tests hold.
 */

/** WCAG 2.2 AA as axe-core tags it. */
export const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Runs axe-core on the page as it is now (open dialogs included) and expects no WCAG 2.2 AA violation. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  // Measure the settled page: mid-animation (a dialog fading in) colours are not the real ones.
  // (Infinite ones, such as a busy button's spinner, never settle and do not change colours.)
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  const violations = results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
  }));
  expect(violations, `axe-core WCAG 2.2 AA violations on ${where}`).toEqual([]);
}

/**
 * Collects the Content-Security-Policy violations the browser reports on the portal's pages.
 * Known and not the main application's: zod (in the shell's bundle since before the main application
 * existed) probes `new Function` once to decide whether it may compile its parsers; the CSP refuses
 * it and zod falls back. That single `script-src eval` report from the zod chunk is left out.
 */
export function watchCsp(page: Page): { violations: () => string[] } {
  const seen: string[] = [];
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked=${e.blockedURI || '-'} source=${e.sourceFile || '-'}`);
    });
  });
  page.on('console', (message) => {
    const text = message.text();
    if (!text.startsWith('CSP violation: ')) return;
    if (!new URL(page.url()).pathname.startsWith('/idp/') && !/script-src(-elem)? blocked=eval source=\S*\/static\/js\/zod-/.test(text))
      seen.push(text);
  });
  return { violations: () => [...seen] };
}

/** The step-up dialog ("Confirm it is you"). */
export const stepUpDialog = (page: Page): Locator => page.getByRole('dialog', { name: 'Confirm it is you' });

/** Answers the step-up dialog with the next passcode of the user's known authenticator, from the keyboard. */
export async function answerStepUp(page: Page, username: string): Promise<void> {
  const dialog = stepUpDialog(page);
  await expect(dialog).toBeVisible();
  const field = dialog.getByLabel('Code from your device');
  await expect(field).toBeFocused();
  await page.keyboard.type(await nextPasscode(username));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

/**
 * After a sensitive action: answers the step-up dialog if the server asked for one (it does not when
 * the user verified in the last few minutes, or has no device yet), and waits for `done` either way.
 */
export async function stepUpIfAsked(page: Page, username: string, done: Locator): Promise<boolean> {
  const asked = await Promise.race([
    stepUpDialog(page)
      .waitFor({ state: 'visible' })
      .then(() => true),
    done.waitFor({ state: 'visible' }).then(() => false),
  ]);
  if (asked) await answerStepUp(page, username);
  await expect(done).toBeVisible();
  return asked;
}

/** Code of a demo Duo D100 token at `counter` (its seed is public, see demo-tokens.ts). */
export const tokenCode = (serial: string, counter: number) => hotp(demoTokenSeed(serial), counter);

/** The current TOTP code of an authenticator secret, and its step (to remember it as used). */
export function currentTotp(secret: string): { code: string; step: number } {
  const step = totpStep();
  return { code: totpAt(secret, step), step };
}

/** Types into the field with this label, from the keyboard (focus, then keys). */
export async function typeInto(page: Page, label: string | RegExp, text: string, scope: Page | Locator = page): Promise<void> {
  const field = scope.getByLabel(label, { exact: typeof label === 'string' });
  await field.focus();
  await field.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

/** Follows a link from the keyboard. */
export async function followLink(page: Page, name: string, scope: Page | Locator = page): Promise<void> {
  const link = scope.getByRole('link', { name, exact: true }).first();
  await link.focus();
  await page.keyboard.press('Enter');
}

/** Presses a button from the keyboard. */
export async function pressButton(page: Page, name: string | RegExp, scope: Page | Locator = page): Promise<void> {
  const button = scope.getByRole('button', { name, exact: typeof name === 'string' });
  await button.focus();
  await page.keyboard.press('Enter');
}

/**
 * Claims a demo Duo D100 token through the portal's form (two consecutive codes from `counter`). On Duo
 * the name typed is not kept (Duo's tokens have no name): the token is then called `tokenName(serial)`.
 */
export async function claimToken(page: Page, username: string, token: { serial: string; counter: number; name: string }): Promise<void> {
  await page.goto('/devices/add/token');
  await expect(page.getByRole('heading', { level: 1, name: 'Add a hardware token (Duo D100)' })).toBeVisible();
  await typeInto(page, 'Serial number', token.serial);
  await typeInto(page, 'First code', tokenCode(token.serial, token.counter));
  await typeInto(page, 'Second code', tokenCode(token.serial, token.counter + 1));
  await typeInto(page, 'Name for this token (optional)', token.name);
  await page.keyboard.press('Enter');
  await stepUpIfAsked(page, username, page.getByText(`Your hardware token “${tokenName(token.serial, token.name)}” has been added.`));
  rememberAuthenticator(username, { kind: 'hotp', serial: token.serial, nextCounter: token.counter + 2 });
}

/**
 * Adds an authenticator app through the portal, keyboard first: the QR code and the setup key are
 * shown, the test reads the key as a person would type it into their app, and confirms with the
 * app's current code. Returns the secret (remembered for later sign-ins and step-ups).
 */
export async function enrolAuthenticator(
  page: Page,
  username: string,
  name: string,
  check?: (stage: 'qr') => Promise<void>,
): Promise<string> {
  await page.goto('/devices/add/authenticator');
  await expect(page.getByRole('heading', { level: 1, name: 'Add an authenticator app' })).toBeVisible();
  await pressButton(page, 'Show my QR code');
  const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  await stepUpIfAsked(page, username, qr);
  await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await check?.('qr');
  const { code, step } = currentTotp(secret);
  await typeInto(page, 'Code from the app', code);
  await typeInto(page, 'Name for this device', name);
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Your authenticator app “${name}” has been added.`)).toBeVisible();
  rememberAuthenticator(username, { kind: 'totp', secret, lastStep: step });
  return secret;
}
