import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import builtin from './playwright.config';
import { onStandin } from './playwright.standin';

/**
 * The journeys of production mode: the real server with IDP_MODE=entra against the Entra stand-in
 * (apps/server/test/entra/portal-on-entra.ts starts the stand-in on loopback, seeds the portal's
 * database for the demo staff, then the server). Sign-in goes through MSAL's redirect to the
 * stand-in's authorize endpoint, as it would to login.microsoftonline.com. The journeys are in
 * e2e/entra/ (they sign in at Entra's form, not the embedded provider's).
 *
 * Access tokens live ENTRA_STANDIN_TOKEN_SECONDS (20 s here): MSAL renews any token with less than
 * five minutes left, so every call of the portal is served by a silent refresh, and the renewal
 * journey waits for the first token to expire.
 *
 * Ports: E2E_ENTRA_PORT (default 8843) for the portal, E2E_ENTRA_STANDIN_PORT (default the next one) for
 * the stand-in.
 */
const PORT = Number(process.env.E2E_ENTRA_PORT ?? 8843);
export const BASE_URL = `https://localhost:${PORT}/`;
// The stand-in's own port: E2E_ENTRA_STANDIN_PORT, or the one after the portal's.
const STANDIN_PORT = Number(process.env.E2E_ENTRA_STANDIN_PORT ?? PORT + 1);
// Where the stand-in's control routes (address and token) are written; the workers inherit it.
const controlFile = path.join(os.tmpdir(), `mfa-portal-e2e-entra-control-${PORT}.json`);
process.env.ENTRA_STANDIN_CONTROL_FILE = controlFile;
export const TOKEN_SECONDS = 20;

export default defineConfig({
  ...builtin,
  // No mailbox: these portals send no e-mail (SMTP_URL unset).
  globalSetup: undefined,
  testDir: './entra',
  grep: undefined,
  grepInvert: undefined,
  ...onStandin({
    name: 'entra',
    port: PORT,
    launcher: 'entra/portal-on-entra.ts',
    controlFile,
    env: {
      ENTRA_STANDIN_PORT: String(STANDIN_PORT),
      ENTRA_STANDIN_TOKEN_SECONDS: String(TOKEN_SECONDS),
      ENTRA_STANDIN_CONTROL_FILE: controlFile,
    },
  }),
});
