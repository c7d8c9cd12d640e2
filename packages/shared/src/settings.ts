import { z } from 'zod';

/**
 * Body of GET /settings/AADClientInfo (sent as text, parsed by the SPA).
 * Embedded mode points at the portal's own /idp; production at an Entra ID tenant.
 */
export const clientInfoSchema = z.object({
  clientId: z.string().min(1),
  authority: z.url(),
  knownAuthorities: z.array(z.string().min(1)),
  protocolMode: z.enum(['AAD', 'OIDC']),
  redirectUri: z.url(),
  postLogoutRedirectUri: z.url(),
  /** Page that relays silent (iframe) responses to the main frame (MSAL redirect bridge). */
  silentRedirectUri: z.url(),
  /** 'sessionStorage' | 'localStorage' | 'memoryStorage' (memory cannot do redirect login). */
  cacheLocation: z.enum(['sessionStorage', 'localStorage', 'memoryStorage']),
});
export type ClientInfo = z.infer<typeof clientInfoSchema>;

/** Body of GET /settings/APIInfo. */
export const apiInfoSchema = z.object({
  /** The API scope requested for the access token, e.g. api://mfa-portal/access_as_user. */
  scope: z.string().min(1),
  /** Base address of the portal API (same origin). */
  baseUrl: z.url(),
  /** Addresses that may be remembered and returned to after sign-in (prefix match). */
  redirectWhitelist: z.array(z.string().min(1)),
  /** The configured restricted roles (RESTRICTED_ROLES): their holders act as the service desk. */
  restrictedRoles: z.array(z.string().min(1)),
  /** Links shown on the help page. */
  links: z.object({ setupInstructions: z.url(), community: z.url() }),
});
export type ApiInfo = z.infer<typeof apiInfoSchema>;
