import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.js';
import { localesRepository } from './locales.repository.js';
import { MISSING_KEYS_LIMITS } from './locales.service.js';

describe('GET /locales/:lng/:ns.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('serves the repository English translation file', async () => {
    const res = await t.app.inject({ url: '/locales/en/errors.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)['auth.token_expired']).toMatch(/expired/);
  });

  it.each([
    ['/locales/fr/errors.json', 404, 'locale.not_found', 'lng'],
    ['/locales/en/nope.json', 404, 'locale.not_found', 'ns'],
    ['/locales/en/..%2Fpackage.json', 400, 'request.invalid', 'file'],
    ['/locales/EN!/errors.json', 400, 'request.invalid', 'lng'],
    ['/locales/en/errors.txt', 400, 'request.invalid', 'file'],
  ])('%s answers %i %s naming %s', async (url, status, code, field) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code, details: { field } });
  });
});

describe('POST /locales/add/:lng/:ns', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());
  const stored = () => localesRepository(t.database.db).listMissing('en', 'errors');

  it('records missing keys in the database and counts repeated reports', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/locales/add/en/errors',
      payload: { 'devices.list.empty_title': 'No devices yet' },
    });
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ recorded: 1 });
    await t.app.inject({ method: 'POST', url: '/locales/add/en/errors', payload: { 'devices.list.empty_title': 'No devices yet' } });
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: 'devices.list.empty_title', fallback: 'No devices yet', reports: 2 });
  });

  it.each([
    ['an array', ['a'], 'body'],
    ['an empty object', {}, 'body'],
    ['a non-string value', { k: 1 }, 'k'],
    ['a key with a control character', { 'a\u0001b': 'x' }, 'a\u0001b'],
    ['an over-long key', { ['k'.repeat(MISSING_KEYS_LIMITS.maxKeyLength + 1)]: 'x' }, undefined],
    [
      'too many keys',
      Object.fromEntries(Array.from({ length: MISSING_KEYS_LIMITS.maxKeysPerRequest + 1 }, (_, i) => [`k${i}`, 'x'])),
      undefined,
    ],
  ])('refuses %s with 400 and stores nothing', async (_label, payload, field) => {
    const before = await stored();
    const res = await t.app.inject({ method: 'POST', url: '/locales/add/en/errors', payload: payload as object });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('request.invalid');
    if (field) expect(res.json().details.field).toBe(field);
    expect(await stored()).toEqual(before);
  });

  it('refuses malformed JSON with 400, not 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/locales/add/en/errors',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'request.invalid', details: { field: 'body' } });
  });

  it('refuses an oversized body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/locales/add/en/errors',
      payload: { k: 'x'.repeat(MISSING_KEYS_LIMITS.bodyLimitBytes) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('request.body_too_large');
  });

  it('refuses an unknown language or namespace with 404 and writes nothing', async () => {
    for (const url of ['/locales/add/fr/errors', '/locales/add/en/nope']) {
      const res = await t.app.inject({ method: 'POST', url, payload: { k: 'v' } });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('locale.not_found');
    }
    const all = await t.database.db.selectFrom('missing_translation').select('ns').where('ns', '=', 'nope').execute();
    expect(all).toEqual([]);
  });

  it('keeps the store bounded: once full, new keys are refused with 409', async () => {
    const db = t.database.db;
    const filler = Array.from({ length: MISSING_KEYS_LIMITS.maxStoredKeys }, (_, i) => ({
      lng: 'en',
      ns: 'filler',
      key: `f${i}`,
      fallback: 'x',
    }));
    for (let i = 0; i < filler.length; i += 500)
      await db
        .insertInto('missing_translation')
        .values(filler.slice(i, i + 500))
        .execute();
    const res = await t.app.inject({ method: 'POST', url: '/locales/add/en/errors', payload: { 'brand.new.key': 'x' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('locale.store_full');
    expect((await stored()).map((r) => r.key)).not.toContain('brand.new.key');
  });
});

describe('POST /locales/add rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once an address sends too many reports', async () => {
    let last = 0;
    let res;
    for (let i = 0; i <= MISSING_KEYS_LIMITS.perMinutePerAddress; i++) {
      res = await t.app.inject({ method: 'POST', url: '/locales/add/en/errors', payload: { [`k${i}`]: 'v' } });
      last = res.statusCode;
    }
    expect(last).toBe(429);
    expect(res!.headers['retry-after']).toMatch(/^\d+$/);
    expect(res!.json()).toMatchObject({ code: 'request.rate_limited', details: { retryAfterSeconds: expect.any(Number) } });
  });
});
