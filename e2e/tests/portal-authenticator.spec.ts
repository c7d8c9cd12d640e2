import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { devices, expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { answerPasscode, DEMO_PASSWORD, demoTokenSeed, hotp, onDuo, signInAt } from './helpers';
import { expectAccessible, signOut, stepUpDialog, tabTo, watchCsp } from './support/portal';
import { startPortalProcess, type PortalProcess } from './support/portal-process';
import { PushServiceStandIn, type StandInSubscription } from './support/push-service';

/**
 * Portal Authenticator, the portal's own phone app, end to end with two browser contexts: the desktop,
 * and the phone (a Pixel 7's viewport, touch and user agent, with its own storage).
 *
 * - Enrol through the activation link (read as text from the desktop page, opened in the phone), name
 *   the phone on the desktop, sign out, sign in again with a push: the phone, opened at /authenticator/,
 *   shows the request with its context, the number the desktop shows is typed, the desktop goes on.
 * - A wrong number refused; a denial then "This wasn't me"; step-up by push; the helpdesk's verification
 *   push; the app by keyboard alone, and axe on it.
 *
 * Web Push: headless Chromium cannot subscribe to a real push service, so the phone's PushManager is
 * given a subscription the Web Push stand-in made (support/push-service.ts), and the tests check that
 * the stand-in received a VAPID-signed push whose decrypted payload names the request. The phone itself
 * hears requests over server-sent events while the app is open.
 *
 * The portal trusts the stand-in's certificate (NODE_EXTRA_CA_CERTS), so the journeys run on a portal of
 * their own with fresh data (the same server.ts), builtin provider only.
 */

const PORT = Number(process.env.E2E_PORT ?? 8643) + 62;
const BASE = `https://localhost:${PORT}/`;
const PHONE = devices['Pixel 7'];

let dataDir: string;
let server: PortalProcess | undefined;
let pushService: PushServiceStandIn;

test.skip(onDuo, 'Portal Authenticator is the builtin provider’s; Duo phones use Duo Mobile');

// The app's service worker must install for Web Push, and Chromium installs none from a certificate it
// does not trust (the test portal's is self-signed): this file's browser trusts it.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--ignore-certificate-errors'],
  },
});

test.beforeAll(async () => {
  // A busy machine (CI's two cores) takes a minute or more to start a portal.
  test.setTimeout(200_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-e2e-authenticator-'));
  pushService = await PushServiceStandIn.start();
  const ca = path.join(dataDir, 'push-service-ca.pem');
  pushService.writeCertificate(ca);
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
      // The portal sends Web Push to the stand-in over HTTPS, with the stand-in's certificate.
      NODE_EXTRA_CA_CERTS: ca,
    },
    timeoutMs: 190_000,
  });
});

test.afterAll(async () => {
  await server?.stop();
  await pushService?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The phone: a mobile context whose PushManager hands out `subscription` (the stand-in's) once
 * notifications are allowed, as a real browser would hand out its push service's.
 */
async function phoneContext(browser: Browser, subscription: StandInSubscription): Promise<BrowserContext> {
  const context = await browser.newContext({ ...PHONE, ignoreHTTPSErrors: true });
  await context.addInitScript((sub) => {
    let permission: NotificationPermission = 'default';
    let subscribed = false;
    Object.defineProperty(Notification, 'permission', { get: () => permission });
    Notification.requestPermission = async () => (permission = 'granted');
    const fake = { endpoint: sub.endpoint, expirationTime: null, options: {}, toJSON: () => sub, unsubscribe: async () => true };
    PushManager.prototype.subscribe = async function () {
      subscribed = true;
      return fake as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async function () {
      return (subscribed ? fake : null) as unknown as PushSubscription | null;
    };
  }, subscription);
  return context;
}

async function desktopContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
}

/** Signs in at this file's portal; `passcode` answers the second-factor page when it shows. */
async function signIn(page: Page, upn: string, passcode?: () => string): Promise<void> {
  await page.goto(BASE);
  await signInAt(page, upn, DEMO_PASSWORD, { secondFactor: 'none' });
  if (passcode) await answerPasscode(page, passcode());
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/** The number a portal page shows for the app (step-up, check, helpdesk): two digits, large. */
async function numberOnPage(scope: Locator): Promise<string> {
  const value = scope.locator('.push-code__value');
  await expect(value).toHaveText(/^\d{2}$/);
  return (await value.textContent())!.trim();
}

/** Starts an activation on the desktop and returns the link the page shows as text. */
async function activationLinkOn(desktop: Page): Promise<string> {
  await desktop.goto(`${BASE}devices/add`);
  await desktop
    .getByRole('link', { name: 'Set up Portal Authenticator' })
    .or(desktop.getByRole('button', { name: 'Set up Portal Authenticator' }))
    .click();
  await desktop.getByRole('button', { name: 'Show the QR code and link' }).click();
  return activationLinkShown(desktop);
}

async function activationLinkShown(desktop: Page): Promise<string> {
  const link = desktop.getByTestId('activation-url');
  await expect(link).toHaveText(/\/authenticator\/#activate=[A-Za-z0-9_-]{43}$/);
  return (await link.textContent())!.trim();
}

/** On the phone: opens the link, allows notifications, sets the phone up as `name`. */
async function activateOnPhone(phone: Page, link: string, upn: string, name: string): Promise<void> {
  await phone.goto(link);
  await expect(phone.getByRole('heading', { name: 'Set up this phone' })).toBeVisible();
  await phone.getByRole('button', { name: 'Allow notifications' }).click();
  await expect(phone.getByText('Notifications are on.')).toBeVisible();
  await phone.getByLabel('Name of this phone').fill(name);
  await phone.getByRole('button', { name: 'Set up this phone' }).click();
  await expect(phone.getByRole('heading', { name: `This phone is ready for ${upn}` })).toBeVisible();
  await phone.getByRole('button', { name: 'Show my passcodes' }).click();
}

/** On the desktop after activation: keeps (or changes) the phone's name; the list then shows it. */
async function nameOnDesktop(desktop: Page, name: string): Promise<void> {
  await expect(desktop.getByRole('heading', { name: 'Your phone is connected' })).toBeVisible();
  const field = desktop.getByLabel('Name for this phone');
  await field.fill(name);
  await desktop.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(desktop.getByText(`Portal Authenticator on ${name}`).first()).toBeVisible();
}

/** Desktop and phone for `upn` with an activated phone, the desktop signed in. */
async function enrolled(browser: Browser, upn: string, name: string) {
  const subscription = pushService.newSubscription();
  const desktopCtx = await desktopContext(browser);
  const phoneCtx = await phoneContext(browser, subscription);
  const desktop = await desktopCtx.newPage();
  const phone = await phoneCtx.newPage();
  await signIn(desktop, upn);
  const link = await activationLinkOn(desktop);
  await activateOnPhone(phone, link, upn, name);
  await nameOnDesktop(desktop, name);
  return {
    desktop,
    phone,
    subscription,
    async close() {
      await desktopCtx.close();
      await phoneCtx.close();
    },
  };
}

/** The request the phone shows, once it arrives (over the event stream while the app is open). */
async function requestOnPhone(phone: Page, title: string | RegExp): Promise<Locator> {
  const card = phone.locator('section.request');
  await expect(card.getByRole('heading', { name: title })).toBeVisible();
  return card;
}

/** The stand-in received an encrypted, VAPID-signed push for `account` of this kind. */
async function expectWebPush(subscription: StandInSubscription, account: string, kind: string): Promise<void> {
  const delivery = await pushService.waitForDelivery(
    (d) => d.endpoint === subscription.endpoint && (d.payload as { kind?: string } | null)?.kind === kind,
    15_000,
  );
  expect(delivery.payload).toMatchObject({ type: 'push_request', account, kind, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  expect(delivery.claims.aud).toBe(pushService.url);
  expect(delivery.headers['content-encoding']).toBe('aes128gcm');
}

test('enrol with the activation link, sign out, sign in again by push with the number', async ({ browser }) => {
  const upn = 'carol@example.com';
  const { desktop, phone, subscription, close } = await enrolled(browser, upn, 'Carol’s Pixel');
  const csp = watchCsp(desktop);

  await test.step('sign out, then sign in again with a push', async () => {
    await signOut(desktop);
    await desktop.goto(BASE);
    await signInAt(desktop, upn, DEMO_PASSWORD, { secondFactor: 'none' });
    await desktop.getByRole('button', { name: 'Send a push to Carol’s Pixel' }).click();
    await expect(desktop.getByRole('heading', { name: 'Approve the push on your phone' })).toBeVisible();
  });

  const number = (await desktop.locator('.push-number').textContent())!.trim();
  expect(number).toMatch(/^\d{2}$/);

  await test.step('the phone, opened at /authenticator/, shows what, where and when', async () => {
    await phone.goto(`${BASE}authenticator/`);
    const card = await requestOnPhone(phone, 'Sign-in request');
    await expect(card).toContainText(`For ${upn}`);
    await expect(card.locator('dt', { hasText: 'Application' }).locator('+ dd')).not.toBeEmpty();
    await expect(card.locator('dt', { hasText: 'Browser' }).locator('+ dd')).toContainText(/Chrom/);
    await expect(card.locator('dt', { hasText: 'Address' }).locator('+ dd')).toContainText('127.0.0.1');
  });

  await test.step('the Web Push stand-in got the push, decrypted', () => expectWebPush(subscription, upn, 'sign_in'));

  await test.step('the number typed, approved: the desktop goes on, signed in', async () => {
    await phone.getByLabel('Type the number shown on your screen').fill(number);
    await phone.getByRole('button', { name: 'Approve' }).click();
    await expect(phone.getByText('Approved. You can go back to your screen.')).toBeVisible();
    await expect(desktop.getByRole('button', { name: 'Sign out' })).toBeVisible();
  });
  expect(csp.violations()).toEqual([]);
  await close();
});

test('a wrong number is refused; a denial can be reported as “This wasn’t me”', async ({ browser }) => {
  const upn = 'dave@example.com';
  const { desktop, phone, close } = await enrolled(browser, upn, 'Dave’s phone');
  await phone.goto(`${BASE}authenticator/`);

  const dialog = desktop.getByRole('dialog', { name: /Check that .* works/ });
  await test.step('a check by push, answered with the wrong number: refused on both sides', async () => {
    await desktop
      .getByRole('button', { name: /Check it works/ })
      .first()
      .click();
    await dialog.getByRole('button', { name: 'Send a push' }).click();
    const number = await numberOnPage(dialog);
    const wrong = number === '10' ? '11' : String(Number(number) - 1).padStart(2, '0');
    await requestOnPhone(phone, 'Check this phone');
    await phone.getByLabel('Type the number shown on your screen').fill(wrong);
    await phone.getByRole('button', { name: 'Approve' }).click();
    await expect(phone.getByText(/That number doesn.t match\. The request was refused\./)).toBeVisible();
    await expect(dialog.getByText(/denied/i).first()).toBeVisible();
  });

  await test.step('another push, denied, then “This wasn’t me”', async () => {
    await phone.getByRole('button', { name: 'Done' }).click();
    await dialog.getByRole('button', { name: /Send (another|a) push/ }).click();
    await numberOnPage(dialog);
    await requestOnPhone(phone, 'Check this phone');
    await phone.getByRole('button', { name: 'Deny' }).click();
    await expect(phone.getByText('Request denied.')).toBeVisible();
    // The desktop first: it shows the state its stream reads first, so a report that reached the server
    // before that read would show "reported as not you" instead (also right, but not this step's check).
    await expect(dialog.getByText(/denied/i).first()).toBeVisible();
    await phone.getByRole('button', { name: /This wasn.t me/ }).click();
    await expect(phone.getByText('Thank you, your report was recorded.', { exact: false })).toBeVisible();
  });
  await close();
});

test('step-up by push: adding a second phone asks to confirm it is you, approved in the app', async ({ browser }) => {
  const upn = 'frank@example.com';
  const { desktop, phone, subscription, close } = await enrolled(browser, upn, 'Frank’s phone');
  await phone.goto(`${BASE}authenticator/`);

  await desktop.goto(`${BASE}devices/add`);
  await desktop
    .getByRole('link', { name: 'Set up Portal Authenticator' })
    .or(desktop.getByRole('button', { name: 'Set up Portal Authenticator' }))
    .click();
  await desktop.getByRole('button', { name: 'Show the QR code and link' }).click();
  const dialog = stepUpDialog(desktop);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: 'A push to my phone (approve it on the phone)' }).check();
  await dialog.getByRole('button', { name: 'Send a push' }).click();
  const number = await numberOnPage(dialog);
  await requestOnPhone(phone, 'Confirm a change');
  await expectWebPush(subscription, upn, 'step_up');
  await phone.getByLabel('Type the number shown on your screen').fill(number);
  await phone.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  // The change it guarded goes ahead: a new activation link.
  await activationLinkShown(desktop);
  await close();
});

test('the helpdesk verifies a caller with a push to Portal Authenticator', async ({ browser }) => {
  const upn = 'ivan@example.com';
  const { phone, close } = await enrolled(browser, upn, 'Ivan’s phone');
  await phone.goto(`${BASE}authenticator/`);
  const helpdeskCtx = await desktopContext(browser);
  const helpdesk = await helpdeskCtx.newPage();
  // This portal's data is fresh: the helpdesk's demo token starts from its first code.
  let counter = 0;
  await signIn(helpdesk, 'helpdesk@example.com', () => hotp(demoTokenSeed('D100-0005'), counter++));

  await helpdesk.goto(`${BASE}admin/users/ivan%40example.com/`);
  const region = helpdesk.getByRole('region', { name: 'Verify the caller' });
  await region.getByRole('button', { name: 'Send a verification push' }).click();
  const number = await numberOnPage(region);
  const card = await requestOnPhone(phone, /^Helpdesk check/);
  // The phone names who at the helpdesk asks (the demo helpdesk member's display name).
  await expect(card).toContainText('Helpdesk check by Hana Helpdesk');
  await phone.getByLabel('Type the number shown on your screen').fill(number);
  await phone.getByRole('button', { name: 'Approve' }).click();
  await expect(region.getByRole('status').filter({ hasText: 'Verified by' })).toContainText('Verified by push at');
  await helpdeskCtx.close();
  await close();
});

test('the app by keyboard alone, and accessible (axe WCAG 2.2 AA)', async ({ browser }) => {
  const upn = 'judy@example.com';
  const subscription = pushService.newSubscription();
  const desktopCtx = await desktopContext(browser);
  const phoneCtx = await phoneContext(browser, subscription);
  const desktop = await desktopCtx.newPage();
  const phone = await phoneCtx.newPage();
  await signIn(desktop, upn);
  const link = await activationLinkOn(desktop);

  await phone.goto(link);
  await expect(phone.getByRole('heading', { name: 'Set up this phone' })).toBeVisible();
  await expectAccessible(phone, 'the app: setting up the phone');
  await tabTo(phone, phone.getByLabel('Name of this phone'));
  await phone.keyboard.press('ControlOrMeta+a');
  await phone.keyboard.type('Judy’s phone');
  await tabTo(phone, phone.getByRole('button', { name: 'Set up this phone' }));
  await phone.keyboard.press('Enter');
  await expect(phone.getByRole('heading', { name: `This phone is ready for ${upn}` })).toBeVisible();
  await expectAccessible(phone, 'the app: phone ready');
  await tabTo(phone, phone.getByRole('button', { name: 'Show my passcodes' }));
  await phone.keyboard.press('Enter');
  await expect(phone.getByText(`Passcode for ${upn}`)).toBeVisible();
  await expectAccessible(phone, 'the app: passcodes');
  await nameOnDesktop(desktop, 'Judy’s phone');

  await desktop
    .getByRole('button', { name: /Check it works/ })
    .first()
    .click();
  const dialog = desktop.getByRole('dialog', { name: /Check that .* works/ });
  await dialog.getByRole('button', { name: 'Send a push' }).click();
  const number = await numberOnPage(dialog);
  await requestOnPhone(phone, 'Check this phone');
  await expectAccessible(phone, 'the app: a request');
  await tabTo(phone, phone.getByLabel('Type the number shown on your screen'));
  await phone.keyboard.type(number);
  await phone.keyboard.press('Enter');
  await expect(phone.getByText('Approved. You can go back to your screen.')).toBeVisible();
  await expectAccessible(phone, 'the app: approved');
  await expect(dialog.getByText(/approved/i).first()).toBeVisible();
  await desktopCtx.close();
  await phoneCtx.close();
});
