import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { clientInfoFor } from './settings.service.js';

const entra = (authorityHost?: string) =>
  loadConfig({
    IDP_MODE: 'entra',
    ENTRA_TENANT_ID: '11111111-2222-3333-4444-555555555555',
    ENTRA_CLIENT_ID: '66666666-7777-8888-9999-000000000000',
    ENTRA_API_AUDIENCE: 'api://mfa-portal-api',
    ENTRA_API_SCOPE: 'api://mfa-portal-api/access_as_user',
    ...(authorityHost ? { ENTRA_AUTHORITY_HOST: authorityHost } : {}),
  });

describe('clientInfoFor (Entra ID)', () => {
  it("names no known authority for Microsoft's clouds (MSAL knows them; production unchanged)", () => {
    expect(clientInfoFor(entra()).knownAuthorities).toEqual([]);
    expect(clientInfoFor(entra('https://login.microsoftonline.us')).knownAuthorities).toEqual([]);
  });

  it('trusts any other authority host explicitly, so MSAL makes no instance discovery call for it', () => {
    const info = clientInfoFor(entra('https://localhost:9802/'));
    expect(info).toMatchObject({
      authority: 'https://localhost:9802/11111111-2222-3333-4444-555555555555',
      knownAuthorities: ['localhost:9802'],
      protocolMode: 'AAD',
    });
  });
});
