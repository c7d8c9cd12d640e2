import type { ApiInfo, ClientInfo } from '@mfa-portal/shared';
import type { AppConfig } from '../../config.js';

/** What the SPA needs to run MSAL: the embedded /idp, or the organisation's Entra ID tenant. */
export function clientInfoFor(config: AppConfig): ClientInfo {
  const common = {
    redirectUri: config.publicUrl,
    postLogoutRedirectUri: `${config.publicUrl}loggedout`,
    silentRedirectUri: `${config.publicUrl}auth-bridge.html`,
    cacheLocation: 'sessionStorage' as const,
  };
  if (config.idp.mode === 'embedded') {
    return {
      clientId: config.idp.clientId,
      authority: config.idp.issuer,
      knownAuthorities: [new URL(config.idp.issuer).host],
      protocolMode: 'OIDC',
      ...common,
    };
  }
  return {
    clientId: config.idp.clientId,
    authority: `${config.idp.authorityHost}/${config.idp.tenantId}`,
    knownAuthorities: [],
    protocolMode: 'AAD',
    ...common,
  };
}

export function apiInfoFor(config: AppConfig): ApiInfo {
  return {
    scope: config.idp.scope,
    baseUrl: config.publicUrl,
    redirectWhitelist: config.redirectWhitelist,
    links: config.links,
  };
}
