import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuoClient } from '../../src/mfa/duo/client.js';
import { DuoApiError } from '../../src/mfa/duo/errors.js';
import { canonParams, formatDuoDate, signRequest } from '../../src/mfa/duo/signing.js';
import type { DuoStandin } from './duo-standin.js';
import { clientsFor, startStandin } from './support.js';

/**
 * The Duo stand-in itself: it must refuse what Duo refuses (bad signatures, stale dates, the wrong
 * integration, bad parameters), or the contract suite proves nothing.
 */

let standin: DuoStandin;
beforeAll(async () => {
  standin = await startStandin({ maxLimit: 2 });
});
afterAll(() => standin.close());

/** A raw request with full control over what is signed and sent. */
function raw(opts: {
  method: string;
  path: string;
  params?: Record<string, string>;
  date?: Date;
  skey?: string;
  ikey?: string;
  authorization?: string | null;
  signedPath?: string;
  signedParams?: Record<string, string>;
}) {
  const params = opts.params ?? {};
  const date = formatDuoDate(opts.date ?? new Date());
  const authorization =
    opts.authorization === undefined
      ? signRequest({
          integrationKey: opts.ikey ?? standin.admin.integrationKey,
          secretKey: opts.skey ?? standin.admin.secretKey,
          version: 2,
          date,
          method: opts.method as 'GET',
          host: standin.host,
          path: opts.signedPath ?? opts.path,
          params: opts.signedParams ?? params,
        })
      : opts.authorization;
  const isGet = opts.method === 'GET' || opts.method === 'DELETE';
  const body = isGet ? undefined : canonParams(params);
  const url = new URL(`${standin.url}${opts.path}${isGet && Object.keys(params).length ? `?${canonParams(params)}` : ''}`);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: opts.method,
        ca: standin.caPem!,
        headers: {
          date,
          ...(authorization ? { authorization } : {}),
          ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('Duo stand-in: request authentication', () => {
  it('accepts a correctly signed request', async () => {
    const res = await raw({ method: 'GET', path: '/admin/v1/users', params: { username: 'nobody' } });
    expect(res).toEqual({ status: 200, body: { stat: 'OK', response: [], metadata: { total_objects: 0 } } });
  });

  it('401 40103 for a wrong secret key, a tampered parameter or another path', async () => {
    const fail = { stat: 'FAIL', code: 40103, message: 'Invalid signature in request credentials' };
    expect(await raw({ method: 'GET', path: '/admin/v1/users', skey: 'x'.repeat(40) })).toEqual({ status: 401, body: fail });
    expect(
      await raw({ method: 'GET', path: '/admin/v1/users', params: { username: 'mallory' }, signedParams: { username: 'bob' } }),
    ).toEqual({ status: 401, body: fail });
    expect(await raw({ method: 'GET', path: '/admin/v1/users', signedPath: '/admin/v1/tokens' })).toEqual({ status: 401, body: fail });
  });

  it('401 for a Date more than 300 s away; accepted within', async () => {
    expect(await raw({ method: 'GET', path: '/admin/v1/users', date: new Date(Date.now() - 301_000) })).toMatchObject({
      status: 401,
      body: { code: 40105 },
    });
    expect(await raw({ method: 'GET', path: '/admin/v1/users', date: new Date(Date.now() + 301_000) })).toMatchObject({
      status: 401,
      body: { code: 40105 },
    });
    expect(await raw({ method: 'GET', path: '/admin/v1/users', date: new Date(Date.now() - 290_000) })).toMatchObject({ status: 200 });
  });

  it('401 without credentials or with an unknown integration key', async () => {
    expect(await raw({ method: 'GET', path: '/admin/v1/users', authorization: null })).toMatchObject({
      status: 401,
      body: { code: 40101 },
    });
    expect(await raw({ method: 'GET', path: '/admin/v1/users', ikey: 'DIXXXXXXXXXXXXXXXXXX' })).toMatchObject({
      status: 401,
      body: { code: 40102 },
    });
  });

  it('403 for the Auth API key on the Admin API and the other way round', async () => {
    expect(
      await raw({ method: 'GET', path: '/admin/v1/users', ikey: standin.auth.integrationKey, skey: standin.auth.secretKey }),
    ).toMatchObject({ status: 403, body: { code: 40301 } });
    expect(await raw({ method: 'POST', path: '/auth/v2/preauth', params: { username: 'x' } })).toMatchObject({
      status: 403,
      body: { code: 40301 },
    });
  });

  it('accepts v5 with a JSON body, and v5 on GET', async () => {
    const { admin } = clientsFor(standin, { signatureVersion: 5 });
    const phone = await admin.request<{ phone_id: string; name: string }>('POST', '/admin/v1/phones', {
      params: { number: '+15555550999', name: 'JSON phone', type: 'mobile', platform: 'google android' },
    });
    expect(phone).toMatchObject({ name: 'JSON phone', platform: 'Google Android', type: 'Mobile' });
    expect(standin.requests.at(-1)).toMatchObject({ signatureVersion: 5, contentType: 'application/json' });
    await admin.request('GET', `/admin/v1/phones/${phone.phone_id}`);
    expect(standin.requests.at(-1)).toMatchObject({ signatureVersion: 5, status: 200 });
  });

  it('refuses a v5 request whose body was changed after signing', async () => {
    const { admin } = clientsFor(standin, {
      signatureVersion: 5,
      transport: async (req) => {
        const tampered = { ...req, body: req.body!.replace('Nice', 'Evil') };
        return new Promise((resolve, reject) => {
          const r = https.request(
            tampered.url,
            {
              method: req.method,
              headers: { ...req.headers, 'content-length': String(Buffer.byteLength(tampered.body)) },
              ca: standin.caPem!,
            },
            (res) => {
              let text = '';
              res.on('data', (c) => (text += c));
              res.on('end', () => resolve({ status: res.statusCode!, headers: {}, body: text }));
            },
          );
          r.on('error', reject);
          r.end(tampered.body);
        });
      },
    });
    const err = await admin.request('POST', '/admin/v1/phones', { params: { name: 'Nice' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DuoApiError);
    expect(err).toMatchObject({ httpStatus: 401, duoCode: 40103 });
  });
});

describe('Duo stand-in: parameters and shapes', () => {
  it('400 40002 for bypass codes outside Duo’s bounds, 40001 for a missing parameter', async () => {
    const user = standin.addUser({ username: 'params@example.com' });
    const path = `/admin/v1/users/${user.user_id}/bypass_codes`;
    expect(await raw({ method: 'POST', path, params: { count: '11' } })).toMatchObject({
      status: 400,
      body: { code: 40002, message: 'Invalid request parameters', message_detail: 'count' },
    });
    expect(await raw({ method: 'POST', path, params: { count: '0' } })).toMatchObject({
      status: 400,
      body: { code: 40002, message_detail: 'count' },
    });
    expect(await raw({ method: 'POST', path, params: { count: '1', valid_secs: '-5' } })).toMatchObject({
      status: 400,
      body: { message_detail: 'valid_secs' },
    });
    expect(await raw({ method: 'POST', path, params: { count: '1', reuse_count: 'x' } })).toMatchObject({
      status: 400,
      body: { message_detail: 'reuse_count' },
    });
    expect(await raw({ method: 'POST', path, params: { count: '1', preserve_existing: 'maybe' } })).toMatchObject({
      status: 400,
      body: { message_detail: 'preserve_existing' },
    });
    expect(await raw({ method: 'POST', path: `/admin/v1/users/${user.user_id}/phones` })).toMatchObject({
      status: 400,
      body: { code: 40001, message_detail: 'phone_id' },
    });
    expect(await raw({ method: 'GET', path: '/admin/v1/users/DUNOSUCHUSER0000000' })).toMatchObject({ status: 404, body: { code: 40401 } });
  });

  it('Verified Duo Push: a preauth txid starts one push of its own user, once; ipaddr must be an address', async () => {
    const user = standin.addUser({ username: 'verified@example.com' });
    const other = standin.addUser({ username: 'verified-other@example.com' });
    const phone = standin.addPhone({ number: '+15555550177', activated: true, userId: user.user_id });
    standin.addPhone({ number: '+15555550178', activated: true, userId: other.user_id });
    const auth = (path: string, params: Record<string, string>) =>
      raw({ method: 'POST', path, params, ikey: standin.auth.integrationKey, skey: standin.auth.secretKey });
    const push = { factor: 'push', device: phone.phone_id, async: '1' };
    standin.requireVerifiedPush = true;
    try {
      expect(await auth('/auth/v2/preauth', { user_id: user.user_id, ipaddr: 'not-an-address' })).toMatchObject({
        status: 400,
        body: { code: 40002, message_detail: 'ipaddr' },
      });
      // Without saying it can show the code, the client gets no txid (and a plain push).
      expect((await auth('/auth/v2/preauth', { user_id: user.user_id })).body.response.txid).toBeUndefined();
      const pre = await auth('/auth/v2/preauth', { user_id: user.user_id, client_supports_verified_push: '1', ipaddr: '192.0.2.7' });
      const txid = pre.body.response.txid as string;
      expect(txid).toEqual(expect.any(String));
      // Another user's push cannot use it.
      const foreign = { factor: 'push', device: 'auto', async: '1', user_id: other.user_id, txid };
      expect(await auth('/auth/v2/auth', foreign)).toMatchObject({ status: 400, body: { message_detail: 'txid' } });
      const sent = await auth('/auth/v2/auth', { ...push, user_id: user.user_id, txid, ipaddr: '192.0.2.7' });
      expect(sent).toMatchObject({ status: 200, body: { response: { txid } } });
      expect(standin.pushes.get(txid)).toMatchObject({ verificationCode: expect.stringMatching(/^\d{3}$/), ipaddr: '192.0.2.7' });
      // Used once.
      expect(await auth('/auth/v2/auth', { ...push, user_id: user.user_id, txid })).toMatchObject({
        status: 400,
        body: { message_detail: 'txid' },
      });
      // An expired one.
      const late = (await auth('/auth/v2/preauth', { user_id: user.user_id, client_supports_verified_push: '1' })).body.response.txid;
      standin.advanceClock((standin.pushLifetimeSeconds + 1) * 1000);
      expect(await auth('/auth/v2/auth', { ...push, user_id: user.user_id, txid: late })).toMatchObject({ status: 400 });
      // Approved only with the code shown in the browser.
      standin.answerPush(txid, 'allow', 'not-the-code');
      expect(standin.pushes.get(txid)!.state).toBe('deny');
    } finally {
      standin.requireVerifiedPush = false;
    }
  });

  it('without preserve_existing, Duo’s default deletes the existing codes', async () => {
    const user = standin.addUser({ username: 'default@example.com' });
    const path = `/admin/v1/users/${user.user_id}/bypass_codes`;
    await raw({ method: 'POST', path, params: { count: '3', valid_secs: '600' } });
    await raw({ method: 'POST', path, params: { count: '1', valid_secs: '600' } });
    expect(standin.liveBypassCodes(user.user_id)).toHaveLength(1);
    await raw({ method: 'POST', path, params: { count: '2', valid_secs: '600', preserve_existing: 'true' } });
    expect(standin.liveBypassCodes(user.user_id)).toHaveLength(3);
  });

  it('pages lists with limit, offset and next_offset', async () => {
    const user = standin.addUser({ username: 'pager@example.com' });
    for (let i = 0; i < 5; i += 1) standin.addPhone({ userId: user.user_id, number: `+1555555070${i}` });
    const first = await raw({ method: 'GET', path: `/admin/v1/users/${user.user_id}/phones`, params: { limit: '100', offset: '0' } });
    expect(first.body.response).toHaveLength(2);
    expect(first.body.metadata).toEqual({ total_objects: 5, next_offset: 2 });
    const last = await raw({ method: 'GET', path: `/admin/v1/users/${user.user_id}/phones`, params: { limit: '2', offset: '4' } });
    expect(last.body.response).toHaveLength(1);
    expect(last.body.metadata).toEqual({ total_objects: 5, prev_offset: 2 });
    expect(await raw({ method: 'GET', path: `/admin/v1/users/${user.user_id}/phones`, params: { limit: '0' } })).toMatchObject({
      status: 400,
      body: { message_detail: 'limit' },
    });
    const all = await new DuoClient({
      integrationKey: standin.admin.integrationKey,
      secretKey: standin.admin.secretKey,
      apiHost: standin.host,
      baseUrl: standin.url,
      ca: standin.caPem!,
    }).getAll(`/admin/v1/users/${user.user_id}/phones`);
    expect(all).toHaveLength(5);
  });

  it('Modify User: status active, bypass or disabled only (40002 otherwise, nothing changed); active ends a lockout', async () => {
    const user = standin.addUser({ username: 'modify@example.com', status: 'locked out', lockoutReason: 'Failed Attempts' });
    user.failedAttempts = 7;
    const path = `/admin/v1/users/${user.user_id}`;
    for (const status of ['locked out', 'pending deletion', 'ACTIVE', 'enabled', '']) {
      expect(await raw({ method: 'POST', path, params: { status } })).toMatchObject({
        status: 400,
        body: { code: 40002, message_detail: 'status' },
      });
    }
    expect(await raw({ method: 'POST', path, params: { status: 'active', colour: 'blue' } })).toMatchObject({
      status: 400,
      body: { code: 40002, message_detail: 'colour' },
    });
    expect(user).toMatchObject({ status: 'locked out', lockout_reason: 'Failed Attempts', failedAttempts: 7 });
    const ok = await raw({ method: 'POST', path, params: { status: 'active' } });
    expect(ok).toMatchObject({
      status: 200,
      body: { stat: 'OK', response: { user_id: user.user_id, status: 'active', lockout_reason: null } },
    });
    expect(user.failedAttempts).toBe(0);
    expect(await raw({ method: 'POST', path, params: { status: 'disabled' } })).toMatchObject({
      status: 200,
      body: { response: { status: 'disabled' } },
    });
    expect(await raw({ method: 'POST', path: '/admin/v1/users/DUNOSUCHUSER0000000', params: { status: 'active' } })).toMatchObject({
      status: 404,
      body: { code: 40401 },
    });
  });

  it('Create User: username required and unique among usernames and aliases (400), known fields and statuses only', async () => {
    standin.addUser({ username: 'taken@example.com', aliases: ['alias-taken@example.com'] });
    const before = standin.snapshot();
    const create = (params: Record<string, string>) => raw({ method: 'POST', path: '/admin/v1/users', params });
    expect(await create({ realname: 'No Name' })).toMatchObject({ status: 400, body: { code: 40001, message_detail: 'username' } });
    for (const username of ['taken@example.com', 'TAKEN@example.com', 'alias-taken@example.com'])
      expect(await create({ username })).toMatchObject({ status: 400, body: { stat: 'FAIL', message_detail: 'username' } });
    expect(await create({ username: 'new@example.com', status: 'locked out' })).toMatchObject({
      status: 400,
      body: { message_detail: 'status' },
    });
    expect(await create({ username: 'new@example.com', colour: 'blue' })).toMatchObject({
      status: 400,
      body: { message_detail: 'colour' },
    });
    expect(standin.snapshot()).toBe(before);
    const ok = await create({ username: 'new@example.com', realname: 'New Person', email: 'new@example.com', status: 'disabled' });
    expect(ok).toMatchObject({
      status: 200,
      body: {
        stat: 'OK',
        response: { username: 'new@example.com', realname: 'New Person', email: 'new@example.com', status: 'disabled', phones: [] },
      },
    });
    expect(standin.user('new@example.com').user_id).toBe(ok.body.response.user_id);
  });

  it('Modify User: a username another user or alias has is a 400; Delete User removes the user and keeps the phones', async () => {
    const user = standin.addUser({ username: 'rename@example.com' });
    standin.addUser({ username: 'other@example.com', aliases: ['other-alias@example.com'] });
    const phone = standin.addPhone({ userId: user.user_id, number: '+15555550999' });
    const path = `/admin/v1/users/${user.user_id}`;
    for (const username of ['other@example.com', 'other-alias@example.com'])
      expect(await raw({ method: 'POST', path, params: { username } })).toMatchObject({
        status: 400,
        body: { message_detail: 'username' },
      });
    expect(await raw({ method: 'POST', path, params: { username: 'renamed@example.com', realname: 'Re Named' } })).toMatchObject({
      status: 200,
      body: { response: { username: 'renamed@example.com', realname: 'Re Named' } },
    });
    expect(await raw({ method: 'DELETE', path })).toMatchObject({ status: 200, body: { stat: 'OK' } });
    expect(standin.users.has(user.user_id)).toBe(false);
    expect(standin.phones.get(phone.phone_id)?.userIds).toEqual([]);
    // Deleting again does nothing (as Duo); modifying an unknown user is a 404.
    expect(await raw({ method: 'DELETE', path })).toMatchObject({ status: 200 });
    expect(await raw({ method: 'POST', path, params: { realname: 'Ghost' } })).toMatchObject({ status: 404, body: { code: 40401 } });
  });

  it('Create and Delete User are signed like every call (401 for a bad signature, nothing changed)', async () => {
    const before = standin.snapshot();
    expect(
      await raw({ method: 'POST', path: '/admin/v1/users', params: { username: 'forged@example.com' }, skey: 'x'.repeat(40) }),
    ).toMatchObject({ status: 401, body: { code: 40103 } });
    const victim = [...standin.users.values()][0]!;
    expect(await raw({ method: 'DELETE', path: `/admin/v1/users/${victim.user_id}`, signedPath: '/admin/v1/users' })).toMatchObject({
      status: 401,
      body: { code: 40103 },
    });
    expect(standin.snapshot()).toBe(before);
  });

  it('answers 429 or 5xx the number of times it is told', async () => {
    standin.failNext({ times: 2, status: 429, path: /^\/admin\/v1\/users$/, retryAfter: '1' });
    expect(await raw({ method: 'GET', path: '/admin/v1/users' })).toMatchObject({ status: 429, body: { stat: 'FAIL', code: 42901 } });
    expect(await raw({ method: 'GET', path: '/admin/v1/users' })).toMatchObject({ status: 429 });
    expect(await raw({ method: 'GET', path: '/admin/v1/users' })).toMatchObject({ status: 200 });
    standin.failNext({ times: 1, status: 503 });
    expect(await raw({ method: 'GET', path: '/admin/v1/users' })).toMatchObject({ status: 503, body: { stat: 'FAIL' } });
  });
});
