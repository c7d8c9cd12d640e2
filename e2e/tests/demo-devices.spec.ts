import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { answerPasscode, DEMO_PASSWORD, demoAuthenticatorSecret, demoTokenSeed, hotp, onDuo, signInAt, totpAt, totpStep } from './helpers';
import { answerPush, pushIds } from './support/duo-standin';
import { numberShown, pressButton, stepUpDialog, typeInto } from './support/portal';
import { startPortalProcess, type PortalProcess } from './support/portal-process';

/**
 * Honest capabilities, end to end, on both providers: every demo device of every demo account shows
 * only what the provider can do, and every action the portal offers on it succeeds (check it works,
 * rename, resync, remove).
 *
 * - Builtin: nothing reads "Push" and no push is offered, since the builtin provider cannot reach a
 *   phone (a demo phone is the authenticator app on it).
 * - Duo (playwright.duo.config.ts): a phone takes pushes and passcodes, and its check is a push,
 *   approved at the Duo stand-in (support/duo-standin.ts); a Duo D100 token has no name to change.
 *
 * The walk changes the demo data (codes used, devices renamed and removed), so it runs on a portal of its
 * own with fresh data (the same server.ts, or on Duo the same portal-on-standin.ts with a stand-in of its
 * own, each with its own data directory and port).
 */

const PORT = onDuo ? Number(process.env.E2E_DUO_PORT ?? 8743) + 58 : Number(process.env.E2E_PORT ?? 8643) + 58;
const BASE = `https://localhost:${PORT}/`;
const serverEntry = onDuo
  ? path.join(import.meta.dirname, '..', '..', 'apps', 'server', 'test', 'duo', 'portal-on-standin.ts')
  : path.join(import.meta.dirname, '..', '..', 'apps', 'server', 'src', 'server.ts');

/** The demo accounts that hold devices, with the token each signs in with (dave has devices on Duo only). */
const ACCOUNTS = [
  { upn: 'bob@example.com', token: 'D100-0001', protectedAccount: false },
  { upn: 'erin@example.com', token: 'D100-0004', protectedAccount: false },
  { upn: 'grace@example.com', token: 'D100-0007', protectedAccount: false },
  { upn: 'helpdesk@example.com', token: 'D100-0005', protectedAccount: true },
  { upn: 'admin@example.com', token: 'D100-0006', protectedAccount: true },
  ...(onDuo ? [{ upn: 'dave@example.com', token: 'D100-0010', protectedAccount: false }] : []),
];

/** The next press of each demo token on this fresh portal. */
const counters = new Map<string, number>();
const press = (serial: string) => {
  const counter = counters.get(serial) ?? 0;
  counters.set(serial, counter + 1);
  return hotp(demoTokenSeed(serial), counter);
};

/** Steps of each demo authenticator already used (a code is accepted once). */
const usedSteps = new Map<string, number>();
async function appCode(upn: string, name: string): Promise<string> {
  const key = `${upn}/${name}`;
  const step = Math.max((usedSteps.get(key) ?? -1) + 1, totpStep());
  while (totpStep() + 1 < step) await new Promise((r) => setTimeout(r, 250));
  usedSteps.set(key, step);
  return totpAt(demoAuthenticatorSecret(upn, name), step);
}

let dataDir: string;
let server: PortalProcess | undefined;
/** On Duo: the journeys' own stand-in control file (pushes are answered there), and the one it replaces. */
let controlFile: string | undefined;
const sharedControlFile = process.env.DUO_STANDIN_CONTROL_FILE;

test.beforeAll(async () => {
  // A busy machine (CI's two cores) takes a minute or more to start the portal (and on Duo its stand-in).
  test.setTimeout(200_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-e2e-demo-devices-'));
  if (onDuo) {
    // support/duo-standin.ts reads the control file's name when called: this file's stand-in, until afterAll.
    controlFile = path.join(dataDir, 'standin-control.json');
    process.env.DUO_STANDIN_CONTROL_FILE = controlFile;
  }
  server = await startPortalProcess({
    entry: serverEntry,
    baseUrl: BASE,
    env: {
      PORT: String(PORT),
      DATA_DIR: path.join(dataDir, 'data'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      DEMO_PASSWORD,
      MFA_PROVIDER: onDuo ? 'duo' : 'builtin',
      ...(controlFile ? { DUO_STANDIN_CONTROL_FILE: controlFile } : {}),
    },
    timeoutMs: 190_000,
  });
});

test.afterAll(async () => {
  await server?.stop();
  if (onDuo) process.env.DUO_STANDIN_CONTROL_FILE = sharedControlFile;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * "Check it works" with the device's own code (a phone on Duo: with a push, approved on the phone): the
 * portal says it works.
 */
async function checkWorks(page: Page, upn: string, name: string, kind: string, token: string): Promise<void> {
  await pressButton(page, `Check it works: “${name}”`);
  const dialog = page.getByRole('dialog', { name: `Check that “${name}” works` });
  await expect(dialog).toBeVisible();
  // Once open, the dialog puts the focus in its code field: Tab from there.
  await expect(dialog.getByLabel('Code from the device')).toBeFocused();
  if (onDuo && kind === 'Phone') {
    const before = await pushIds(upn);
    await pressButton(page, 'Send a push', dialog);
    await answerPush(upn, name, 'allow', before, await numberShown(dialog));
    await expect(dialog.getByRole('status').filter({ hasText: 'Push approved' })).toContainText(`You approved the push on “${name}”.`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    return;
  }
  await expect(dialog.getByRole('button', { name: 'Send a push' })).toHaveCount(0);
  const code = kind === 'Hardware token' ? press(token) : await appCode(upn, name);
  await typeInto(page, 'Code from the device', code, dialog);
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('It works')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

async function renameAndBack(page: Page, name: string): Promise<void> {
  for (const [from, to] of [
    [name, `${name} (checked)`],
    [`${name} (checked)`, name],
  ] as const) {
    await pressButton(page, `Rename “${from}”`);
    const dialog = page.getByRole('dialog', { name: `Rename “${from}”` });
    await typeInto(page, 'New name', to, dialog);
    await page.keyboard.press('Enter');
    await expect(page.getByText(`The device is now called “${to}”.`)).toBeVisible();
  }
}

async function resync(page: Page, name: string, token: string): Promise<void> {
  await pressButton(page, `Resync “${name}”`);
  const dialog = page.getByRole('dialog', { name: `Resync “${name}”` });
  await typeInto(page, 'First code', press(token), dialog);
  await typeInto(page, 'Second code', press(token), dialog);
  await typeInto(page, 'Third code', press(token), dialog);
  await page.keyboard.press('Enter');
  await expect(page.getByText(`“${name}” is back in step and ready to use.`)).toBeVisible();
}

async function remove(page: Page, name: string, token: string): Promise<void> {
  await pressButton(page, `Remove “${name}”`);
  const confirm = page.getByRole('dialog', { name: `Remove “${name}”?` });
  // The dialog puts the focus on the safe choice once open: wait for that before moving it, or a late
  // move of the focus on a busy machine turns the Enter meant for "Remove" into "Keep it".
  await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await pressButton(page, 'Remove', confirm);
  // Gone from the list: the banner that says so lasts a few seconds only, which a busy machine can miss.
  const removeButton = page.getByRole('button', { name: `Remove “${name}”` });
  // A step-up is asked unless the user confirmed it is them in the last few minutes.
  const asked = await Promise.race([
    stepUpDialog(page)
      .waitFor({ state: 'visible' })
      .then(() => true),
    removeButton.waitFor({ state: 'detached' }).then(() => false),
  ]);
  if (asked) {
    await expect(stepUpDialog(page).getByLabel('Code from your device')).toBeFocused();
    await page.keyboard.type(press(token));
    await page.keyboard.press('Enter');
  }
  await expect(removeButton).toHaveCount(0);
}

const factOf = (card: Locator, label: string) =>
  card
    .locator('.device__facts > div')
    .filter({ has: card.page().locator('dt', { hasText: label }) })
    .locator('dd');

for (const account of ACCOUNTS) {
  test(
    `every demo device of ${account.upn} offers only what works, and each offered action succeeds`,
    { tag: '@both' },
    async ({ browser }) => {
      test.setTimeout(240_000);
      const context = await browser.newContext({ baseURL: BASE, ignoreHTTPSErrors: true });
      const page = await context.newPage();
      await page.goto('/');
      await signInAt(page, account.upn, DEMO_PASSWORD, { secondFactor: 'none' });
      await answerPasscode(page, press(account.token));
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

      const cards = page.getByRole('region', { name: 'Your devices' }).getByRole('article');
      await expect(cards.first()).toBeVisible();
      const names = (await cards.locator('h3').allTextContents()).map((n) => n.trim());
      expect(names.length).toBeGreaterThan(0);
      const removable: Array<{ name: string }> = [];

      for (const name of names) {
        const card = page.getByRole('article', { name });
        const kind = ((await factOf(card, 'Type').textContent()) ?? '').trim();
        const uses = ((await factOf(card, 'Can be used for').textContent()) ?? '').trim();
        if (onDuo) {
          // Duo reaches a phone (activated in Duo Mobile) with a push; a token shows codes.
          expect(['Phone', 'Hardware token'], `the type of “${name}”`).toContain(kind);
          expect(uses, `what “${name}” can be used for`).toBe(kind === 'Phone' ? 'Push, Passcode' : 'Passcode');
        } else {
          // The builtin provider cannot reach a phone: nothing is a push, and no demo device is a phone.
          expect(uses, `what “${name}” can be used for`).toBe('Passcode');
          expect(kind).not.toBe('Phone');
        }
        const offered = (await card.getByRole('button').allTextContents()).map((t) => t.trim());
        const known = ['Rename', 'Check it works', 'Resync', 'Remove'];
        expect(
          offered.every((o) => known.includes(o)),
          `actions offered on “${name}”: ${offered.join(', ')}`,
        ).toBe(true);
        if (account.protectedAccount) expect(offered).toEqual(['Check it works']);
        // Duo keeps no name for a hardware token: it is not offered for renaming.
        if (onDuo && kind === 'Hardware token') expect(offered).not.toContain('Rename');

        if (offered.includes('Check it works')) await checkWorks(page, account.upn, name, kind, account.token);
        if (offered.includes('Rename')) await renameAndBack(page, name);
        if (offered.includes('Resync')) await resync(page, name, account.token);
        if (offered.includes('Remove') && kind !== 'Hardware token') removable.push({ name });
      }
      // Removing works too (the token stays, to confirm it is them).
      for (const { name } of removable) await remove(page, name, account.token);
      await context.close();
    },
  );
}
