import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiInfoSchema, clientInfoSchema } from '@mfa-portal/shared';
import { buildTestApp, type TestApp } from '../../../test/app.js';

describe('GET /settings/*', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('AADClientInfo names the embedded provider at /idp as text the shell parses', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/settings/AADClientInfo' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const info = clientInfoSchema.parse(JSON.parse(res.body));
    expect(info).toEqual({
      clientId: 'mfa-portal-spa',
      authority: 'https://localhost:8443/idp',
      knownAuthorities: ['localhost:8443'],
      protocolMode: 'OIDC',
      redirectUri: 'https://localhost:8443/',
      postLogoutRedirectUri: 'https://localhost:8443/loggedout',
      silentRedirectUri: 'https://localhost:8443/auth-bridge.html',
      cacheLocation: 'sessionStorage',
    });
  });

  it('APIInfo gives the API scope, base address and redirect whitelist', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/settings/APIInfo' });
    expect(res.statusCode).toBe(200);
    const info = apiInfoSchema.parse(JSON.parse(res.body));
    expect(info.scope).toBe('api://mfa-portal/access_as_user');
    expect(info.baseUrl).toBe('https://localhost:8443/');
    expect(info.redirectWhitelist).toEqual(['https://localhost', 'https://localhost:8443']);
    expect(info.restrictedRoles).toEqual(['Solution Administrator', 'Helpdesk Administrator']);
  });

  it('sends the security headers on every answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/settings/APIInfo' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('denies the browser features the portal never uses, and keeps passkeys for itself (Permissions-Policy)', async () => {
    for (const url of ['/settings/APIInfo', '/api/me/devices', '/no-such-page', '/idp/.well-known/openid-configuration']) {
      const res = await t.app.inject({ method: 'GET', url });
      const policy = String(res.headers['permissions-policy']);
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'bluetooth', 'hid'])
        expect(policy, url).toContain(`${feature}=()`);
      expect(policy, url).toContain('publickey-credentials-get=(self)');
      expect(policy, url).toContain('publickey-credentials-create=(self)');
      expect(res.headers['strict-transport-security'], url).toMatch(/max-age=31536000/);
      expect(String(res.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
    }
  });
});

describe('GET /settings/* in Entra ID mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      IDP_MODE: 'entra',
      ENTRA_TENANT_ID: '11111111-2222-3333-4444-555555555555',
      ENTRA_CLIENT_ID: '66666666-7777-8888-9999-000000000000',
      ENTRA_API_AUDIENCE: 'api://mfa-portal-api',
      ENTRA_API_SCOPE: 'api://mfa-portal-api/access_as_user',
      PUBLIC_URL: 'https://mfa.example.org/portal/',
    });
  });
  afterAll(() => t.close());

  it('points MSAL at the tenant, with the portal base path in every address', async () => {
    const info = clientInfoSchema.parse(JSON.parse((await t.app.inject({ url: '/portal/settings/AADClientInfo' })).body));
    expect(info).toMatchObject({
      clientId: '66666666-7777-8888-9999-000000000000',
      authority: 'https://login.microsoftonline.com/11111111-2222-3333-4444-555555555555',
      knownAuthorities: [],
      protocolMode: 'AAD',
      redirectUri: 'https://mfa.example.org/portal/',
      postLogoutRedirectUri: 'https://mfa.example.org/portal/loggedout',
    });
    const api = apiInfoSchema.parse(JSON.parse((await t.app.inject({ url: '/portal/settings/APIInfo' })).body));
    expect(api.scope).toBe('api://mfa-portal-api/access_as_user');
  });

  it('allows the tenant authority in connect-src and frame-src, and mounts no /idp', async () => {
    const res = await t.app.inject({ url: '/portal/settings/APIInfo' });
    expect(String(res.headers['content-security-policy'])).toContain("connect-src 'self' https://login.microsoftonline.com");
    const idp = await t.app.inject({ url: '/portal/idp/.well-known/openid-configuration' });
    expect(idp.statusCode).toBe(404);
  });
});
