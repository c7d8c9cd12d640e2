import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.js';

describe('serving the web application', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it.each(['/', '/some/path', '/error/500', '/loggedout'])('GET %s returns index.html, never cached', async (url) => {
    const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<base href="/" />');
  });

  it('serves hashed assets under static/ with a long cache life', async () => {
    const res = await t.app.inject({ url: '/static/js/index-abc.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    ['br, gzip, deflate', 'br', brotliDecompressSync],
    ['gzip, deflate', 'gzip', gunzipSync],
    ['br;q=0, gzip', 'gzip', gunzipSync],
  ] as const)('sends the precompressed asset to "Accept-Encoding: %s" as %s, cached for good', async (accept, encoding, decode) => {
    const res = await t.app.inject({ url: '/static/js/index-abc.js', headers: { 'accept-encoding': accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode(res.rawPayload).toString()).toBe('console.log("app")');
  });

  it('sends the plain asset, still varying on Accept-Encoding, to a client that accepts no compression', async () => {
    const res = await t.app.inject({ url: '/static/js/index-abc.js', headers: { 'accept-encoding': 'identity' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.body).toBe('console.log("app")');
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('sends index.html compressed (%s), never cached', async (encoding, decode) => {
    const res = await t.app.inject({ url: '/some/page', headers: { accept: 'text/html', 'accept-encoding': encoding } });
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(decode(res.rawPayload).toString()).toContain('<base href="/" />');
  });

  it('serves the service worker uncached', async () => {
    const res = await t.app.inject({ url: '/service-worker.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('lets only the redirect bridge page be framed, by the portal itself', async () => {
    const bridge = await t.app.inject({ url: '/auth-bridge.html' });
    expect(bridge.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(bridge.headers['x-frame-options']).toBe('SAMEORIGIN');
    const page = await t.app.inject({ url: '/' });
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it.each(['/static/js/missing.js', '/api/nothing', '/account/nothing', '/favicon.ico'])(
    'GET %s is a JSON 404, not the application',
    async (url) => {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'route.not_found' });
    },
  );

  it('a POST to an unknown address is a JSON 404', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/some/path', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('route.not_found');
  });
});

describe('serving the web application under a base path', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ PUBLIC_URL: 'https://mfa.example.org/portal/' });
  });
  afterAll(() => t.close());

  it('rewrites <base href> to the base path and serves assets under it', async () => {
    const res = await t.app.inject({ url: '/portal/some/deep/link' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<base href="/portal/" />');
    expect((await t.app.inject({ url: '/portal/static/js/index-abc.js' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/portal/settings/APIInfo' })).statusCode).toBe(200);
  });

  it('does not answer pages outside the base path', async () => {
    const res = await t.app.inject({ url: '/elsewhere' });
    expect(res.statusCode).toBe(404);
  });
});
