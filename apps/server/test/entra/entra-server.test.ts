import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnsecuredJWT } from 'jose';
import { repoRoot } from '../../src/lib/paths.js';
import { EntraStandin } from './entra-standin.js';
import { newSigningKey } from './entra-tokens.js';
import { freePort } from '../support/free-port.js';
import { SERVER_START_MS } from '../server-process.js';

/**
 * (Not *.int.test.ts: it starts its own server process on fixed ports, so it runs once, not per database.)
 * The real server process in production mode (IDP_MODE=entra, ENTRA_AUTHORITY_HOST the stand-in,
 * NODE_EXTRA_CA_CERTS its certificate) sent tokens that Entra would and would not issue, signed with
 * the stand-in's keys and fetched from its published key set as from login.microsoftonline.com.
 */
const PORT = await freePort();
const BOB = 'bob@example.com';
let standin: EntraStandin;
let server: ChildProcess;
let dir: string;
let serverCa: string;

function call(
  token: string | null,
  url = `/account/getuserinfo?userid=${encodeURIComponent(BOB)}`,
): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `https://localhost:${PORT}${url}`,
      { ca: serverCa, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        let data = '';
        res.on('data', (c) => (data += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: data ? (JSON.parse(data) as Record<string, unknown>) : {}, headers: res.headers }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  standin = await new EntraStandin({ port: 9811, accessTokenVersion: 2 }).start();
  standin.addUser({ username: BOB, givenName: 'Bob', familyName: 'Brown', password: 'unused-here' });
  standin.addUser({
    username: 'hd@example.com',
    givenName: 'Hana',
    familyName: 'Helpdesk',
    roles: ['Helpdesk.Administrator'],
    password: 'unused-here',
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-entra-tokens-'));
  const caFile = path.join(dir, 'entra-ca.pem');
  fs.writeFileSync(caFile, standin.caPem);
  server = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/server.ts')], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(PORT),
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      IDP_MODE: 'entra',
      // By domain: the server resolves it to the tenant ID (the GUID every token names) at start-up.
      ENTRA_TENANT_ID: standin.domain,
      ENTRA_CLIENT_ID: standin.clientId,
      // Both audiences: v2 tokens name the API's client id, v1 tokens its App ID URI.
      ENTRA_API_AUDIENCE: `${standin.apiAppId},${standin.appIdUri}`,
      ENTRA_API_SCOPE: standin.apiScope,
      ENTRA_AUTHORITY_HOST: standin.url,
      NODE_EXTRA_CA_CERTS: caFile,
    },
  });
  let out = '';
  server.stdout!.on('data', (d) => (out += d));
  server.stderr!.on('data', (d) => (out += d));
  const end = Date.now() + SERVER_START_MS;
  while (!/is running at/.test(out)) {
    if (Date.now() > end || server.exitCode !== null) throw new Error(`the server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  serverCa = fs.readFileSync(path.join(dir, 'data/tls/localhost-cert.pem'), 'utf8');
}, 300_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await standin?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const now = () => Math.floor(Date.now() / 1000);

describe('tokens Entra issues', () => {
  it('accepts a v2 token (aud the API client id) naming the user by preferred_username only', async () => {
    const res = await call(await standin.accessToken(BOB, { version: 2, upnInV2: false }));
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ upn: BOB });
  });

  it('accepts a v2 token with the optional upn claim, and a v1 token (sts.windows.net, App ID URI)', async () => {
    expect((await call(await standin.accessToken(BOB, { version: 2, upnInV2: true }))).status).toBe(200);
    expect((await call(await standin.accessToken(BOB, { version: 1 }))).status).toBe(200);
  });

  it("reads roles as Entra's app role values", async () => {
    const res = await call(await standin.accessToken('hd@example.com'), `/account/getuserinfo?userid=hd%40example.com`);
    expect(res.body.user).toMatchObject({ roles: ['Helpdesk.Administrator'], portalRole: 'helpdesk', isProtected: true });
  });
});

describe('tokens Entra would not issue to this portal', () => {
  const refused = async (token: string, code = 'auth.token_invalid', status = 401) => {
    const res = await call(token);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
  };

  it("refuses another tenant's token (its issuer, its keys) and our keys under another tenant's issuer", async () => {
    const other = await new EntraStandin({ port: 9813 }).start();
    try {
      other.addUser({ username: BOB, givenName: 'Bob', familyName: 'Brown', password: 'x' });
      await refused(await other.accessToken(BOB));
      await refused(await standin.accessToken(BOB, { claims: { iss: `${standin.url}/${other.tenantId}/v2.0`, tid: other.tenantId } }));
      await refused(await standin.accessToken(BOB, { version: 1, claims: { iss: `https://sts.windows.net/${other.tenantId}/` } }));
    } finally {
      await other.close();
    }
  });

  it('refuses another audience (another API of the tenant, Microsoft Graph)', async () => {
    await refused(await standin.accessToken(BOB, { claims: { aud: 'api://another-api' } }));
    await refused(await standin.accessToken(BOB, { claims: { aud: '00000003-0000-0000-c000-000000000000' } }));
  });

  it('refuses an expired token with auth.token_expired, and one not valid yet', async () => {
    await refused(
      await standin.accessToken(BOB, { claims: { iat: now() - 7200, nbf: now() - 7200, exp: now() - 3600 } }),
      'auth.token_expired',
    );
    await refused(await standin.accessToken(BOB, { claims: { nbf: now() + 600, exp: now() + 4200 } }));
  });

  it('refuses a key the tenant does not publish, and alg none', async () => {
    await refused(await standin.accessToken(BOB, { key: await newSigningKey() }));
    const claims = JSON.parse(Buffer.from((await standin.accessToken(BOB)).split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    await refused(new UnsecuredJWT(claims).encode());
    // alg none under a published kid, the signature left off.
    const [, payload] = (await standin.accessToken(BOB)).split('.');
    await refused(`${Buffer.from(JSON.stringify({ alg: 'none', kid: standin.signingKey.kid })).toString('base64url')}.${payload}.`);
  });

  it('refuses a token without the portal scope (403 auth.scope_missing) and an application token (403 auth.app_token_not_allowed)', async () => {
    await refused(await standin.accessToken(BOB, { scp: 'User.Read' }), 'auth.scope_missing', 403);
    // Client credentials: no scp, roles only, idtyp app; neither at /account nor at /api/me.
    const appToken = await standin.accessToken(BOB, {
      scp: null,
      claims: { idtyp: 'app', roles: ['Solution.Administrator'], preferred_username: undefined },
    });
    await refused(appToken, 'auth.app_token_not_allowed', 403);
    const me = await call(appToken, '/api/me/devices');
    expect([me.status, me.body.code]).toEqual([403, 'auth.app_token_not_allowed']);
    await refused(await standin.accessToken(BOB, { scp: null }), 'auth.app_token_not_allowed', 403);
  });

  it('refuses a token signed by an attacker under the published kid', async () => {
    const attacker = await newSigningKey();
    await refused(await standin.accessToken(BOB, { key: { ...attacker, kid: standin.signingKey.kid } }));
  });
});

describe('the key set, over time', () => {
  it('keeps accepting known keys while the key endpoint is down, and refuses (401, not 500) what it cannot check', async () => {
    expect((await call(await standin.accessToken(BOB))).status).toBe(200);
    standin.keysAvailable = false;
    try {
      expect((await call(await standin.accessToken(BOB))).status).toBe(200);
      const res = await call(await standin.accessToken(BOB, { key: await newSigningKey() }));
      expect([res.status, res.body.code]).toEqual([401, 'auth.token_invalid']);
    } finally {
      standin.keysAvailable = true;
    }
  });

  it('follows a key rollover without a restart: tokens signed with the new key are accepted', async () => {
    const old = standin.signingKey;
    await standin.rolloverKeys({ retireOld: true });
    const token = await standin.accessToken(BOB);
    // The server refetches the key set for an unknown key at most every 30 seconds (jose's cooldown,
    // against floods of made-up kids): ask until it has, within a bound.
    const deadline = Date.now() + 45_000;
    let status = 0;
    while (Date.now() < deadline && (status = (await call(token)).status) !== 200) await new Promise((r) => setTimeout(r, 1000));
    expect(status).toBe(200);
    // The old key is withdrawn from the set the server now holds.
    expect((await call(await standin.accessToken(BOB, { key: old }))).status).toBe(401);
  }, 60_000);
});
