import type { ApiInfo, ClientInfo } from '@mfa-portal/shared';
import type { AppConfig } from '../../config.js';

/** Entra ID's sign-in hosts (public and national clouds), which MSAL trusts without being told. */
const MICROSOFT_AUTHORITY_HOSTS: ReadonlySet<string> = new Set([
  'login.microsoftonline.com',
  'login.windows.net',
  'login.microsoft.com',
  'sts.windows.net',
  'login.microsoftonline.us',
  'login.usgovcloudapi.net',
  'login-us.microsoftonline.com',
  'login.chinacloudapi.cn',
  'login.partner.microsoftonline.cn',
]);

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
  const host = new URL(config.idp.authorityHost).host;
  return {
    clientId: config.idp.clientId,
    authority: `${config.idp.authorityHost}/${config.idp.tenantId}`,
    // Microsoft's own clouds: MSAL knows them (no instance discovery on the network), and nothing
    // changes for them. Any other authority host (a test stand-in, a proxy) must be named as trusted,
    // or MSAL would ask login.microsoftonline.com to discover it and refuse it.
    knownAuthorities: MICROSOFT_AUTHORITY_HOSTS.has(host) ? [] : [host],
    protocolMode: 'AAD',
    ...common,
  };
}

export function apiInfoFor(config: AppConfig): ApiInfo {
  return {
    scope: config.idp.scope,
    baseUrl: config.publicUrl,
    redirectWhitelist: config.redirectWhitelist,
    restrictedRoles: [...config.roles.restricted],
    links: config.links,
  };
}
