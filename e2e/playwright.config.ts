import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end journeys in Debian's Chromium against the real server on the embedded default
 * (embedded identity provider, PGlite in a throw-away data directory, builtin MFA provider). The
 * journeys tagged `@both` run on Duo too (playwright.duo.config.ts).
 */
const PORT = Number(process.env.E2E_PORT ?? 8643);
export const BASE_URL = `https://localhost:${PORT}/`;
const dataDir = path.join(os.tmpdir(), `mfa-portal-e2e-${PORT}`);
/**
 * The builtin journeys' mail: a real SMTP server started by the global set-up (mailbox.setup.ts) on this
 * port, where the portal sends its security e-mail; what it receives lands in MAILBOX_DIR.
 */
export const SMTP_PORT = PORT + 25;
export const MAILBOX_DIR = path.join(os.tmpdir(), `mfa-portal-e2e-mail-${PORT}`);
export const SECURITY_CONTACT = 'security@example.com';

/**
 * What every end-to-end server runs with. The journeys sign in, verify and push from one address
 * (127.0.0.1), minutes of a person's work compressed into seconds, one journey after another for the
 * same demo users: the verification budgets (10 a minute per user, 30 per address by default) and the
 * push budget (5 pushes per user in ten minutes: bob alone is sent more than that by the journeys on
 * Duo within ten minutes) are raised so a quick run does not trip them. Those limits are proven by the
 * server's own suites (verification, rate-limit and authenticator tests), not here.
 */
export const E2E_SERVER_ENV = {
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
  DEMO_PASSWORD: 'portal-demo',
  MFA_VERIFY_LIMIT_PER_USER: '1000',
  MFA_VERIFY_LIMIT_PER_ADDRESS: '10000',
  PUSH_LIMIT_PER_USER: '1000',
};

export default defineConfig({
  testDir: './tests',
  globalSetup: './mailbox.setup.ts',
  // Journeys only for Duo run with playwright.duo.config.ts.
  grepInvert: /@duo/,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // The journeys reach every control with Tab alone (support/portal.ts tabTo): longer than clicking.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: path.join(os.tmpdir(), `mfa-portal-e2e-results-${PORT}`),
  use: {
    baseURL: BASE_URL,
    ignoreHTTPSErrors: true,
    // DOM snapshots and the network, without the screencast: its frames cost the journeys a quarter of
    // their CPU on 2 cores, and a failure is read from the snapshots.
    trace: { mode: 'retain-on-failure', screenshots: false },
    // The browser asks for reduced motion, as a person can in their system settings, and the portal
    // honours it: dialogs and toasts appear without zooming. A click then lands where the control is,
    // not where a dialog still growing on a loaded machine had it a frame before, and 2 cores render
    // fewer frames. The keyboard journeys and a removal keep the full motion
    // (keyboard-journeys.spec.ts, staff-delete-device.spec.ts). A second context a journey opens with
    // browser.newContext() gets these options too, as Playwright Test gives them to every context.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    // The same server `npm start` runs, compiled (`npm run build`, which `npm test` runs before this,
    // builds the SPA and apps/server/dist), with fresh data each run.
    command: `rm -rf "${dataDir}" && node --enable-source-maps ../apps/server/dist/server.js`,
    cwd: import.meta.dirname,
    url: `${BASE_URL}settings/APIInfo`,
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      ...E2E_SERVER_ENV,
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      MAIL_FROM: 'MFA portal <mfa-portal@example.com>',
      SECURITY_CONTACT_EMAIL: SECURITY_CONTACT,
      NOTIFY_POLL_SECONDS: '1',
    },
  },
});
