import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end journeys in Debian's Chromium against the real server on the embedded default
 * (embedded identity provider, PGlite in a throw-away data directory, builtin MFA provider).
 */
const PORT = Number(process.env.E2E_PORT ?? 8643);
export const BASE_URL = `https://localhost:${PORT}/`;
const dataDir = path.join(os.tmpdir(), `mfa-portal-e2e-${PORT}`);

export default defineConfig({
  testDir: './tests',
  // Journeys only for Duo run with playwright.duo.config.ts.
  grepInvert: /@duo/,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: path.join(os.tmpdir(), `mfa-portal-e2e-results-${PORT}`),
  use: {
    baseURL: BASE_URL,
    ignoreHTTPSErrors: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    // The same server `npm start` runs (the SPA is built by `npm test` before this), fresh data each run.
    command: `rm -rf "${dataDir}" && node --import tsx ../apps/server/src/server.ts`,
    cwd: import.meta.dirname,
    url: `${BASE_URL}settings/APIInfo`,
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'test', DEMO_PASSWORD: 'portal-demo' },
  },
});
