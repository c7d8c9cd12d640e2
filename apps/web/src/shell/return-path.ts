import { STORAGE_KEY_FIRST_AUTH, STORAGE_KEY_REDIRECT } from '@mfa-portal/shared';

type Place = Pick<Location, 'href' | 'pathname' | 'search' | 'hash'>;
type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * Does the current address start with one of the configured redirect-whitelist entries (address
 * prefixes, e.g. `https://localhost` and the portal's https origin)? An entry matches only at the start
 * of the address and only up to a boundary: `https://localhost` admits `https://localhost:8443/x`, but
 * not `https://localhost.evil.example/` nor `https://evil.example/?next=https://localhost`.
 */
export function isWhitelisted(href: string, whitelist: readonly string[]): boolean {
  return whitelist.some((entry) => {
    if (entry.length === 0 || !href.startsWith(entry)) return false;
    if (entry.endsWith('/')) return true;
    const next = href.charAt(entry.length);
    return next === '' || next === ':' || next === '/' || next === '?' || next === '#';
  });
}

/** The current place relative to the base path, with its query and fragment: '/some/path?x=1#y'. */
export function pathRelativeToBase(place: Pick<Place, 'pathname' | 'search' | 'hash'>, basePath: string): string {
  const rest = place.pathname.startsWith(basePath) ? place.pathname.slice(basePath.length) : place.pathname.replace(/^\/+/, '');
  return `/${rest}${place.search}${place.hash}`;
}

/** An in-app path we are willing to navigate to: absolute within the app, never protocol-relative. */
function isSafeAppPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

/**
 * Before a redirect login: when the address is whitelisted, remember that this is the first sign-in
 * and where to come back to. Returns whether anything was stored.
 */
export function rememberReturnPath(place: Place, whitelist: readonly string[], basePath: string, storage: KeyValueStorage): boolean {
  if (!isWhitelisted(place.href, whitelist)) return false;
  storage.setItem(STORAGE_KEY_FIRST_AUTH, 'true');
  storage.setItem(STORAGE_KEY_REDIRECT, pathRelativeToBase(place, basePath));
  return true;
}

/**
 * After sign-in: when a first sign-in was remembered, the path to return to (relative to the base).
 * Both keys are cleared whenever firstAuth was set, so a path is used at most once.
 */
export function consumeReturnPath(storage: KeyValueStorage): string | null {
  if (storage.getItem(STORAGE_KEY_FIRST_AUTH) !== 'true') return null;
  const path = storage.getItem(STORAGE_KEY_REDIRECT);
  storage.removeItem(STORAGE_KEY_FIRST_AUTH);
  storage.removeItem(STORAGE_KEY_REDIRECT);
  return path !== null && isSafeAppPath(path) ? path : null;
}
