/**
 * The portal runs under a base path taken from the page's `<base href>` (the server writes the
 * configured path there). Every call and every route is resolved against it.
 */

/** Path of the base address, always ending in '/': '/' or '/portal/'. */
export function basePathFrom(baseURI: string = document.baseURI): string {
  const { pathname } = new URL(baseURI);
  return pathname.endsWith('/') ? pathname : pathname.slice(0, pathname.lastIndexOf('/') + 1);
}

/** react-router basename: the base path without its trailing slash ('/' stays '/'). */
export function routerBasename(basePath: string = basePathFrom()): string {
  return basePath.replace(/\/+$/, '') || '/';
}

/** A server path such as '/settings/APIInfo' under the base path: '/portal/settings/APIInfo'. */
export function underBase(serverPath: string, basePath: string = basePathFrom()): string {
  return basePath + serverPath.replace(/^\/+/, '');
}
