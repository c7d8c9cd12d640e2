import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { duoAdminApi } from '../../src/mfa/duo/admin-api.js';
import { duoAuthApi } from '../../src/mfa/duo/auth-api.js';
import { DuoClient, type DuoClientOptions } from '../../src/mfa/duo/client.js';
import { duoLookups } from '../../src/mfa/duo/duo-lookups.js';
import { duoPhones, type DuoPhones } from '../../src/mfa/duo/duo-phones.js';
import { createDuoProvider } from '../../src/mfa/duo/duo-provider.js';
import type { MfaProvider } from '../../src/mfa/port.js';
import { DuoStandin, type DuoStandinOptions } from './duo-standin.js';

/** Helpers of the Duo test suites (not a test file). */

export async function startStandin(options: DuoStandinOptions = {}): Promise<DuoStandin> {
  return new DuoStandin(options).start();
}

/** The portal's demo staff, as they would be set up at Duo; plus unassigned D100 tokens D100-0002…0005. */
export function seedDemoStaff(standin: DuoStandin) {
  const alice = standin.addUser({ username: 'alice@example.com', realname: 'Alice Anders' });
  const bob = standin.addUser({ username: 'bob@example.com', realname: 'Bob Brown' });
  const bobPhone = standin.addPhone({
    userId: bob.user_id,
    number: '+15555550123',
    name: 'iPhone 15',
    platform: 'Apple iOS',
    activated: true,
    lastSeen: '2030-01-01T10:00:00',
  });
  const bobToken = standin.addToken({ serial: 'D100-0001', userId: bob.user_id });
  const helpdesk = standin.addUser({ username: 'helpdesk@example.com', realname: 'Hana Helpdesk' });
  standin.addPhone({ userId: helpdesk.user_id, number: '+15555550124', name: 'Pixel 8', platform: 'Google Android', activated: true });
  const admin = standin.addUser({ username: 'admin@example.com', realname: 'Ada Admin' });
  standin.addPhone({ userId: admin.user_id, number: '+15555550125', name: 'iPhone 14', platform: 'Apple iOS', activated: true });
  const disabled = standin.addUser({ username: 'disabled@example.com', realname: 'Dan Disabled', status: 'disabled' });
  for (const n of [2, 3, 4, 5]) standin.addToken({ serial: `D100-000${n}` });
  return { alice, bob, bobPhone, bobToken, helpdesk, admin, disabled };
}

/** The environment that points the portal at the stand-in (MFA_PROVIDER=duo). */
export function duoEnv(standin: DuoStandin, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    MFA_PROVIDER: 'duo',
    DUO_ADMIN_INTEGRATION_KEY: standin.admin.integrationKey,
    DUO_ADMIN_SECRET_KEY: standin.admin.secretKey,
    DUO_AUTH_INTEGRATION_KEY: standin.auth.integrationKey,
    DUO_AUTH_SECRET_KEY: standin.auth.secretKey,
    DUO_API_HOST: standin.host,
    DUO_API_BASE_URL: standin.url,
    DUO_TIMEOUT_MS: '5000',
    // Room for two retries after a 429 (Duo's schedule: 1 s, then 2 s, each plus under 1 s at random).
    DUO_RETRY_MAX_WAIT_MS: '4000',
    ...extra,
  };
  if (standin.caPem) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'duo-standin-ca-')), 'ca.pem');
    fs.writeFileSync(file, standin.caPem);
    env.DUO_CA_FILE = file;
  }
  return env;
}

/** Clients of both integrations of the stand-in (no real waiting: sleeps are recorded). */
export function clientsFor(standin: DuoStandin, options: Partial<DuoClientOptions> = {}) {
  const waits: number[] = [];
  const common: Partial<DuoClientOptions> = {
    baseUrl: standin.url,
    ...(standin.caPem ? { ca: standin.caPem } : {}),
    sleep: async (ms: number) => {
      waits.push(ms);
    },
    ...options,
  };
  const admin = new DuoClient({
    integrationKey: standin.admin.integrationKey,
    secretKey: standin.admin.secretKey,
    apiHost: standin.host,
    ...common,
  });
  const auth = new DuoClient({
    integrationKey: standin.auth.integrationKey,
    secretKey: standin.auth.secretKey,
    apiHost: standin.host,
    ...common,
  });
  return { admin, auth, waits };
}

export function providerFor(standin: DuoStandin, options: Partial<DuoClientOptions> = {}): { provider: MfaProvider; waits: number[] } {
  const { admin, auth, waits } = clientsFor(standin, options);
  return { provider: createDuoProvider({ admin: duoAdminApi(admin), auth: duoAuthApi(auth) }), waits };
}

/**
 * The adapter's phone operations on their own, for what the port never asks of them (an activation
 * link with Duo Mobile's install link).
 */
export function phonesFor(standin: DuoStandin, options: Partial<DuoClientOptions> = {}): DuoPhones {
  const { admin, auth } = clientsFor(standin, options);
  const deps = { admin: duoAdminApi(admin), auth: duoAuthApi(auth) };
  return duoPhones(deps, duoLookups(deps));
}

/** The error `p` is refused with; fails when it is not refused. */
export async function refusal(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
}
