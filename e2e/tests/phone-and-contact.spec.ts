import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { answerPasscode, DEMO_PASSWORD, onDuo, signInAt } from './helpers';
import { expectAccessible, stepUpDialog, tokenCode, watchCsp } from './support/portal';
import { startPortalProcess, type PortalProcess } from './support/portal-process';

/**
 * A phone in hand (390×844, touch, a phone's browser) on a portal that names its service desk
 * (SERVICE_DESK_CONTACT and SERVICE_DESK_LINK):
 * - adding an authenticator app offers the `otpauth://` link that opens the app, and Portal
 *   Authenticator's page the activation link, on this phone;
 * - every page that sends people to the service desk says how to reach it, the shell's error pages
 *   and the identity provider's sign-in pages included, without a request the shell does not list;
 * - device cards are compact, the navigation is one row, a click lights up no heading;
 * - a step-up is not asked for twice inside its window, and another sign-in does not inherit it.
 *
 * The portal is this file's own (fresh data, the setting on), so its demo staff start as seeded:
 * alice@ has no device; erin@ has the authenticator app "Old phone" and the demo token D100-0004.
 */

const PORT = Number(process.env.E2E_PORT ?? 8643) + 64;
const BASE = `https://localhost:${PORT}/`;
const DESK = 'IT Service Desk, +44 20 7946 0000';
const DESK_LINK = 'tel:+442079460000';
const ALICE = 'alice@example.com';
const ERIN = 'erin@example.com';
const ERIN_TOKEN = 'D100-0004';

const PHONE = {
  viewport: { width: 390, height: 844 },
  screen: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  ignoreHTTPSErrors: true,
  baseURL: BASE,
};

test.skip(onDuo, 'the builtin provider’s authenticator apps and the embedded sign-in pages');

let dataDir: string;
let server: PortalProcess | undefined;
/** The next press of erin's demo token on this fresh portal. */
let erinCounter = 0;

test.beforeAll(async () => {
  // A busy machine (CI's two cores) takes a minute or more to start a portal.
  test.setTimeout(200_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-e2e-phone-contact-'));
  server = await startPortalProcess({
    entry: path.join(import.meta.dirname, '..', '..', 'apps', 'server', 'src', 'server.ts'),
    baseUrl: BASE,
    env: {
      PORT: String(PORT),
      DATA_DIR: path.join(dataDir, 'data'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      DEMO_PASSWORD,
      MFA_PROVIDER: 'builtin',
      MFA_VERIFY_LIMIT_PER_USER: '1000',
      MFA_VERIFY_LIMIT_PER_ADDRESS: '10000',
      SERVICE_DESK_CONTACT: DESK,
      SERVICE_DESK_LINK: DESK_LINK,
    },
    timeoutMs: 190_000,
  });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const phoneContext = (browser: Browser): Promise<BrowserContext> => browser.newContext(PHONE);

/** The service desk's contact as the pages show it: the configured text, a link to the configured number. */
async function expectContact(page: Page, where: string): Promise<void> {
  const link = page.getByRole('link', { name: DESK, exact: true });
  await expect(link, `the service desk's contact on ${where}`).toBeVisible();
  await expect(link).toHaveAttribute('href', DESK_LINK);
}

/** Signs in as erin with her token's next code, checking the contact on the identity provider's pages. */
async function signInErin(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await page.waitForURL(/\/idp\/interaction\//);
  await expectContact(page, 'the sign-in page');
  await signInAt(page, ERIN, DEMO_PASSWORD, { secondFactor: 'none' });
  await expect(page.getByLabel('Passcode')).toBeVisible();
  await expectContact(page, 'the sign-in code page');
  await answerPasscode(page, tokenCode(ERIN_TOKEN, erinCounter++));
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

async function signInAlice(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await signInAt(page, ALICE);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

test('on a phone, adding an authenticator app opens the app, and Portal Authenticator opens here', async ({ browser }) => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  const csp = watchCsp(page);
  await signInAlice(page, '/devices/add/authenticator');
  await expect(page.getByRole('heading', { level: 1, name: 'Add an authenticator app' })).toBeVisible();
  await page.getByRole('button', { name: 'Show my QR code' }).tap();

  const open = page.getByRole('link', { name: 'Open in your authenticator app' });
  await expect(open).toBeVisible();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const uri = new URL((await open.getAttribute('href')) ?? '');
  expect(uri.protocol).toBe('otpauth:');
  expect(uri.host).toBe('totp');
  expect(decodeURIComponent(uri.pathname)).toMatch(/^\/.+:alice@example\.com$/);
  expect(Object.fromEntries(uri.searchParams)).toEqual({
    secret,
    issuer: decodeURIComponent(uri.pathname).slice(1).split(':')[0],
    algorithm: 'SHA1',
    digits: '6',
    period: '30',
  });
  // The key stays as text with Copy, and the QR code is still there for another phone.
  await expect(page.getByRole('button', { name: 'Copy the key' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  await expectAccessible(page, 'adding an authenticator app on a phone');

  await page.goto('/devices/add/portal-authenticator');
  await page.getByRole('button', { name: 'Show the QR code and link' }).tap();
  const here = page.getByRole('link', { name: 'Open on this phone (opens in a new tab)' });
  await expect(here).toBeVisible();
  const shown = (await page.getByTestId('activation-url').textContent()) ?? '';
  expect(shown).toMatch(/^https:\/\/localhost:\d+\/authenticator\//);
  await expect(here).toHaveAttribute('href', shown);
  await expectAccessible(page, "Portal Authenticator's activation link on a phone");
  expect(csp.violations()).toEqual([]);
  await context.close();
});

test('the service desk contact is on every page that sends people there, the shell errors with no extra request', async ({ browser }) => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  // The shell's error pages read it from index.html: nothing outside the shell's list of calls is fetched.
  const allowed = /^\/(error\/\w+|settings\/(AADClientInfo|APIInfo)|locales\/.+\.json|static\/.+|service-worker\.js|favicon\.ico)?$/;
  const requests: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  for (const errorPage of ['/error/unauthorized', '/error/500', '/error/accountdisabled', '/error/missingtwofactor']) {
    await page.goto(errorPage);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectContact(page, errorPage);
  }
  expect(requests.filter((p) => !allowed.test(p))).toEqual([]);
  await expectAccessible(page, 'an error page with the service desk contact');

  await signInErin(page);
  for (const [where, heading] of [
    ['/', 'Hello, Erin'],
    ['/help', 'Help'],
    ['/devices/lost', 'Lost a device'],
    ['/activity', 'Activity'],
    ['/admin', 'Not available for your role'],
  ] as const) {
    await page.goto(where);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectContact(page, where);
  }
  await expectAccessible(page, 'the role refusal with the service desk contact');
  await context.close();
});

test('a phone: compact device cards, a one-row menu, no focus box after a tap, no second step-up', async ({ browser }) => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  const csp = watchCsp(page);
  await signInErin(page);

  await test.step('device cards about half their old height (380 px)', async () => {
    const cards = page.getByRole('region', { name: 'Your devices' }).getByRole('article');
    await expect(cards).toHaveCount(2);
    for (const card of await cards.all()) {
      const box = await card.boundingBox();
      expect(box!.height, `height of the card of ${await card.getByRole('heading').textContent()}`).toBeLessThanOrEqual(200);
    }
    await expectAccessible(page, 'the overview on a phone');
  });

  await test.step('the navigation is one row, and the header is not much more', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    const tops = await nav.getByRole('link').evaluateAll((links) => links.map((l) => Math.round(l.getBoundingClientRect().top)));
    expect(new Set(tops).size, `rows of the menu (link tops ${tops.join(', ')})`).toBe(1);
    expect((await nav.boundingBox())!.height).toBeLessThanOrEqual(56);
    expect((await page.getByRole('banner').boundingBox())!.height).toBeLessThanOrEqual(120);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  await test.step('a tap on a menu link focuses the heading without a focus box; the keyboard shows it', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Help' }).tap();
    const help = page.getByRole('heading', { level: 1, name: 'Help' });
    await expect(help).toBeFocused();
    expect(await help.evaluate((h) => getComputedStyle(h).outlineStyle)).toBe('none');
    await nav.getByRole('link', { name: 'Overview' }).focus();
    await page.keyboard.press('Enter');
    const overview = page.getByRole('heading', { level: 1, name: 'Hello, Erin' });
    await expect(overview).toBeFocused();
    expect(await overview.evaluate((h) => getComputedStyle(h).outlineStyle)).toBe('solid');
  });

  await test.step('the rename is confirmed on the renamed card', async () => {
    // "Check it works" and "More" on the card; the rest on request.
    const more = page.getByRole('button', { name: 'More actions for “Old phone”' });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('button', { name: 'Rename “Old phone”' })).toBeHidden();
    await more.tap();
    await page.getByRole('button', { name: 'Rename “Old phone”' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Rename “Old phone”' });
    await dialog.getByLabel('New name').fill('Kitchen phone');
    await dialog.getByRole('button', { name: 'Save the name' }).tap();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('article', { name: 'Kitchen phone' });
    await expect(card.getByRole('status')).toHaveText('✓ The device is now called “Kitchen phone”.');
    await expect(card.getByRole('status')).toBeInViewport();
  });

  await test.step('one step-up, then nothing asked again inside its window', async () => {
    await expect(page.getByRole('button', { name: 'More actions for “Kitchen phone”' })).toHaveAttribute('aria-expanded', 'true');
    await page.getByRole('button', { name: 'Remove “Kitchen phone”' }).tap();
    const remove = page.getByRole('dialog', { name: 'Remove “Kitchen phone”?' });
    await remove.getByRole('button', { name: 'Remove' }).tap();
    const stepUp = stepUpDialog(page);
    await expect(stepUp).toContainText('You will not be asked again for a few minutes.');
    await stepUp.getByLabel('Code from your device').fill(tokenCode(ERIN_TOKEN, erinCounter++));
    await stepUp.getByRole('button', { name: 'Confirm' }).tap();
    await expect(page.getByRole('article', { name: 'Kitchen phone' })).toHaveCount(0);

    await page.getByRole('link', { name: 'Lost a device?' }).tap();
    await page.getByRole('button', { name: 'Confirm it is me' }).tap();
    await expect(page.getByRole('heading', { name: 'Step 2: Remove the lost device' })).toBeVisible();
    await expect(stepUp).toHaveCount(0);
  });

  await test.step('another sign-in of erin does not inherit it', async () => {
    const other = await phoneContext(browser);
    const second = await other.newPage();
    await signInErin(second, '/devices/lost');
    await second.getByRole('button', { name: 'Confirm it is me' }).tap();
    await expect(stepUpDialog(second)).toBeVisible();
    await stepUpDialog(second).getByRole('button', { name: 'Cancel' }).tap();
    await expect(second.getByRole('heading', { name: 'Step 1: Confirm it is you' })).toBeVisible();
    await other.close();
  });
  expect(csp.violations()).toEqual([]);
  await context.close();
});
