import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, BOB, callAs, HELPDESK, JUSTIFY, deviceIdOf } from '../../test/admin-api.js';
import { errorOf, mfaSnapshot, meTestApp, type MeTestApp } from '../../test/me-api.js';
import { TestBrowser, authorizeUrl, formAction, injectTransport, location, pkce } from '../../test/oidc-test-client.js';
import { clientErrorResponse } from './errors.js';

/** Issue 14: bad input is a 400 naming the field before anything is read or written; every error has the error shape. */
let m: MeTestApp;
beforeAll(async () => {
  m = await meTestApp();
  await m.db.insertInto('step_up').values({ upn: BOB.upn, method: 'passcode', verified_at: new Date() }).execute();
}, 120_000);
afterAll(() => m.close());

describe('free text and path parameters', () => {
  it('refuses staff on an admin user route whatever the {upn} (403 before any lookup), and tells an admin the {upn} is bad', async () => {
    for (const upn of ['%00', 'a%00b%40example.com', 'bob%40example.com']) {
      const res = await callAs(m, BOB, 'GET', `/api/admin/users/${upn}`);
      expect(res.statusCode, upn).toBe(403);
      expect(errorOf(res).code).toBe('auth.forbidden');
    }
    const bad = await callAs(m, ADMIN, 'GET', '/api/admin/users/a%00b%40example.com');
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toMatchObject({ code: 'request.invalid', details: { field: 'upn' } });
  });

  it('refuses a NUL in the user search and the audit-log filters', async () => {
    const search = await callAs(m, HELPDESK, 'GET', '/api/admin/users?q=a%00');
    expect(search.statusCode).toBe(400);
    expect(errorOf(search).details).toMatchObject({ field: 'q' });
    const audit = await callAs(m, ADMIN, 'GET', '/api/admin/audit?actor=%00');
    expect(audit.statusCode).toBe(400);
    expect(errorOf(audit).details).toMatchObject({ field: 'actor' });
  });

  it('refuses a NUL or an unpaired surrogate in a device name or a helpdesk reason, and changes nothing', async () => {
    const id = await deviceIdOf(m.db, BOB.upn);
    const before = await mfaSnapshot(m.db);
    for (const name of ['Phone\u0000', 'Phone\ud800', 'Bell\u0007']) {
      const res = await m.call(BOB.upn, 'PATCH', `/devices/${id}`, { name });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: 'request.invalid', details: { field: 'name' } });
    }
    const codes = await callAs(m, HELPDESK, 'POST', `/api/admin/users/grace%40example.com/bypass-codes`, {
      ...JUSTIFY,
      reason: 'Lost\u0000phone',
      count: 1,
      validitySeconds: 3600,
    });
    expect(codes.statusCode).toBe(400);
    expect(errorOf(codes).details).toMatchObject({ field: 'reason' });
    const ticket = await callAs(m, HELPDESK, 'DELETE', `/api/admin/users/grace%40example.com/devices/${id}`, {
      ...JUSTIFY,
      ticket: 'INC\ud800',
    });
    expect(ticket.statusCode).toBe(400);
    expect(await mfaSnapshot(m.db)).toBe(before);
  });

  it('refuses a NUL in a hardware-token import', async () => {
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/tokens/import', 'serial,seed\nD100-9\u0000,abc\n');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('request.invalid');
  });
});

describe('the error shape', () => {
  it('answers unknown /api routes, malformed addresses, bad JSON, wrong content types and large bodies with it', async () => {
    type Req = { method: 'GET' | 'PATCH'; url: string; headers?: Record<string, string>; payload?: string };
    const cases: Array<[Req, number, string]> = [
      [{ method: 'GET', url: '/api/nope' }, 404, 'route.not_found'],
      [{ method: 'GET', url: '/api/me/devices/%E0' }, 400, 'request.invalid'],
      [{ method: 'GET', url: '/api/admin/users/%ED%A0%80' }, 400, 'request.invalid'],
      // A path parameter longer than the router takes matches no route.
      [{ method: 'GET', url: `/api/admin/users/${'a'.repeat(300)}` }, 404, 'route.not_found'],
      [
        { method: 'PATCH', url: '/api/me/devices/x', headers: { 'content-type': 'application/json' }, payload: '{bad' },
        400,
        'request.invalid',
      ],
      [
        { method: 'PATCH', url: '/api/me/devices/x', headers: { 'content-type': 'application/xml' }, payload: '<a/>' },
        415,
        'request.unsupported_media_type',
      ],
      [
        {
          method: 'PATCH',
          url: '/api/me/devices/x',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ name: 'x'.repeat(70_000) }),
        },
        413,
        'request.body_too_large',
      ],
    ];
    const token = await m.token(BOB.upn);
    for (const [req, status, code] of cases) {
      const res = await m.t.app.inject({ ...req, headers: { authorization: `Bearer ${token}`, ...req.headers } });
      expect(res.statusCode, req.url).toBe(status);
      expect(errorOf(res).code).toBe(code);
    }
  });

  it('answers oversized headers with a 431 in the error shape and closes the connection', async () => {
    await m.t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = m.t.app.server.address() as net.AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(`GET /api/me/devices HTTP/1.1\r\nhost: localhost\r\nx-big: ${'a'.repeat(40_000)}\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'request.headers_too_large' });
    expect(clientErrorResponse('ERR_HTTP_REQUEST_TIMEOUT')).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe("the identity provider's sign-in form", () => {
  it('answers a NUL or an unpaired surrogate in the username or password with the page and a message, never a 500', async () => {
    const { config } = m.t;
    if (config.idp.mode !== 'embedded') throw new Error('embedded mode expected');
    const client = { issuer: config.idp.issuer, clientId: config.idp.clientId, redirectUri: config.publicUrl };
    for (const [username, password] of [
      ['bob\u0000@example.com', 'x'],
      ['bob@example.com', 'pass\ud800'],
    ] as const) {
      const browser = new TestBrowser(injectTransport(m.t.app));
      const interaction = location(
        await browser.get(authorizeUrl(client, { scope: `openid ${config.idp.scope}`, challenge: pkce().challenge })),
        config.publicUrl,
      );
      const page = await browser.get(interaction);
      const res = await browser.request('POST', new URL(formAction(page.body)!, interaction), {
        body: JSON.stringify({ username, password }),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
      expect(res.body).toContain('characters that cannot be typed');
    }
    const big = new TestBrowser(injectTransport(m.t.app));
    const interaction = location(
      await big.get(authorizeUrl(client, { scope: `openid ${config.idp.scope}`, challenge: pkce().challenge })),
      config.publicUrl,
    );
    const page = await big.get(interaction);
    const res = await big.post(new URL(formAction(page.body)!, interaction), { username: 'x'.repeat(20_000), password: 'y' });
    expect(res.status).toBe(413);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
  });

  it('answers an authorization request with a NUL without a 500', async () => {
    const res = await m.t.app.inject({ url: '/idp/auth?client_id=%00&response_type=code' });
    expect(res.statusCode).toBeLessThan(500);
  });
});
