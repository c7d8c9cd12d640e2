import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { configProblems } from '../test/support/config-problems.js';

describe('loadConfig', () => {
  it('defaults to the embedded mode on https://localhost:8443/', () => {
    const c = loadConfig({});
    expect(c.publicUrl).toBe('https://localhost:8443/');
    expect(c.basePath).toBe('/');
    expect(c.port).toBe(8443);
    expect(c.idp).toMatchObject({
      mode: 'embedded',
      issuer: 'https://localhost:8443/idp',
      audience: 'api://mfa-portal',
      scope: 'api://mfa-portal/access_as_user',
      demoPassword: 'portal-demo',
    });
    expect(c.mfaProvider).toBe('builtin');
    // Spec §9: prefixes for https on localhost and on the portal's host, and nothing else.
    expect(c.redirectWhitelist).toEqual(['https://localhost', 'https://localhost:8443']);
    expect(c.redirectWhitelist).not.toContain('https://127.0.0.1');
  });

  it('whitelists https on localhost and the portal host only, or exactly REDIRECT_WHITELIST', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.org/mfa' }).redirectWhitelist).toEqual([
      'https://localhost',
      'https://portal.example.org',
    ]);
    expect(loadConfig({ REDIRECT_WHITELIST: 'https://portal.example.org/mfa/' }).redirectWhitelist).toEqual([
      'https://portal.example.org/mfa/',
    ]);
  });

  it('lets PORT override the port and the public address', () => {
    const c = loadConfig({ PORT: '9443' });
    expect(c.port).toBe(9443);
    expect(c.publicUrl).toBe('https://localhost:9443/');
  });

  it('derives the base path from PUBLIC_URL', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://portal.example.org/mfa' });
    expect(c.basePath).toBe('/mfa/');
    expect(c.publicUrl).toBe('https://portal.example.org/mfa/');
    expect(c.idp.mode === 'embedded' && c.idp.issuer).toBe('https://portal.example.org/mfa/idp');
  });

  it('names every bad variable with what was expected', () => {
    const list = configProblems({ PORT: 'abc', TLS: 'maybe', MFA_PROVIDER: 'okta', DATABASE_URL: 'mysql://x' });
    expect(list.find((p) => p.startsWith('PORT:'))).toMatch(/must be a number.*"abc"/);
    expect(list.find((p) => p.startsWith('TLS:'))).toMatch(/self-signed, files or off/);
    expect(list.find((p) => p.startsWith('MFA_PROVIDER:'))).toMatch(/builtin or duo/);
    expect(list.find((p) => p.startsWith('DATABASE_URL:'))).toMatch(/postgres:\/\//);
  });

  it('refuses an http PUBLIC_URL', () => {
    expect(configProblems({ PUBLIC_URL: 'http://portal.example.org/' })[0]).toMatch(/^PUBLIC_URL: must use https/);
  });

  it('refuses the embedded identity provider in production unless explicitly allowed', () => {
    expect(configProblems({ NODE_ENV: 'production' })[0]).toMatch(/^IDP_MODE: the embedded identity provider .* refused/);
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_EMBEDDED_IDP_IN_PRODUCTION: 'true' }).idp.mode).toBe('embedded');
  });

  it('requires the Entra ID settings in entra mode and builds the tenant authority', () => {
    expect(
      configProblems({ IDP_MODE: 'entra' })
        .map((p) => p.split(':')[0])
        .sort(),
    ).toEqual(['ENTRA_API_AUDIENCE', 'ENTRA_API_SCOPE', 'ENTRA_CLIENT_ID', 'ENTRA_TENANT_ID']);
    const c = loadConfig({
      IDP_MODE: 'entra',
      ENTRA_TENANT_ID: '11111111-2222-3333-4444-555555555555',
      ENTRA_CLIENT_ID: '66666666-7777-8888-9999-000000000000',
      ENTRA_API_AUDIENCE: 'api://mfa-portal-api',
      ENTRA_API_SCOPE: 'api://mfa-portal-api/access_as_user',
    });
    expect(c.idp).toMatchObject({
      mode: 'entra',
      authorityHost: 'https://login.microsoftonline.com',
      scope: 'api://mfa-portal-api/access_as_user',
    });
  });

  it('requires both files when TLS=files', () => {
    expect(
      configProblems({ TLS: 'files' })
        .map((p) => p.split(':')[0])
        .sort(),
    ).toEqual(['TLS_CERT_FILE', 'TLS_KEY_FILE']);
  });

  it('never echoes a password value', () => {
    expect(configProblems({ DEMO_PASSWORD: 'short' })[0]).toBe('DEMO_PASSWORD: must be at least 8 characters (got "***")');
  });

  it('reads role names and restricted roles from configuration', () => {
    const c = loadConfig({ ROLE_HELPDESK: 'MFA.Helpdesk', RESTRICTED_ROLES: 'MFA.Helpdesk, MFA.Admin' });
    expect(c.roles).toEqual({
      helpdesk: 'MFA.Helpdesk',
      solutionAdmin: 'Solution Administrator',
      restricted: ['MFA.Helpdesk', 'MFA.Admin'],
    });
    // Restricted roles follow the role names unless set.
    expect(loadConfig({ ROLE_SOLUTION_ADMIN: 'MFA.Admin' }).roles.restricted).toEqual(['MFA.Admin', 'Helpdesk Administrator']);
  });

  const entra = {
    IDP_MODE: 'entra',
    ENTRA_TENANT_ID: '11111111-2222-3333-4444-555555555555',
    ENTRA_CLIENT_ID: '66666666-7777-8888-9999-000000000000',
    ENTRA_API_AUDIENCE: 'api://mfa-portal-api',
    ENTRA_API_SCOPE: 'api://mfa-portal-api/access_as_user',
  };

  it("uses Entra's app role values (no spaces) by default in entra mode, the specification's names in embedded mode", () => {
    expect(loadConfig(entra).roles).toEqual({
      helpdesk: 'Helpdesk.Administrator',
      solutionAdmin: 'Solution.Administrator',
      restricted: ['Solution.Administrator', 'Helpdesk.Administrator'],
    });
    expect(loadConfig({}).roles).toEqual({
      helpdesk: 'Helpdesk Administrator',
      solutionAdmin: 'Solution Administrator',
      restricted: ['Solution Administrator', 'Helpdesk Administrator'],
    });
  });

  it('refuses role values Entra cannot issue (spaces) in entra mode', () => {
    const keys = configProblems({ ...entra, ROLE_HELPDESK: 'Helpdesk Administrator', RESTRICTED_ROLES: 'A B' }).map((p) => p.split(':')[0]);
    expect(keys.sort()).toEqual(['RESTRICTED_ROLES', 'ROLE_HELPDESK']);
  });
});
