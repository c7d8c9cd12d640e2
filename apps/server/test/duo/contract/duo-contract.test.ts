import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duoAdminApi } from '../../../src/mfa/duo/admin-api.js';
import { duoAuthApi } from '../../../src/mfa/duo/auth-api.js';
import { DuoClient } from '../../../src/mfa/duo/client.js';
import { toBypassInfo, webauthnToDevice } from '../../../src/mfa/duo/duo-mapping.js';
import { verificationCodeIn } from '../../../src/mfa/duo/duo-phones.js';
import type { DuoHttpRequest } from '../../../src/mfa/duo/transport.js';
import type { DuoBypassCode, DuoUser, DuoWebauthnCredential } from '../../../src/mfa/duo/types.js';
import type { DuoStandin } from '../duo-standin.js';
import { clientsFor, startStandin } from '../support.js';

/**
 * The contract, from Duo's documentation rather than from either side: each fixture (fixtures/*.json,
 * its `source` naming the page and client it was written from) is one documented request and answer.
 *
 * - The adapter: a fake transport answers the fixture and checks the request (method, path, the
 *   parameters the fixture names); the adapter's reading of the answer is checked.
 * - The stand-in: asked the same, its answer must have the fixture's shape (same keys, same JSON types).
 *
 * Neither side is written from the other, so a misreading shared by both shows here.
 */

interface Fixture {
  source: string;
  request: { method: string; path: string; params: Record<string, string> };
  response: { stat: 'OK'; response: unknown; metadata?: unknown };
}

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const fixture = (name: string): Fixture => JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')) as Fixture;

/** A client whose transport answers the fixture, after checking the request against it. */
function clientAnswering(f: Fixture) {
  const seen: DuoHttpRequest[] = [];
  const client = new DuoClient({
    integrationKey: 'DIXXXXXXXXXXXXXXXXXX',
    secretKey: 'x'.repeat(40),
    apiHost: 'api-contract.duosecurity.com',
    transport: async (req) => {
      seen.push(req);
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(f.response) };
    },
  });
  const checkRequest = () => {
    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.method).toBe(f.request.method);
    expect(req.url.pathname).toBe(f.request.path);
    const params = Object.fromEntries(
      req.method === 'GET' || req.method === 'DELETE' ? req.url.searchParams : new URLSearchParams(req.body ?? ''),
    );
    expect(params).toMatchObject(f.request.params);
  };
  return { client, checkRequest };
}

const USER = { user_id: 'DUXXXXXXXXXXXXXXXXXX', username: 'bob@example.com', status: 'active', created: 1700000000 } as DuoUser;

describe('the adapter against Duo’s documented requests and answers', () => {
  it('preauth', async () => {
    const f = fixture('auth-preauth');
    const { client, checkRequest } = clientAnswering(f);
    const pre = await duoAuthApi(client).preauth(USER.user_id);
    checkRequest();
    expect(pre).toMatchObject({ result: 'auth', devices: [expect.objectContaining({ device: 'DPFZRS9FB0D46QFTM891' })] });
  });

  it('auth: an asynchronous push', async () => {
    const f = fixture('auth-push');
    const { client, checkRequest } = clientAnswering(f);
    expect(await duoAuthApi(client).push(USER.user_id, 'DPFZRS9FB0D46QFTM891')).toEqual({ txid: '45f7c92b-f45f-4862-8545-e0f58e78075a' });
    checkRequest();
  });

  it('auth_status', async () => {
    const f = fixture('auth-status');
    const { client, checkRequest } = clientAnswering(f);
    expect(await duoAuthApi(client).status('45f7c92b-f45f-4862-8545-e0f58e78075a', { waitMs: 1000 })).toMatchObject({ result: 'allow' });
    checkRequest();
  });

  it('Verified Duo Push: preauth says the portal can show the code; its txid goes to /auth; the code comes in status_msg', async () => {
    const pre = fixture('auth-preauth-verified-push');
    const a = clientAnswering(pre);
    const answered = await duoAuthApi(a.client).preauth(USER.user_id, { verifiedPush: true, ipaddr: '192.0.2.7' });
    a.checkRequest();
    expect(answered.txid).toBe('7a1b3c5d-0e2f-4a6b-8c9d-1e2f3a4b5c6d');

    const push = fixture('auth-push-verified');
    const b = clientAnswering(push);
    const sent = await duoAuthApi(b.client).push(USER.user_id, 'DPFZRS9FB0D46QFTM891', {
      txid: answered.txid,
      ipaddr: '192.0.2.7',
      type: 'Confirm it is you',
      displayUsername: 'bob@example.com',
      pushinfo: 'from=MFA+self-service+portal',
    });
    b.checkRequest();
    expect(sent.txid).toBe(answered.txid);

    const status = fixture('auth-status-verified-push');
    const c = clientAnswering(status);
    const first = await duoAuthApi(c.client).status(sent.txid, { waitMs: 1000 });
    c.checkRequest();
    expect(first.result).toBe('waiting');
    expect(verificationCodeIn(first.status_msg)).toBe('376');
  });

  it('bypass codes: one without a limit (reuse_count null) and one with', async () => {
    const f = fixture('admin-bypass-codes');
    const { client, checkRequest } = clientAnswering(f);
    const codes = await duoAdminApi(client).listBypassCodes(USER.user_id);
    checkRequest();
    expect(codes.map((c: DuoBypassCode) => toBypassInfo(c).usesLeft)).toEqual([null, 2]);
  });

  it('a phone looked up by number', async () => {
    const f = fixture('admin-phones-by-number');
    const { client, checkRequest } = clientAnswering(f);
    const [phone] = await duoAdminApi(client).findPhonesByNumber('+15555550100');
    checkRequest();
    expect(phone).toMatchObject({ phone_id: 'DPFZRS9FB0D46QFTM891', users: [] });
  });

  it('WebAuthn credentials: kind from registered_as, last use from date_last_used', async () => {
    const f = fixture('admin-webauthn');
    const { client, checkRequest } = clientAnswering(f);
    const [cred] = await duoAdminApi(client).listUserWebauthnCredentials(USER.user_id);
    checkRequest();
    expect(webauthnToDevice(cred as DuoWebauthnCredential, USER)).toMatchObject({
      kind: 'security_key',
      lastUsedAt: new Date(1550675000 * 1000).toISOString(),
    });
  });

  it('verification push response', async () => {
    const f = fixture('admin-verification-push-response');
    const { client, checkRequest } = clientAnswering(f);
    expect(await duoAdminApi(client).verificationPushResponse(USER.user_id, 'pv-0000-1111')).toEqual({
      push_id: 'pv-0000-1111',
      result: 'approve',
    });
    checkRequest();
  });
});

/** The JSON shape of a value: its type, and for objects and lists the shapes inside. */
function shapeOf(v: unknown): unknown {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length ? [shapeOf(v[0])] : [];
  if (typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, shapeOf(x)]),
    );
  return typeof v;
}

/** Every key of the fixture's shape is in the stand-in's, with the same type (the stand-in may say more). */
function expectShape(standinAnswer: unknown, documented: unknown): void {
  const want = shapeOf(documented);
  const got = shapeOf(standinAnswer);
  const check = (w: unknown, g: unknown, at: string) => {
    if (Array.isArray(w)) {
      expect(Array.isArray(g), at).toBe(true);
      if (w.length && (g as unknown[]).length) check(w[0], (g as unknown[])[0], `${at}[0]`);
      return;
    }
    if (w && typeof w === 'object') {
      expect(g && typeof g === 'object', at).toBeTruthy();
      for (const [k, x] of Object.entries(w)) check(x, (g as Record<string, unknown>)[k], `${at}.${k}`);
      return;
    }
    expect(g, at).toBe(w);
  };
  check(want, got, 'response');
}

describe('the stand-in answers in Duo’s documented shapes', () => {
  let standin: DuoStandin;
  let api: { admin: ReturnType<typeof duoAdminApi>; auth: ReturnType<typeof duoAuthApi> };
  let userId: string;
  let phoneId: string;

  beforeAll(async () => {
    standin = await startStandin();
    const user = standin.addUser({ username: 'bob@example.com' });
    userId = user.user_id;
    phoneId = standin.addPhone({ number: '+15555550100', activated: true, userId }).phone_id;
    standin.addBypassCode(userId, { code: '111222333', expiration: null, reuseCount: 0, adminEmail: 'admin@example.com' });
    standin.addBypassCode(userId, { code: '444555666', expiration: Math.floor(Date.now() / 1000) + 3600, reuseCount: 2 });
    standin.addWebauthnCredential({ userId, name: 'Desk key', registeredAs: 'Security Key', dateLastUsed: 1550675000 });
    const { admin, auth } = clientsFor(standin);
    api = { admin: duoAdminApi(admin), auth: duoAuthApi(auth) };
  });
  afterAll(() => standin.close());

  it('preauth, push, auth_status', async () => {
    expectShape(await api.auth.preauth(userId), fixture('auth-preauth').response.response);
    const push = await api.auth.push(userId, phoneId);
    expectShape(push, fixture('auth-push').response.response);
    standin.answerPush(push.txid, 'allow');
    expectShape(await api.auth.status(push.txid, { waitMs: 5000 }), fixture('auth-status').response.response);
  });

  it('Verified Duo Push: preauth txid, push, the first status with the code', async () => {
    standin.requireVerifiedPush = true;
    try {
      const pre = await api.auth.preauth(userId, { verifiedPush: true, ipaddr: '192.0.2.7' });
      expectShape(pre, fixture('auth-preauth-verified-push').response.response);
      const push = await api.auth.push(userId, phoneId, { txid: pre.txid, ipaddr: '192.0.2.7', type: 'Confirm it is you' });
      expectShape(push, fixture('auth-push-verified').response.response);
      const first = await api.auth.status(push.txid, { waitMs: 5000 });
      expectShape(first, fixture('auth-status-verified-push').response.response);
      expect(verificationCodeIn(first.status_msg)).toBe(standin.pushes.get(push.txid)!.verificationCode);
    } finally {
      standin.requireVerifiedPush = false;
    }
  });

  it('bypass codes (unlimited first), phones by number, WebAuthn credentials', async () => {
    const codes = await api.admin.listBypassCodes(userId);
    const documented = fixture('admin-bypass-codes').response.response as unknown[];
    expectShape(codes[0], documented[0]);
    expectShape(codes[1], documented[1]);
    // A phone with no user, as after Delete User.
    standin.addPhone({ number: '+15555550199' });
    expectShape(await api.admin.findPhonesByNumber('+15555550199'), fixture('admin-phones-by-number').response.response);
    expectShape(await api.admin.listUserWebauthnCredentials(userId), fixture('admin-webauthn').response.response);
  });

  it('verification push response', async () => {
    const { push_id } = await api.admin.sendVerificationPush(userId, phoneId);
    standin.answerVerificationPush(push_id, 'approve');
    expectShape(await api.admin.verificationPushResponse(userId, push_id), fixture('admin-verification-push-response').response.response);
  });
});
