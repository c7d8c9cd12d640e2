import type { AccountInfo } from '@azure/msal-browser';
import type { ApiInfo, ClientInfo, Device, UserInfoResponse } from '@mfa-portal/shared';
import type { Settings } from '../shell/settings';

export const clientInfo: ClientInfo = {
  clientId: 'mfa-portal-spa',
  authority: 'https://localhost:8443/idp',
  knownAuthorities: ['localhost:8443'],
  protocolMode: 'OIDC',
  redirectUri: 'https://localhost:8443/',
  postLogoutRedirectUri: 'https://localhost:8443/loggedout',
  silentRedirectUri: 'https://localhost:8443/auth-bridge.html',
  cacheLocation: 'sessionStorage',
};

export const apiInfo: ApiInfo = {
  scope: 'api://mfa-portal/access_as_user',
  baseUrl: 'https://localhost:8443/',
  // jsdom's address is http://localhost:3000/, so this entry matches it.
  redirectWhitelist: ['http://localhost', 'https://portal.example.com'],
  restrictedRoles: ['Solution Administrator', 'Helpdesk Administrator'],
  links: { setupInstructions: 'https://wiki.example.com/mfa', community: 'https://community.example.com/mfa' },
};

export const settings: Settings = { clientInfo, apiInfo };

export const account: AccountInfo = {
  homeAccountId: 'bob-oid.tenant',
  localAccountId: 'bob-oid',
  environment: 'localhost:8443',
  tenantId: 'tenant',
  username: 'bob@example.com',
  name: 'Bob Builder',
  idToken: 'header.payload.signature',
  idTokenClaims: { upn: 'bob@example.com', email: 'bob@example.com', given_name: 'Bob', family_name: 'Builder', roles: [] },
};

export const phone: Device = {
  id: 'd1',
  kind: 'phone',
  name: "Bob's phone",
  capabilities: ['push', 'passcode'],
  phoneNumber: '+1 ••• ••• 0142',
  platform: 'Android',
  serial: null,
  tokenType: null,
  createdAt: '2025-03-12T09:30:00.000Z',
  lastUsedAt: '2025-05-01T14:05:00.000Z',
};

export const token: Device = {
  id: 'd2',
  kind: 'hardware_token',
  name: 'Key ring token',
  capabilities: ['passcode'],
  phoneNumber: null,
  platform: null,
  serial: '123456',
  tokenType: 'Duo D100',
  createdAt: '2025-01-02T08:00:00.000Z',
  lastUsedAt: null,
};

export function profile(overrides: Partial<UserInfoResponse['mfa']> = {}): UserInfoResponse {
  return {
    user: {
      upn: 'bob@example.com',
      email: 'bob@example.com',
      firstName: 'Bob',
      lastName: 'Builder',
      displayName: 'Bob Builder',
      roles: [],
      portalRole: 'staff',
      isProtected: false,
    },
    mfa: {
      provider: 'builtin',
      status: 'active',
      statusReason: null,
      devices: [phone, token],
      bypassCodes: { active: 0, nextExpiresAt: null },
      ...overrides,
    },
  };
}
