import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_RETRY, DuoClient, type DuoClientOptions } from './client.js';
import { DuoApiError } from './errors.js';
import type { DuoHttpRequest, DuoHttpResponse, DuoTransport } from './transport.js';

/**
 * The Duo client over a scripted transport: what it sends, how it reads answers, how each failure
 * becomes a portal error, and when it retries (sleep and randomness injected: no real waiting).
 */

const IKEY = 'DIWJ8X6AEYOR5OMC6TQ1';
const SKEY = 'Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep';
const HOST = 'api-abcd1234.duosecurity.com';
const NOW = new Date(Date.UTC(2030, 0, 2, 3, 4, 5));
const DATE = 'Wed, 02 Jan 2030 03:04:05 -0000';

type Scripted = Partial<DuoHttpResponse> | Error | ((req: DuoHttpRequest) => Promise<DuoHttpResponse>);
const ok = (response: unknown, metadata?: unknown): Partial<DuoHttpResponse> => ({
  status: 200,
  body: JSON.stringify({ stat: 'OK', response, ...(metadata ? { metadata } : {}) }),
});
const fail = (status: number, code?: number, extra: Partial<DuoHttpResponse> = {}): Partial<DuoHttpResponse> => ({
  status,
  body: code ? JSON.stringify({ stat: 'FAIL', code, message: 'Some message', message_detail: 'some_param' }) : '<html>Bad gateway</html>',
  ...extra,
});

function harness(script: Scripted[], options: Partial<DuoClientOptions> = {}) {
  const sent: DuoHttpRequest[] = [];
  const waits: number[] = [];
  let i = 0;
  const transport: DuoTransport = async (req) => {
    sent.push(req);
    const next = script[Math.min(i++, script.length - 1)]!;
    if (next instanceof Error) throw next;
    if (typeof next === 'function') return next(req);
    return { status: 200, body: '', ...next, headers: { ...next.headers } };
  };
  const client = new DuoClient({
    integrationKey: IKEY,
    secretKey: SKEY,
    apiHost: HOST,
    transport,
    now: () => NOW,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { client, sent, waits };
}

const hmac = (text: string) => createHmac('sha512', SKEY).update(text).digest('hex');
const sha512 = (text: string) => createHash('sha512').update(text).digest('hex');
const authOf = (sig: string) => `Basic ${Buffer.from(`${IKEY}:${sig}`).toString('base64')}`;

async function rejection(p: Promise<unknown>): Promise<DuoApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DuoApiError);
  return err as DuoApiError;
}

describe('DuoClient requests', () => {
  it('GET: parameters in the query, signed v2, Date header, Basic ikey:hmac', async () => {
    const { client, sent } = harness([ok([{ user_id: 'DU1' }])]);
    await expect(client.request('GET', '/admin/v1/users', { params: { username: 'bob smith@example.com' } })).resolves.toEqual([
      { user_id: 'DU1' },
    ]);
    const req = sent[0]!;
    expect(req.url.href).toBe(`https://${HOST}/admin/v1/users?username=bob%20smith%40example.com`);
    expect(req.body).toBeUndefined();
    expect(req.headers.date).toBe(DATE);
    expect(req.headers.authorization).toBe(authOf(hmac(`${DATE}\nGET\n${HOST}\n/admin/v1/users\nusername=bob%20smith%40example.com`)));
  });

  it('POST: a form body, the same parameters signed (v2)', async () => {
    const { client, sent } = harness([ok(['123456789'])]);
    await client.request('POST', '/admin/v1/users/DU1/bypass_codes', {
      params: { count: 1, valid_secs: 3600, reuse_count: 1, preserve_existing: 'true', ignored: undefined },
    });
    const req = sent[0]!;
    expect(req.url.search).toBe('');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.body).toBe('count=1&preserve_existing=true&reuse_count=1&valid_secs=3600');
    expect(req.headers.authorization).toBe(
      authOf(
        hmac(`${DATE}\nPOST\n${HOST}\n/admin/v1/users/DU1/bypass_codes\ncount=1&preserve_existing=true&reuse_count=1&valid_secs=3600`),
      ),
    );
  });

  it('POST with a JSON body: v5, sorted keys, an empty parameters line, the body and X-Duo headers hashed', async () => {
    const { client, sent } = harness([ok('')]);
    await client.request('POST', '/admin/v1/users/DU1/phones', {
      params: { phone_id: 'DP1', b: 'x' },
      json: true,
      duoHeaders: { 'X-Duo-Request': 'r1' },
    });
    const req = sent[0]!;
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['X-Duo-Request']).toBe('r1');
    expect(req.body).toBe('{"b":"x","phone_id":"DP1"}');
    expect(req.headers.authorization).toBe(
      authOf(hmac(`${DATE}\nPOST\n${HOST}\n/admin/v1/users/DU1/phones\n\n${sha512(req.body!)}\n${sha512('x-duo-request\u0000r1')}`)),
    );
  });

  it('signatureVersion 5: JSON bodies for POST and v5 for GET too', async () => {
    const { client, sent } = harness([ok([]), ok('')], { signatureVersion: 5 });
    await client.request('GET', '/admin/v1/users', { params: { username: 'bob' } });
    await client.request('POST', '/admin/v1/phones/DP1', { params: { name: 'Work' } });
    expect(sent[0]!.headers.authorization).toBe(
      authOf(hmac(`${DATE}\nGET\n${HOST}\n/admin/v1/users\nusername=bob\n${sha512('')}\n${sha512('')}`)),
    );
    expect(sent[1]!.body).toBe('{"name":"Work"}');
    expect(sent[1]!.headers.authorization).toBe(
      authOf(hmac(`${DATE}\nPOST\n${HOST}\n/admin/v1/phones/DP1\n\n${sha512('{"name":"Work"}')}\n${sha512('')}`)),
    );
  });

  it('sends to the base URL when one is configured, still signing the API host', async () => {
    const { client, sent } = harness([ok([])], { baseUrl: 'http://127.0.0.1:4567' });
    await client.request('GET', '/admin/v1/users');
    expect(sent[0]!.url.href).toBe('http://127.0.0.1:4567/admin/v1/users');
    expect(sent[0]!.headers.authorization).toBe(authOf(hmac(`${DATE}\nGET\n${HOST}\n/admin/v1/users\n`)));
  });
});

describe('DuoClient error mapping', () => {
  it.each([
    [400, 40002, 'rejected', 502, 'mfa.provider_rejected'],
    [401, 40103, 'rejected', 502, 'mfa.provider_rejected'],
    [403, 40301, 'rejected', 502, 'mfa.provider_rejected'],
    [404, 40401, 'rejected', 502, 'mfa.provider_rejected'],
    [500, 50001, 'unavailable', 503, 'mfa.provider_unavailable'],
  ])('a POST answered %i (Duo %i) is %s: %i %s, not retried', async (status, duoCode, kind, httpStatus, code) => {
    const { client, sent } = harness([fail(status, duoCode)]);
    const err = await rejection(client.request('POST', '/admin/v1/phones', { params: { number: '+15555550100' } }));
    expect(err).toMatchObject({
      kind,
      statusCode: httpStatus,
      code,
      httpStatus: status,
      duoCode,
      duoMessage: 'Some message',
      messageDetail: 'some_param',
    });
    expect(err.details).toEqual({ provider: 'duo', providerStatus: status, providerCode: duoCode });
    expect(err.message).not.toContain('Some message');
    expect(err.describe()).toBe(`Duo POST /admin/v1/phones failed: ${status} ${duoCode} Some message (some_param)`);
    expect(sent).toHaveLength(1);
  });

  it('a 200 that is not Duo’s success envelope is unavailable (502 HTML, stat FAIL, not JSON)', async () => {
    for (const body of [
      '<html>proxy</html>',
      JSON.stringify({ stat: 'FAIL', code: 40002, message: 'x' }),
      JSON.stringify({ stat: 'OK' }),
    ]) {
      const { client } = harness([{ status: 200, body }]);
      expect(await rejection(client.request('POST', '/auth/v2/auth'))).toMatchObject({
        kind: 'unavailable',
        code: 'mfa.provider_unavailable',
        statusCode: 503,
      });
    }
  });

  it('a network error or a time-out is unavailable', async () => {
    const { client } = harness([new Error('ECONNREFUSED')]);
    expect(await rejection(client.request('POST', '/auth/v2/auth'))).toMatchObject({
      kind: 'unavailable',
      httpStatus: null,
      statusCode: 503,
    });
    const hanging: Scripted = (req) =>
      new Promise((_resolve, reject) => {
        req.signal.addEventListener('abort', () => reject(req.signal.reason));
      });
    const slow = harness([hanging], { timeoutMs: 20 });
    const err = await rejection(slow.client.request('POST', '/auth/v2/auth'));
    expect(err.duoMessage).toBe('no answer within 20 ms');
  });

  it('passes on the caller’s abort as it is', async () => {
    const controller = new AbortController();
    const hanging: Scripted = (req) =>
      new Promise((_resolve, reject) => {
        req.signal.addEventListener('abort', () => reject(req.signal.reason));
      });
    const { client } = harness([hanging]);
    const p = client.request('GET', '/admin/v1/users', { signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(p).rejects.toThrow('caller gave up');
  });
});

describe('DuoClient retries', () => {
  it('429: backs off as Duo’s clients do (1 s, then 2 s, plus under 1 s at random) and succeeds (any method)', async () => {
    let clock = NOW.getTime();
    const { client, sent, waits } = harness([fail(429, 42901), fail(429, 42901), ok(['111222333'])], {
      now: () => new Date((clock += 1000)),
    });
    await expect(client.request('POST', '/admin/v1/users/DU1/bypass_codes', { params: { count: 1 } })).resolves.toEqual(['111222333']);
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([1500, 2500]);
    // Every attempt is signed afresh, with its own Date.
    expect(new Set(sent.map((r) => r.headers.date)).size).toBe(3);
    expect(new Set(sent.map((r) => r.headers.authorization)).size).toBe(3);
  });

  it('429 for ever: gives up after maxAttempts, within maxTotalWaitMs, as 503 mfa.provider_rate_limited with Retry-After', async () => {
    const { client, sent, waits } = harness([fail(429, 42901)], { random: () => 0.9999, retry: { maxAttempts: 5, maxTotalWaitMs: 3000 } });
    const err = await rejection(client.request('GET', '/admin/v1/users'));
    expect(err).toMatchObject({
      kind: 'rate_limited',
      statusCode: 503,
      code: 'mfa.provider_rate_limited',
      headers: { 'retry-after': '4' },
    });
    expect(sent.length).toBeLessThanOrEqual(5);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3000);
    // 1 s (+0.999 s), then the 2 s scheduled no longer fit the 3 s budget: given up rather than early.
    expect(waits).toEqual([1999]);
  });

  it('a background read (BACKGROUND_RETRY) waits Duo’s whole schedule, up to 32 s a wait; a person’s request gives up within its budget', async () => {
    const script = [...Array.from({ length: 6 }, () => fail(429, 42901)), ok([{ user_id: 'DU1' }])];
    const person = harness(script);
    await rejection(person.client.request('GET', '/admin/v1/users'));
    expect(person.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(8000);

    const sync = harness(script);
    await expect(sync.client.request('GET', '/admin/v1/users', { retry: BACKGROUND_RETRY })).resolves.toEqual([{ user_id: 'DU1' }]);
    expect(sync.waits).toEqual([1500, 2500, 4500, 8500, 16500, 32500]);
  });

  it('honours Retry-After as a floor, and gives up at once when it exceeds the budget', async () => {
    const floor = harness([fail(429, 42901, { headers: { 'retry-after': '2' } }), ok([])]);
    await floor.client.request('GET', '/admin/v1/users');
    expect(floor.waits).toEqual([2500]);
    // X-Retry-After too; the longer of the two counts.
    const x = harness([fail(429, 42901, { headers: { 'x-retry-after': '3', 'retry-after': '1' } }), ok([])]);
    await x.client.request('GET', '/admin/v1/users');
    expect(x.waits).toEqual([3500]);
    const tooLong = harness([fail(429, 42901, { headers: { 'retry-after': '30' } })]);
    const err = await rejection(tooLong.client.request('GET', '/admin/v1/users'));
    expect(tooLong.sent).toHaveLength(1);
    expect(err.headers['retry-after']).toBe('30');
  });

  it('5xx: a GET is retried and succeeds; a POST is not retried', async () => {
    const get = harness([fail(500, 50001), fail(503), ok([])]);
    await expect(get.client.request('GET', '/admin/v1/users')).resolves.toEqual([]);
    expect(get.sent).toHaveLength(3);
    const post = harness([fail(503), ok('')]);
    expect(await rejection(post.client.request('POST', '/admin/v1/users/DU1/phones', { params: { phone_id: 'DP1' } }))).toMatchObject({
      kind: 'unavailable',
      httpStatus: 503,
    });
    expect(post.sent).toHaveLength(1);
  });

  it('a network error is retried for GET and DELETE, never for POST', async () => {
    const get = harness([new Error('ECONNRESET'), ok([])]);
    await get.client.request('GET', '/admin/v1/users');
    expect(get.sent).toHaveLength(2);
    const post = harness([new Error('ECONNRESET'), ok('')]);
    await rejection(post.client.request('POST', '/auth/v2/auth'));
    expect(post.sent).toHaveLength(1);
  });

  it('DELETE: retried after a 5xx; a 404 on the retry means the first attempt had deleted it', async () => {
    const { client, sent } = harness([fail(503), fail(404, 40401)]);
    await expect(client.request('DELETE', '/admin/v1/bypass_codes/DB1')).resolves.toBeNull();
    expect(sent).toHaveLength(2);
    // A 404 on the first attempt is a real "not found".
    const first = harness([fail(404, 40401)]);
    expect(await rejection(first.client.request('DELETE', '/admin/v1/bypass_codes/DB1'))).toMatchObject({
      httpStatus: 404,
      kind: 'rejected',
    });
    // After a 429 (not processed) a 404 is real too.
    const limited = harness([fail(429, 42901), fail(404, 40401)]);
    expect(await rejection(limited.client.request('DELETE', '/admin/v1/bypass_codes/DB1'))).toMatchObject({ httpStatus: 404 });
  });

  it('logs each retry and the final failure without parameters', async () => {
    const lines: Array<{ obj: Record<string, unknown>; msg: string }> = [];
    const { client } = harness([fail(500, 50001)], { logger: { warn: (obj, msg) => lines.push({ obj, msg }) }, retry: { maxAttempts: 2 } });
    await rejection(client.request('GET', '/admin/v1/users', { params: { username: 'secret-user@example.com' } }));
    expect(lines).toHaveLength(2);
    expect(JSON.stringify(lines)).not.toContain('secret-user');
    expect(lines[1]!.msg).toBe('Duo GET /admin/v1/users failed: 500 50001 Some message (some_param)');
  });
});

describe('DuoClient.getAll', () => {
  it('follows metadata.next_offset to the end, asking limit and offset', async () => {
    const { client, sent } = harness(
      [ok([1, 2], { next_offset: 2, total_objects: 5 }), ok([3, 4], { next_offset: 4, prev_offset: 0 }), ok([5], { prev_offset: 2 })],
      { pageSize: 2 },
    );
    await expect(client.getAll('/admin/v1/users/DU1/phones')).resolves.toEqual([1, 2, 3, 4, 5]);
    expect(sent.map((r) => r.url.search)).toEqual(['?limit=2&offset=0', '?limit=2&offset=2', '?limit=2&offset=4']);
  });

  it('refuses paging that does not advance, and an answer that is not a list', async () => {
    const stuck = harness([ok([1], { next_offset: 0 })]);
    expect(await rejection(stuck.client.getAll('/admin/v1/tokens'))).toMatchObject({
      kind: 'unavailable',
      duoMessage: 'paging did not advance',
    });
    const notList = harness([ok({ a: 1 })]);
    expect(await rejection(notList.client.getAll('/admin/v1/tokens'))).toMatchObject({ kind: 'unavailable' });
  });
});
