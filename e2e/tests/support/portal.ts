import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { demoTokenSeed, hotp, nextPasscode, rememberAuthenticator, tokenName, totpAt, totpStep } from '../helpers';

/**
 * Helpers of the self-service journeys (staff-*.spec.ts): accessibility and CSP checks, the step-up
 * dialog, and the codes of demo hardware tokens and authenticator apps the tests hold.
 */

/** WCAG 2.2 AA as axe-core tags it. */
export const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Rules of WCAG 2.2 AA that axe-core marks experimental (so `withTags` alone does not run them) but that
 * an accessibility audit runs: 2.5.3 Label in Name (a control's accessible name contains its visible text).
 */
export const EXTRA_WCAG_RULES = ['label-content-name-mismatch'];

/** Runs axe-core on the page as it is now (open dialogs included) and expects no WCAG 2.2 AA violation. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  // Measure the settled page: mid-animation (a dialog fading in) colours are not the real ones.
  // (Infinite ones, such as a busy button's spinner, never settle and do not change colours.)
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const rules = Object.fromEntries(EXTRA_WCAG_RULES.map((rule) => [rule, { enabled: true }]));
  // options() first: withTags() adds runOnly to the options, options() would replace them.
  const results = await new AxeBuilder({ page }).options({ rules }).withTags(WCAG_22_AA).analyze();
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

/**
 * Checks that the focused element shows where the focus is: it matches `:focus-visible` and draws an
 * outline or a ring (box-shadow). A visually hidden native control (an antd radio or checkbox input)
 * shows it on the box drawn next to it. Ant Design fields animate their focus style (`transition: all
 * 0.2s`, outline width included), so the check is repeated for up to two seconds: the indicator must
 * be there once the animation a person sees has run, not in its first frame.
 */
export async function expectFocusVisible(page: Page): Promise<void> {
  let what = '';
  await expect
    .poll(
      async () => {
        const focus = await page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return { ok: false, what: 'nothing (the page itself)' };
          const marked = (e: Element) => {
            const cs = getComputedStyle(e);
            return (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) || (cs.boxShadow !== 'none' && cs.boxShadow !== '');
          };
          const visible = el.matches(':focus-visible');
          let ok = visible && marked(el);
          if (!ok && visible && getComputedStyle(el).opacity === '0') {
            const drawn = el.nextElementSibling ?? el.parentElement;
            ok = drawn !== null && marked(drawn);
          }
          return { ok, what: el.outerHTML.slice(0, 160) };
        });
        what = focus.what;
        return focus.ok;
      },
      { message: `a visible focus indicator on the focused element`, timeout: 2_000, intervals: [50, 100, 250] },
    )
    .toBe(true)
    .catch((err: unknown) => {
      throw new Error(`no visible focus indicator on ${what}: ${String(err)}`);
    });
}

/**
 * Moves the focus to `target` with the Tab key alone (as many presses as it takes, up to `max`), then
 * checks the focus is visible there. This is how the journeys reach every control: no clicks.
 */
export async function tabTo(page: Page, target: Locator, max = 150): Promise<void> {
  await expect(target).toBeAttached();
  // The target is looked up once, not after every press: finding a control by its role and name walks
  // the whole page, which on a long page cost more than the presses. It is looked up again only when
  // the page has replaced it meanwhile (a list re-rendered).
  let handle = await target.elementHandle();
  let presses = 0;
  try {
    while (presses <= max) {
      const focused = await handle.evaluate((el) => (el.isConnected ? el === document.activeElement : null));
      if (focused === null) {
        await handle.dispose();
        handle = await target.elementHandle();
        continue;
      }
      if (focused) {
        await expectFocusVisible(page);
        return;
      }
      await page.keyboard.press('Tab');
      presses++;
    }
  } finally {
    await handle.dispose();
  }
  throw new Error(`the Tab key never reached ${String(target)} in ${max} presses`);
}

/** Types into the field with this label, from the keyboard (Tab to it, then keys). */
export async function typeInto(page: Page, label: string | RegExp, text: string, scope: Page | Locator = page): Promise<void> {
  const field = scope.getByLabel(label, { exact: typeof label === 'string' });
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

/** Follows a link from the keyboard (Tab to it, Enter). */
export async function followLink(page: Page, name: string, scope: Page | Locator = page): Promise<void> {
  const link = scope.getByRole('link', { name, exact: true }).first();
  await tabTo(page, link);
  await page.keyboard.press('Enter');
}

/** Presses a button from the keyboard (Tab to it, Enter). */
export async function pressButton(page: Page, name: string | RegExp, scope: Page | Locator = page): Promise<void> {
  const button = scope.getByRole('button', { name, exact: typeof name === 'string' });
  await tabTo(page, button);
  await page.keyboard.press('Enter');
}

/**
 * Chooses the radio button `name` from the keyboard, as a person does in a radio group: Tab reaches the
 * group (its checked button, or the first), the arrow keys move the choice. Checks it is chosen.
 */
export async function chooseRadio(page: Page, name: string, scope: Page | Locator = page): Promise<void> {
  const radio = scope.getByRole('radio', { name, exact: true });
  await expect(radio).toBeAttached();
  const group = await radio.evaluate((el) => (el as HTMLInputElement).name);
  if (group === '') {
    // A button of no named group is a group of its own: Tab reaches it, Space chooses it.
    await tabTo(page, radio);
    await page.keyboard.press('Space');
    await expect(radio).toBeChecked();
    return;
  }
  for (let presses = 0; ; presses++) {
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el instanceof HTMLInputElement && el.type === 'radio' ? el.name : null;
    });
    if (focused === group) break;
    if (presses > 150) throw new Error(`the Tab key never reached the radio group of “${name}”`);
    await page.keyboard.press('Tab');
  }
  await expectFocusVisible(page);
  const count = await page.evaluate((g) => document.querySelectorAll(`input[type="radio"][name="${CSS.escape(g)}"]`).length, group);
  for (let presses = 0; !(await radio.evaluate((el) => el === document.activeElement)); presses++) {
    if (presses > count) throw new Error(`the arrow keys never reached the radio button “${name}”`);
    await page.keyboard.press('ArrowDown');
  }
  // Arrow keys choose as they move; Space chooses the button the focus starts on.
  if (!(await radio.isChecked())) await page.keyboard.press('Space');
  await expect(radio).toBeChecked();
  await expectFocusVisible(page);
}

/** Ticks the checkbox `name` from the keyboard (Tab to it, Space). */
export async function tick(page: Page, name: string, scope: Page | Locator = page): Promise<void> {
  const box = scope.getByRole('checkbox', { name, exact: true });
  await tabTo(page, box);
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
}

/**
 * Chooses the option `label` of the drop-down list (a native select) labelled `field`, from the
 * keyboard: Tab to it, then the arrow keys, one option at a time (the list stays closed).
 */
export async function chooseOption(page: Page, field: string, label: string | RegExp, scope: Page | Locator = page): Promise<void> {
  const select = scope.getByLabel(field, { exact: true });
  await tabTo(page, select);
  const { from, to } = await select.evaluate(
    (el, wanted) => {
      const options = Array.from((el as HTMLSelectElement).options);
      const matches = (text: string) => (wanted.source === null ? text.trim() === wanted.text : new RegExp(wanted.source).test(text));
      return { from: (el as HTMLSelectElement).selectedIndex, to: options.findIndex((o) => matches(o.text)) };
    },
    typeof label === 'string' ? { text: label, source: null } : { text: '', source: label.source },
  );
  if (to < 0) throw new Error(`no option “${String(label)}” in “${field}”`);
  for (let i = from; i !== to; i += to > from ? 1 : -1) await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
  const chosen = () => select.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text.trim() ?? '');
  if (typeof label === 'string') await expect.poll(chosen).toBe(label);
  else await expect.poll(chosen).toMatch(label);
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

/** Signs out through the portal and the identity provider's confirmation, from the keyboard, ending at /loggedout. */
export async function signOut(page: Page): Promise<void> {
  await pressButton(page, 'Sign out');
  await confirmSignOutAtProvider(page);
  await page.waitForURL(/\/loggedout$/);
}

/** The identity provider's "end the session?" page: its Sign out button has the focus; Enter confirms. */
export async function confirmSignOutAtProvider(page: Page): Promise<void> {
  await page.waitForURL(/\/idp\/session\/end/);
  await expect(page.getByRole('button', { name: /sign out/i })).toBeFocused();
  await page.keyboard.press('Enter');
}

/**
 * The number the browser shows for a verified push (the journeys' Duo tenant requires Verified Duo Push): what
 * the person reads and enters in Duo Mobile.
 */
export async function numberShown(scope: Locator): Promise<string> {
  const group = scope.getByRole('group', { name: 'Number to enter on the phone' });
  await expect(group).toBeVisible();
  await expect(group).toContainText('enter this number');
  const value = group.getByText(/^\d{3}$/);
  await expect(value).toBeVisible();
  return (await value.textContent())!.trim();
}
