import fs from 'node:fs';
import { DEMO_STAFF } from '../../src/demo/seed.js';
import { demoTokenSeed } from '../../src/demo/demo-tokens.js';
import { runIfEntryPoint, runPortalServer, writeCaFile } from '../portal-on-standin-process.js';
import { DuoStandin } from './duo-standin.js';
import { startStandinControl, type StandinControl } from './standin-control.js';

/**
 * The portal on Duo for the end-to-end journeys (e2e/playwright.duo.config.ts), test code only:
 *
 * 1. starts the Duo stand-in on loopback (HTTPS, its own certificate, random integration keys);
 * 2. seeds it with the demo staff as an organisation running Duo would have them (below);
 * 3. starts the real server (`apps/server/src/server.ts`, as `npm start` does) with MFA_PROVIDER=duo and
 *    the DUO_* settings pointing at the stand-in (DUO_API_BASE_URL, DUO_CA_FILE for its certificate),
 *    the rest of the environment passed through (PORT, DATA_DIR, ...);
 * 4. stops both when either ends or on SIGINT/SIGTERM.
 *
 * With DUO_STANDIN_CONTROL_FILE set (e2e/playwright.duo.config.ts sets it), it also starts the stand-in's
 * loopback control endpoint (standin-control.ts: the journeys answer pushes and activate phones there)
 * and writes its address and token to that file (mode 0600), removed at the end. The portal server is
 * not told about it.
 *
 *   node --import tsx apps/server/test/duo/portal-on-standin.ts
 */

/**
 * The demo staff at Duo: the embedded directory's people (DEMO_STAFF) with the same devices, so a
 * journey written for the builtin provider finds the same starting point. Hardware tokens are Duo D100
 * (`d1`) with the demo tokens' published seeds (mfa/builtin/demo-tokens.ts): the tests compute their
 * codes as they do on the builtin provider. Phones are activated in Duo Mobile. `nomfa@` is absent.
 * Unassigned tokens D100-0002 and D100-0003 wait in Duo's inventory, as in the builtin demo (and
 * D100-0008, below); dave@
 * has a phone and a token (below).
 */
export function seedDuoDemoStaff(standin: DuoStandin): void {
  const platforms: Record<string, string> = { iOS: 'Apple iOS', Android: 'Google Android' };
  for (const member of DEMO_STAFF) {
    if (!member.mfa) continue;
    const user = standin.addUser({
      username: member.email,
      realname: `${member.givenName} ${member.familyName}`,
      email: member.email,
      status: member.mfa.status === 'locked_out' ? 'locked out' : member.mfa.status,
      lockoutReason: member.mfa.statusReason ?? null,
    });
    for (const device of member.mfa.devices) {
      if (device.kind === 'hardware_token') {
        standin.addToken({ serial: device.serial!, userId: user.user_id, seed: demoTokenSeed(device.serial!) });
      } else if (device.kind === 'phone') {
        standin.addPhone({
          userId: user.user_id,
          number: device.phone_number!,
          name: device.name,
          platform: platforms[device.platform ?? ''] ?? 'Generic Smartphone',
          activated: true,
        });
      }
    }
  }
  // D100-0008: alice's first device in the sign-in journey on Duo (she enrols an authenticator app on builtin);
  // D100-0009: grace's new device in the lost-device journey on Duo (likewise).
  for (const serial of ['D100-0002', 'D100-0003', 'D100-0008', 'D100-0009']) standin.addToken({ serial, seed: demoTokenSeed(serial) });
  // Duo's hardware tokens have no name: dave's rename journey renames a phone, which he has only here
  // (with the token D100-0010, whose codes the journey gives at sign-in; D100-0007 is grace's).
  const dave = standin.user('dave@example.com').user_id;
  standin.addPhone({ userId: dave, number: '+15555550129', name: 'Work mobile', activated: true });
  standin.addToken({ serial: 'D100-0010', userId: dave, seed: demoTokenSeed('D100-0010') });
}

async function main(): Promise<void> {
  // This Duo tenant requires Verified Duo Push, as an organisation's policy may: every push the
  // portal sends asks for the number the browser shows.
  const standin = await new DuoStandin({ host: 'api-standin.duosecurity.com', requireVerifiedPush: true }).start();
  seedDuoDemoStaff(standin);
  const ca = writeCaFile('duo-standin-ca-', standin.caPem!);
  const controlFile = process.env.DUO_STANDIN_CONTROL_FILE;
  let control: StandinControl | null = null;
  if (controlFile) {
    control = await startStandinControl(standin);
    fs.writeFileSync(controlFile, JSON.stringify({ url: control.url, token: control.token }), { mode: 0o600 });
  }
  const { DUO_STANDIN_CONTROL_FILE: _controlFile, ...serverEnv } = process.env;

  runPortalServer(
    {
      ...serverEnv,
      MFA_PROVIDER: 'duo',
      DUO_ADMIN_INTEGRATION_KEY: standin.admin.integrationKey,
      DUO_ADMIN_SECRET_KEY: standin.admin.secretKey,
      DUO_AUTH_INTEGRATION_KEY: standin.auth.integrationKey,
      DUO_AUTH_SECRET_KEY: standin.auth.secretKey,
      DUO_API_HOST: standin.host,
      DUO_API_BASE_URL: standin.url,
      DUO_CA_FILE: ca.file,
    },
    async () => {
      await control?.close();
      if (controlFile) fs.rmSync(controlFile, { force: true });
      await standin.close();
      ca.remove();
    },
  );
  console.log(`Duo stand-in at ${standin.url} (host ${standin.host}); portal started with MFA_PROVIDER=duo`);
}

runIfEntryPoint(import.meta.url, main, 'The Duo stand-in or the portal could not start:');
