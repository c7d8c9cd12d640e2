import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { DEMO_STAFF, demoRolesOf, seedDemoStaff } from '../../src/demo/seed.js';
import { runIfEntryPoint, runPortalServer, writeCaFile } from '../portal-on-standin-process.js';
import { EntraStandin } from './entra-standin.js';

/**
 * The portal in production mode (IDP_MODE=entra) against the Entra stand-in, for the end-to-end
 * journeys (e2e/playwright.entra.config.ts); test code only:
 *
 * 1. starts the Entra stand-in on loopback (HTTPS, its own certificate) on ENTRA_STANDIN_PORT, with the
 *    portal's redirect URIs registered and access tokens living ENTRA_STANDIN_TOKEN_SECONDS (short,
 *    so the journeys see silent renewal), v2-shaped unless ENTRA_STANDIN_TOKEN_VERSION=1;
 * 2. gives it the demo staff as users of the tenant, with the app role VALUES Helpdesk.Administrator
 *    and Solution.Administrator, plus consent@ and unassigned@ whose sign-ins Entra refuses;
 * 3. seeds the portal's database as an organisation running the builtin MFA provider would have it:
 *    Entra mode has no demo seed of its own (no embedded accounts), so this writes the demo staff's
 *    MFA records and the portal's directory (their roles, under the configured role names) before the
 *    server starts;
 * 4. starts the real server (`apps/server/src/server.ts`) with IDP_MODE=entra, ENTRA_AUTHORITY_HOST the
 *    stand-in, and NODE_EXTRA_CA_CERTS its certificate (how Node is told to trust a private CA);
 * 5. writes { url, token } of the stand-in's control routes to ENTRA_STANDIN_CONTROL_FILE (mode 0600).
 *
 *   node --import tsx apps/server/test/entra/portal-on-entra.ts
 */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 9801);
  const publicUrl = process.env.PUBLIC_URL ?? `https://localhost:${port}/`;
  const password = process.env.DEMO_PASSWORD ?? 'portal-demo';
  const controlFile = process.env.ENTRA_STANDIN_CONTROL_FILE;
  const controlToken = randomBytes(24).toString('hex');
  const standin = await new EntraStandin({
    port: Number(process.env.ENTRA_STANDIN_PORT ?? 9802),
    redirectUris: [publicUrl, `${publicUrl}auth-bridge.html`, `${publicUrl}loggedout`],
    accessTokenLifetimeSeconds: Number(process.env.ENTRA_STANDIN_TOKEN_SECONDS ?? 3600),
    accessTokenVersion: process.env.ENTRA_STANDIN_TOKEN_VERSION === '1' ? 1 : 2,
    controlToken,
  }).start();

  const ca = writeCaFile('entra-standin-ca-', standin.caPem);
  const {
    ENTRA_STANDIN_CONTROL_FILE: _c,
    ENTRA_STANDIN_PORT: _p,
    ENTRA_STANDIN_TOKEN_SECONDS: _s,
    ENTRA_STANDIN_TOKEN_VERSION: _v,
    ...passThrough
  } = process.env;
  const serverEnv: Record<string, string | undefined> = {
    ...passThrough,
    IDP_MODE: 'entra',
    ENTRA_TENANT_ID: standin.tenantId,
    ENTRA_CLIENT_ID: standin.clientId,
    ENTRA_API_AUDIENCE: standin.apiAudience,
    ENTRA_API_SCOPE: standin.apiScope,
    ENTRA_AUTHORITY_HOST: standin.url,
    NODE_EXTRA_CA_CERTS: ca.file,
  };
  const config = loadConfig(serverEnv);

  for (const member of DEMO_STAFF) {
    standin.addUser({
      username: member.email,
      givenName: member.givenName,
      familyName: member.familyName,
      roles: demoRolesOf(member, config.roles),
      password,
    });
  }
  standin.addUser({ username: 'consent@example.com', givenName: 'Connie', familyName: 'Consent', password }).refusal = 'consent_required';
  standin.addUser({ username: 'unassigned@example.com', givenName: 'Una', familyName: 'Unassigned', password }).refusal = 'not_assigned';

  const database = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl, poolSize: 2 } : { pgliteDir: path.join(config.dataDir, 'db') },
  );
  await migrateToLatest(database.db);
  await seedDemoStaff(database.db, { password, roles: config.roles });
  await database.close();

  if (controlFile) fs.writeFileSync(controlFile, JSON.stringify({ url: standin.url, token: controlToken }), { mode: 0o600 });

  runPortalServer(serverEnv, async () => {
    if (controlFile) fs.rmSync(controlFile, { force: true });
    await standin.close();
    ca.remove();
  });
  console.log(`Entra stand-in at ${standin.url} (tenant ${standin.tenantId}); portal started with IDP_MODE=entra`);
}

runIfEntryPoint(import.meta.url, main, 'The Entra stand-in or the portal could not start:');
