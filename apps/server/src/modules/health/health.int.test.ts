import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.js';
import { createTestDatabase } from '../../../test/database.js';
import { meTestApp } from '../../../test/me-api.js';
import type { DatabaseHandle } from '../../db/database.js';
import { createHealthService, NotReady } from './health.service.js';

/** GET /healthz and /readyz: JSON, never cached, never the SPA, no sign-in; readiness names what fails. */

describe('health endpoints', () => {
  let t: TestApp;
  beforeAll(async () => (t = await buildTestApp({ PUBLIC_URL: 'https://portal.example.org/mfa/' })));
  afterAll(() => t?.close());

  it('GET /healthz answers without the database, never cached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toMatch(/no-store/);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('GET /readyz reports each check', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/no-store/);
    expect(res.json()).toEqual({
      status: 'ready',
      notReady: [],
      degraded: [],
      checks: { database: { ok: true }, signingKeys: { ok: true }, mfaProvider: { ok: true }, changeFeed: { ok: true } },
    });
  });

  it('a failing check that only degrades leaves the instance ready, and names it', async () => {
    const failing = (name: string, degradesOnly?: boolean) => ({
      name,
      ...(degradesOnly ? { degradesOnly } : {}),
      run() {
        throw new NotReady(`${name} is down`);
      },
    });
    const degraded = createHealthService([failing('cache', true), { name: 'db', run() {} }], { timeoutMs: 100 });
    expect(await degraded.readiness()).toEqual({
      ready: true,
      notReady: [],
      degraded: ['cache'],
      checks: { cache: { ok: false, degraded: true, reason: 'cache is down' }, db: { ok: true } },
    });
    const both = createHealthService([failing('cache', true), failing('db')], { timeoutMs: 100 });
    expect(await both.readiness()).toMatchObject({ ready: false, notReady: ['db'], degraded: ['cache'] });
  });

  it('has no change feed check without read caches', async () => {
    const other = await buildTestApp({ READ_CACHE: 'false' });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.json().checks).toEqual({ database: { ok: true }, signingKeys: { ok: true }, mfaProvider: { ok: true } });
    } finally {
      await other.close();
    }
  });

  it('says degraded (200) while the change feed is silent, its metric 0 and the caches keeping nothing; ready again once heard', async () => {
    // A half-open listening connection: it looks open, nothing arrives on it while `silent` is set.
    const database = await createTestDatabase();
    let silent = false;
    const quiet: DatabaseHandle = {
      ...database,
      subscribe: (channels, onMessage, onState) =>
        database.subscribe!(channels, (payload, channel) => silent || onMessage(payload, channel), onState),
    };
    const m = await meTestApp({ CHANGE_FEED_HEARTBEAT_MS: '100' }, { database: quiet });
    const metric = async (name: string) => (await m.t.app.metrics.registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
    const userDataHits = async () =>
      (await m.t.app.metrics.registry.getSingleMetric('portal_read_cache_lookups_total')!.get()).values.find(
        (v) => v.labels.cache === 'user_data' && v.labels.result === 'hit',
      )?.value ?? 0;
    const token = await m.token('bob@example.com');
    const userinfo = async () => {
      const res = await m.t.app.inject({
        url: '/account/getuserinfo?userid=bob@example.com',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
    };
    const readyz = async () => {
      const res = await m.t.app.inject({ method: 'GET', url: '/readyz' });
      return { code: res.statusCode, body: res.json() };
    };
    try {
      expect(await metric('portal_change_feed_listening')).toBe(1);
      await userinfo();
      const before = await userDataHits();
      await userinfo();
      expect(await userDataHits()).toBe(before + 1);

      silent = true;
      await expect.poll(async () => (await readyz()).body.status, { timeout: 5000 }).toBe('degraded');
      expect(await readyz()).toEqual({
        code: 200,
        body: {
          status: 'degraded',
          notReady: [],
          degraded: ['changeFeed'],
          checks: {
            database: { ok: true },
            signingKeys: { ok: true },
            mfaProvider: { ok: true },
            changeFeed: { ok: false, degraded: true, reason: 'heartbeat not heard: per-user reads are not kept' },
          },
        },
      });
      expect(await metric('portal_change_feed_listening')).toBe(0);
      expect(await metric('portal_change_feed_heartbeats_missed_total')).toBeGreaterThan(0);
      const silentHits = await userDataHits();
      await userinfo();
      await userinfo();
      expect(await userDataHits()).toBe(silentHits);

      silent = false;
      await expect.poll(async () => (await readyz()).body.status, { timeout: 5000 }).toBe('ready');
      expect((await readyz()).code).toBe(200);
      expect(await metric('portal_change_feed_listening')).toBe(1);
      await userinfo();
      const back = await userDataHits();
      await userinfo();
      expect(await userDataHits()).toBe(back + 1);
    } finally {
      await m.close();
      await database.close();
    }
  });

  it('answers under the base path too, and never falls through to the SPA', async () => {
    for (const url of ['/mfa/healthz', '/mfa/readyz']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).not.toContain('<html');
    }
    const metrics = await t.app.inject({ method: 'GET', url: '/mfa/metrics' });
    expect(metrics.body).not.toContain('<html');
  });

  it('reports not ready while shutting down', async () => {
    const other = await buildTestApp();
    try {
      other.app.health.setDraining();
      const res = await other.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', notReady: ['shutdown'] });
      expect((await other.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('GET /readyz answers 503 naming the database when it cannot be reached; /healthz stays 200', async () => {
    const database = await createTestDatabase();
    const other = await buildTestApp({}, { database });
    try {
      await database.close();
      const res = await other.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'not_ready',
        notReady: ['database'],
        checks: { database: { ok: false }, signingKeys: { ok: true } },
      });
      expect((await other.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await other.app.close();
    }
  });
});
