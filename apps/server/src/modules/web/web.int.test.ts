import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.js';

/** What the authenticator app's build writes into its folder (apps/web/vite.authenticator.config.ts). */
function addAuthenticatorBuild(webRoot: string): void {
  const dir = path.join(webRoot, 'authenticator');
  fs.mkdirSync(path.join(dir, 'static/js'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><base href="/authenticator/" /><link rel="manifest" href="./manifest.webmanifest" /><title>Portal Authenticator</title><script type="module" src="./static/js/index-def.js"></script></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'static/js/index-def.js'), 'console.log("authenticator")');
  const manifest = JSON.stringify({ name: 'Portal Authenticator', start_url: './', scope: './' });
  const worker = 'self.addEventListener("push", () => {})';
  fs.writeFileSync(path.join(dir, 'manifest.webmanifest'), manifest);
  fs.writeFileSync(path.join(dir, 'sw.js'), worker);
  // The build's brotli copies: the headers must not depend on which copy is sent.
  fs.writeFileSync(path.join(dir, 'manifest.webmanifest.br'), brotliCompressSync(manifest));
  fs.writeFileSync(path.join(dir, 'sw.js.br'), brotliCompressSync(worker));
}

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

  describe('the authenticator app', () => {
    beforeAll(() => addAuthenticatorBuild(t.webRoot));

    it('serves its own page at /authenticator/, never cached, with the app folder as <base href>', async () => {
      const res = await t.app.inject({ url: '/authenticator/', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<title>Portal Authenticator</title>');
      expect(res.body).toContain('<base href="/authenticator/" />');
    });

    it('gives its page a CSP that reaches its own origin only, with its manifest and worker', async () => {
      const csp = String((await t.app.inject({ url: '/authenticator/' })).headers['content-security-policy']);
      expect(csp).toContain("connect-src 'self';");
      expect(csp).toContain("manifest-src 'self'");
      expect(csp).toContain("worker-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
    });

    it('sends /authenticator (no slash) to /authenticator/, keeping the query', async () => {
      const res = await t.app.inject({ url: '/authenticator?x=1' });
      expect(res.statusCode).toBe(308);
      expect(res.headers.location).toBe('/authenticator/?x=1');
    });

    it.each(['identity', 'br'])('serves the manifest as application/manifest+json (%s)', async (encoding) => {
      const res = await t.app.inject({ url: '/authenticator/manifest.webmanifest', headers: { 'accept-encoding': encoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
      expect(res.headers['cache-control']).toBe('no-cache');
      const body = encoding === 'br' ? brotliDecompressSync(res.rawPayload).toString() : res.body;
      expect(JSON.parse(body)).toMatchObject({ name: 'Portal Authenticator' });
    });

    it.each(['identity', 'br'])('serves its service worker uncached, allowed the app folder as scope (%s)', async (encoding) => {
      const res = await t.app.inject({ url: '/authenticator/sw.js', headers: { 'accept-encoding': encoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['service-worker-allowed']).toBe('/authenticator/');
    });

    it('serves its hashed assets for good', async () => {
      const res = await t.app.inject({ url: '/authenticator/static/js/index-def.js' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it.each([
      '/authenticator/api/x',
      '/authenticator/api/requests/nothing',
      '/authenticator/some/page',
      '/authenticator/static/js/missing.js',
    ])('GET %s is a JSON 404: neither the static handler nor either page answers it', async (url) => {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'route.not_found' });
    });

    it('leaves POST under its API to the API (a JSON 404 when nothing is there)', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/authenticator/api/x', payload: {} });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('route.not_found');
    });
  });

  it.each(['/admin/users/bob@example.com', '/admin/users/someone@example.org', '/admin/users/x@firma.de', '/report.pdf'])(
    'a page address that ends like a file name (%s), typed or pasted in a browser, is still the application',
    async (url) => {
      const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      const page = await t.app.inject({ url, headers: { accept: browser } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      // Fetched by a script (a bare */*), the same address is what it always was: no such file.
      const script = await t.app.inject({ url, headers: { accept: '*/*' } });
      expect(script.statusCode).toBe(404);
      expect(script.json().code).toBe('route.not_found');
      const refused = await t.app.inject({ url, headers: { accept: 'text/html;q=0, */*' } });
      expect(refused.statusCode).toBe(404);
    },
  );

  it('a missing file under static/ is a 404 even for a browser, and server prefixes keep their answers', async () => {
    for (const url of ['/static/js/missing.js', '/static/nothing', '/api/nothing.json', '/locales/en/nothing.json']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
    }
  });

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

  it('serves the authenticator app under the base path, its <base href> and worker scope there', async () => {
    addAuthenticatorBuild(t.webRoot);
    const page = await t.app.inject({ url: '/portal/authenticator/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<base href="/portal/authenticator/" />');
    const sw = await t.app.inject({ url: '/portal/authenticator/sw.js' });
    expect(sw.headers['service-worker-allowed']).toBe('/portal/authenticator/');
    expect(sw.headers['cache-control']).toBe('no-cache');
    const manifest = await t.app.inject({ url: '/portal/authenticator/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect((await t.app.inject({ url: '/portal/authenticator/static/js/index-def.js' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/authenticator/' })).statusCode).toBe(404);
    const api = await t.app.inject({ url: '/portal/authenticator/api/x' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('route.not_found');
  });

  it('does not answer pages outside the base path', async () => {
    const res = await t.app.inject({ url: '/elsewhere' });
    expect(res.statusCode).toBe(404);
  });
});
