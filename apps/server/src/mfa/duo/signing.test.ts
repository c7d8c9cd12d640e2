import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalV2, canonicalV5, canonParams, duoEncode, formatDuoDate, hashDuoHeaders, signRequest } from './signing.js';

/**
 * Duo's signing scheme. Expected canonical strings are written out by hand from Duo's documented
 * format; the HMAC is computed here with node:crypto directly, so the module is checked against the
 * format, not against itself. Two vectors from Duo's own client test suite (duo_api_nodejs) check the
 * whole chain end to end.
 */

const hmac = (key: string, text: string) => createHmac('sha512', key).update(text, 'utf8').digest('hex');
const sha512 = (text: string) => createHash('sha512').update(text, 'utf8').digest('hex');
const basic = (ikey: string, sig: string) => `Basic ${Buffer.from(`${ikey}:${sig}`).toString('base64')}`;

const IKEY = 'DIWJ8X6AEYOR5OMC6TQ1';
const SKEY = 'Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep';
const DATE = 'Tue, 21 Aug 2012 17:29:18 -0000';

describe('formatDuoDate', () => {
  it('writes RFC 2822 in UTC with -0000, two-digit day, as Duo’s clients do', () => {
    expect(formatDuoDate(new Date(Date.UTC(2012, 7, 21, 17, 29, 18)))).toBe(DATE);
    expect(formatDuoDate(new Date(Date.UTC(2024, 1, 5, 3, 4, 5, 999)))).toBe('Mon, 05 Feb 2024 03:04:05 -0000');
  });
});

describe('canonical parameters', () => {
  it('percent-encodes all but A-Z a-z 0-9 - _ . ~ with upper-case hex, a space as %20', () => {
    expect(duoEncode("a b!'()*~._-")).toBe('a%20b%21%27%28%29%2A~._-');
    expect(
      canonParams({
        digits: '0123456789',
        letters: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
        punctuation: '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
        whitespace: '\t\n\x0b\x0c\r ',
      }),
    ).toBe(
      'digits=0123456789&letters=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ&punctuation=%21%22%23%24%25%26%27%28%29%2A%2B%2C-.%2F%3A%3B%3C%3D%3E%3F%40%5B%5C%5D%5E_%60%7B%7C%7D~&whitespace=%09%0A%0B%0C%0D%20',
    );
  });

  it('encodes UTF-8 bytes', () => {
    expect(canonParams({ name: 'Zoë ☎' })).toBe('name=Zo%C3%AB%20%E2%98%8E');
  });

  it('sorts by key, a prefix first', () => {
    expect(canonParams({ username: 'root', realname: 'First Last' })).toBe('realname=First%20Last&username=root');
    expect(canonParams({ foo_bar: '2', foo: '1' })).toBe('foo=1&foo_bar=2');
    expect(canonParams({})).toBe('');
  });
});

describe('canonical string v2', () => {
  const input = {
    date: DATE,
    method: 'POST' as const,
    host: 'api-XXXXXXXX.duosecurity.com',
    path: '/admin/v1/users/DU123/bypass_codes',
    params: { valid_secs: '3600', count: '2', reuse_count: '1', preserve_existing: 'true' },
  };
  const expected = [
    'Tue, 21 Aug 2012 17:29:18 -0000',
    'POST',
    'api-xxxxxxxx.duosecurity.com',
    '/admin/v1/users/DU123/bypass_codes',
    'count=2&preserve_existing=true&reuse_count=1&valid_secs=3600',
  ].join('\n');

  it('is date, METHOD, lower-case host, path and the sorted parameters, one per line', () => {
    expect(canonicalV2(input)).toBe(expected);
  });

  it('signs with HMAC-SHA512 in hex, sent as Basic ikey:signature', () => {
    expect(signRequest({ ...input, integrationKey: IKEY, secretKey: SKEY, version: 2 })).toBe(basic(IKEY, hmac(SKEY, expected)));
  });

  it('a GET with no parameters has an empty last line', () => {
    const canonical = canonicalV2({ date: DATE, method: 'GET', host: 'api-xxxxxxxx.duosecurity.com', path: '/admin/v1/users', params: {} });
    expect(canonical).toBe('Tue, 21 Aug 2012 17:29:18 -0000\nGET\napi-xxxxxxxx.duosecurity.com\n/admin/v1/users\n');
  });

  it('matches the v2 vector of Duo’s own client tests', () => {
    expect(
      signRequest({
        integrationKey: 'test_ikey',
        secretKey: 'test_skey',
        version: 2,
        date: DATE,
        method: 'POST',
        host: 'test.duosecurity.com',
        path: '/test/v1',
        params: { realname: 'First Last', username: 'root' },
      }),
    ).toBe(
      'Basic dGVzdF9pa2V5OjA0MmEzMGM2ODJiZDgzNmZjNWJhNDY3ODkxYTk1NmVhYTEwMDkxY2EwZjczYTdmYjM5NmFlZmQ1NmEzNTI5ZTU2OTMyZGVhNDI3YTY3MjEzYWY2NjRiYTY4NDE2ODlmZjIzMzZiN2EzNzM3NjZlYTVhYjdhYjlmZTI2MzgyMjZi',
    );
  });
});

describe('canonical string v5', () => {
  const body = '{"count":"2","preserve_existing":"true","reuse_count":"1","valid_secs":"3600"}';

  it('adds the SHA-512 of the JSON body and of the X-Duo headers; the parameters line is empty', () => {
    const expected = [
      'Tue, 21 Aug 2012 17:29:18 -0000',
      'POST',
      'api-xxxxxxxx.duosecurity.com',
      '/admin/v1/users/DU123/bypass_codes',
      '',
      sha512(body),
      sha512(''),
    ].join('\n');
    const input = {
      date: DATE,
      method: 'POST' as const,
      host: 'API-xxxxxxxx.duosecurity.com',
      path: '/admin/v1/users/DU123/bypass_codes',
      params: {},
      body,
    };
    expect(canonicalV5(input)).toBe(expected);
    expect(signRequest({ ...input, integrationKey: IKEY, secretKey: SKEY, version: 5 })).toBe(basic(IKEY, hmac(SKEY, expected)));
  });

  it('hashes X-Duo headers lower-cased, sorted by name, name and value NUL-separated', () => {
    const headers = { 'X-Duo-Zeta': 'last', 'x-duo-alpha': 'first' };
    expect(hashDuoHeaders(headers)).toBe(sha512('x-duo-alpha\u0000first\u0000x-duo-zeta\u0000last'));
    const expected = [
      'Tue, 21 Aug 2012 17:29:18 -0000',
      'GET',
      'api-xxxxxxxx.duosecurity.com',
      '/admin/v1/users',
      'username=bob%40example.com',
      sha512(''),
      sha512('x-duo-alpha\u0000first\u0000x-duo-zeta\u0000last'),
    ].join('\n');
    expect(
      signRequest({
        integrationKey: IKEY,
        secretKey: SKEY,
        version: 5,
        date: DATE,
        method: 'GET',
        host: 'api-xxxxxxxx.duosecurity.com',
        path: '/admin/v1/users',
        params: { username: 'bob@example.com' },
        duoHeaders: headers,
      }),
    ).toBe(basic(IKEY, hmac(SKEY, expected)));
  });

  it('matches the v5 vector of Duo’s own client tests', () => {
    expect(
      signRequest({
        integrationKey: 'test_ikey',
        secretKey: 'test_skey',
        version: 5,
        date: DATE,
        method: 'POST',
        host: 'test.duosecurity.com',
        path: '/test/v1',
        params: {},
        body: JSON.stringify({ realname: 'First Last', username: 'root' }),
      }),
    ).toBe(
      'Basic dGVzdF9pa2V5OjdkMDI0MDlhMTUyNzY0ODQzY2NjZDgyODRkYTE1M2IzZmI0NDZiYWFkNWY5OTg4ODYzMjVlMjRiYzljZDRhMjQ0ZGU4NWFkNGJmYTdlYTI4NWQ2ODIwOWYxNjA4MzU2NzNkOGI0ZjFlMWIyM2Q5Y2Q1MjFkMjZiZmU3ZjM2NmE0',
    );
  });

  it('refuses a body or X-Duo headers under v2, and badly named headers', () => {
    const base = { integrationKey: IKEY, secretKey: SKEY, date: DATE, method: 'POST' as const, host: 'h', path: '/p', params: {} };
    expect(() => signRequest({ ...base, version: 2, body: '{}' })).toThrow(/version 5/);
    expect(() => signRequest({ ...base, version: 2, duoHeaders: { 'X-Duo-A': '1' } })).toThrow(/version 5/);
    expect(() => signRequest({ ...base, version: 5, duoHeaders: { 'X-Other': '1' } })).toThrow(/X-Duo-/);
    expect(() => signRequest({ ...base, version: 5, duoHeaders: { 'X-Duo-A': '1', 'x-duo-a': '2' } })).toThrow(/twice/);
    expect(() => signRequest({ ...base, version: 5, duoHeaders: { 'X-Duo-A': 'a\u0000b' } })).toThrow(/NUL/);
  });
});
