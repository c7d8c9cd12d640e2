import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.js';
import { createTestDatabase } from '../../../test/database.js';

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
      checks: { database: { ok: true }, signingKeys: { ok: true }, mfaProvider: { ok: true } },
    });
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
