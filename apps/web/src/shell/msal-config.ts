import { LogLevel, ProtocolMode, type Configuration } from '@azure/msal-browser';
import type { ClientInfo } from '@mfa-portal/shared';

/** Thrown before MSAL is created when the sign-in settings cannot be used. */
export class SignInConfigurationError extends Error {
  override readonly name = 'SignInConfigurationError';
  constructor(
    readonly code: 'authority_invalid' | 'authority_not_https',
    message: string,
  ) {
    super(message);
  }
}

/** The authority must be an absolute https address (MSAL refuses anything else later, less clearly). */
export function validateAuthority(authority: string): URL {
  let url: URL;
  try {
    url = new URL(authority);
  } catch {
    throw new SignInConfigurationError('authority_invalid', `The sign-in authority "${authority}" is not a valid address.`);
  }
  if (url.protocol !== 'https:') {
    throw new SignInConfigurationError('authority_not_https', `The sign-in authority "${authority}" must use https.`);
  }
  return url;
}

/**
 * Scopes MSAL adds to every OIDC request. MSAL's default adds offline_access too, which would be sent
 * again on every refresh; the login request asks for offline_access explicitly (LOGIN_SCOPES), so a
 * refresh token is still issued, and refreshes ask only for the API scope plus these.
 */
export const OIDC_DEFAULT_SCOPES = ['openid', 'profile'];

export function buildMsalConfig(clientInfo: ClientInfo): Configuration {
  validateAuthority(clientInfo.authority);
  const oidc = clientInfo.protocolMode === 'OIDC';
  return {
    auth: {
      clientId: clientInfo.clientId,
      authority: clientInfo.authority,
      knownAuthorities: clientInfo.knownAuthorities,
      redirectUri: clientInfo.redirectUri,
      postLogoutRedirectUri: clientInfo.postLogoutRedirectUri,
      ...(oidc ? { OIDCOptions: { defaultScopes: [...OIDC_DEFAULT_SCOPES] } } : {}),
    },
    cache: { cacheLocation: clientInfo.cacheLocation },
    system: {
      // In MSAL v5 the protocol mode is a system option.
      protocolMode: oidc ? ProtocolMode.OIDC : ProtocolMode.AAD,
      loggerOptions: {
        logLevel: LogLevel.Warning,
        piiLoggingEnabled: false,
        loggerCallback: (level, message, containsPii) => {
          if (containsPii) return;
          if (level === LogLevel.Error) console.error(message);
          else if (level === LogLevel.Warning) console.warn(message);
        },
      },
    },
  };
}
