/**
 * Where the app and its API live. The server writes `<base>authenticator/` into the page's
 * `<base href>`, so the portal's base path is that address without the app's folder.
 */
const APP_FOLDER = 'authenticator/';

/** The app's own folder, always ending in '/': '/authenticator/' or '/portal/authenticator/'. */
export function appPathFrom(baseURI: string = document.baseURI): string {
  const { pathname } = new URL(baseURI);
  const dir = pathname.slice(0, pathname.lastIndexOf('/') + 1);
  return dir.endsWith(`/${APP_FOLDER}`) ? dir : `${dir}${APP_FOLDER}`;
}

/** The portal's base path: '/' or '/portal/'. */
export function portalBaseFrom(baseURI: string = document.baseURI): string {
  return appPathFrom(baseURI).slice(0, -APP_FOLDER.length);
}

/** The API's address for `route` ('info', 'requests/…'): '<base>authenticator/api/<route>'. */
export function apiPath(route: string, baseURI?: string): string {
  return `${appPathFrom(baseURI)}api/${route}`;
}
