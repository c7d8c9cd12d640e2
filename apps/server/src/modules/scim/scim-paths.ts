/**
 * SCIM clients do not all spell the endpoints as RFC 7644 does: some send `/users`, some add a
 * trailing slash (`/Users/?filter=…`). Both are read as the endpoint they mean, before routing, so a
 * lenient client reaches the same handlers (and the same checks) as a strict one. Resource ids and the
 * query are left exactly as sent.
 */

/** The endpoints of RFC 7644, section 3.2, as the routes spell them. */
const ENDPOINTS = ['Users', 'Groups', 'ServiceProviderConfig', 'ResourceTypes', 'Schemas'] as const;
const CANONICAL = new Map<string, string>(ENDPOINTS.map((e) => [e.toLowerCase(), e]));

/**
 * The URL with its SCIM endpoint in canonical letter case and without a trailing slash, when it is
 * under `base` (e.g. `/scim/v2`, compared without regard to case); any other URL unchanged.
 */
export function canonicalScimUrl(url: string, base: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  const lower = path.toLowerCase();
  const baseLower = base.toLowerCase();
  if (lower !== baseLower && !lower.startsWith(`${baseLower}/`)) return url;
  const segments = path.slice(base.length).split('/');
  const endpoint = CANONICAL.get(segments[1]?.toLowerCase() ?? '');
  if (endpoint) segments[1] = endpoint;
  let rest = segments.join('/');
  if (rest.length > 1 && rest.endsWith('/')) rest = rest.slice(0, -1);
  return `${base}${rest}${query}`;
}
