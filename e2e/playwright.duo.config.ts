import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import builtin from './playwright.config';
import { onStandin } from './playwright.standin';

/**
 * The same end-to-end journeys on Duo: the real server with MFA_PROVIDER=duo against the Duo stand-in
 * (apps/server/test/duo/portal-on-standin.ts starts the stand-in on loopback, seeds the demo staff at
 * it, then the server). Only the journeys tagged `@both` (those where the provider changes what the
 * page does or asks) and `@duo` (what only Duo does) run here. The specs read E2E_MFA_PROVIDER=duo
 * where Duo differs (token names, a journey's first device).
 *
 * Port: E2E_DUO_PORT (default 8743), so it can run beside the builtin configuration (8643).
 */
const PORT = Number(process.env.E2E_DUO_PORT ?? 8743);
export const BASE_URL = `https://localhost:${PORT}/`;
process.env.E2E_MFA_PROVIDER = 'duo';
// Where the stand-in's loopback control endpoint (address and token) is written: the journeys answer
// pushes there (e2e/tests/support/duo-standin.ts). The workers inherit it from this process.
const controlFile = path.join(os.tmpdir(), `mfa-portal-e2e-duo-control-${PORT}.json`);
process.env.DUO_STANDIN_CONTROL_FILE = controlFile;

export default defineConfig({
  ...builtin,
  // No mailbox: these portals send no e-mail (SMTP_URL unset).
  globalSetup: undefined,
  grep: /@both|@duo/,
  grepInvert: undefined,
  ...onStandin({
    name: 'duo',
    port: PORT,
    launcher: 'duo/portal-on-standin.ts',
    controlFile,
    env: { E2E_MFA_PROVIDER: 'duo', DUO_STANDIN_CONTROL_FILE: controlFile },
  }),
});
