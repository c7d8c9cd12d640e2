/**
 * Screens of the main application, under the shell's base path. The sign-in shell's own pages (errors,
 * signed out) are SHELL_ROUTES in shell/shell-routes.ts.
 */
export const MAIN_ROUTES = {
  overview: '/',
  addDevice: '/devices/add',
  addAuthenticator: '/devices/add/authenticator',
  addToken: '/devices/add/token',
  addPhone: '/devices/add/phone',
  /** A phone with the portal's own authenticator app (push and passcodes). */
  addPortalAuthenticator: '/devices/add/portal-authenticator',
  addPasskey: '/devices/add/passkey',
  /** The self-service lost-device wizard (staff who can still sign in). */
  lostDevice: '/devices/lost',
  bypassCodes: '/bypass-codes',
  activity: '/activity',
  help: '/help',
  /** The administration area (Helpdesk and Solution Administrators); its screens are ADMIN_ROUTES. */
  admin: '/admin',
} as const;

/**
 * Screens of the administration area (all under MAIN_ROUTES.admin). A user's page ends with a slash:
 * an address ending in ".com" would look like a file to the server, which answers missing files 404
 * instead of the application.
 */
export const ADMIN_ROUTES = {
  users: '/admin/users',
  user: (upn: string) => `/admin/users/${encodeURIComponent(upn)}/`,
  lostDevice: (upn: string) => `/admin/users/${encodeURIComponent(upn)}/lost-device`,
  tokens: '/admin/tokens',
  audit: '/admin/audit',
  provisioning: '/admin/provisioning',
  passkeys: '/admin/passkeys',
  factorPolicy: '/admin/factor-policy',
  reports: '/admin/reports',
  units: '/admin/units',
  campaigns: '/admin/campaigns',
} as const;

/** Where an "add a device" page goes once the device is added: back to the page that sent the user there, or the overview. */
export function returnPathOf(state: unknown): string {
  const to = (state as { returnTo?: unknown } | null)?.returnTo;
  return to === MAIN_ROUTES.lostDevice ? to : MAIN_ROUTES.overview;
}
