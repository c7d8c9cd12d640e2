import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import builtin from './playwright.config';

/**
 * The same end-to-end journeys on Duo: the real server with MFA_PROVIDER=duo against the Duo stand-in
 * (apps/server/test/duo/portal-on-standin.ts starts the stand-in on loopback, seeds the demo staff at
 * it, then the server). Only the journeys tagged `@both` (those a Duo organisation can walk too) and
 * `@duo` (what Duo refuses) run here. The specs read E2E_MFA_PROVIDER=duo where Duo differs (token
 * names, a journey's first device).
 *
 * Port: E2E_DUO_PORT (default 8743), so it can run beside the builtin configuration (8643).
 */
const PORT = Number(process.env.E2E_DUO_PORT ?? 8743);
export const BASE_URL = `https://localhost:${PORT}/`;
const dataDir = path.join(os.tmpdir(), `mfa-portal-e2e-duo-${PORT}`);
process.env.E2E_MFA_PROVIDER = 'duo';
// Where the stand-in's loopback control endpoint (address and token) is written: the journeys answer
// pushes there (e2e/tests/support/duo-standin.ts). The workers inherit it from this process.
const controlFile = path.join(os.tmpdir(), `mfa-portal-e2e-duo-control-${PORT}.json`);
process.env.DUO_STANDIN_CONTROL_FILE = controlFile;

export default defineConfig({
  ...builtin,
  grep: /@both|@duo/,
  grepInvert: undefined,
  outputDir: path.join(os.tmpdir(), `mfa-portal-e2e-duo-results-${PORT}`),
  use: { ...builtin.use, baseURL: BASE_URL },
  webServer: {
    command: `rm -rf "${dataDir}" "${controlFile}" && node --import tsx ../apps/server/test/duo/portal-on-standin.ts`,
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
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      DEMO_PASSWORD: 'portal-demo',
      E2E_MFA_PROVIDER: 'duo',
      DUO_STANDIN_CONTROL_FILE: controlFile,
    },
  },
});
