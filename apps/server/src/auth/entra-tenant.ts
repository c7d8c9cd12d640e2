/**
 * Entra names a tenant by its GUID in every token's issuer (`…/{guid}/v2.0`, `https://sts.windows.net/{guid}/`),
 * even when the sign-in authority names it by a verified domain (`contoso.onmicrosoft.com`). A tenant
 * configured by domain is resolved once, at start-up, from the tenant's discovery document, whose
 * `issuer` carries the GUID; a GUID is used as it is.
 */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function resolveTenantId(authorityHost: string, tenant: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  if (GUID.test(tenant)) return tenant.toLowerCase();
  const url = `${authorityHost}/${encodeURIComponent(tenant)}/v2.0/.well-known/openid-configuration`;
  let issuer: unknown;
  try {
    const res = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`answered ${res.status}`);
    issuer = ((await res.json()) as { issuer?: unknown }).issuer;
  } catch (err) {
    throw new Error(
      `ENTRA_TENANT_ID "${tenant}" could not be resolved to the tenant's ID at ${url} (${err instanceof Error ? err.message : String(err)}); set ENTRA_TENANT_ID to the tenant ID (a GUID) instead`,
    );
  }
  const guid = typeof issuer === 'string' ? /\/([0-9a-f-]{36})\/v2\.0\/?$/i.exec(issuer)?.[1] : undefined;
  if (!guid || !GUID.test(guid))
    throw new Error(`the discovery document at ${url} names no tenant ID in its issuer; set ENTRA_TENANT_ID to the tenant ID (a GUID)`);
  return guid.toLowerCase();
}
