/** Screens of the main application, under the shell's base path. */
export const MAIN_ROUTES = {
  overview: '/',
  addDevice: '/devices/add',
  addAuthenticator: '/devices/add/authenticator',
  addToken: '/devices/add/token',
  addPhone: '/devices/add/phone',
  bypassCodes: '/bypass-codes',
  activity: '/activity',
  help: '/help',
} as const;
