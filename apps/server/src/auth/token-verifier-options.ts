import type { JSONWebKeySet } from 'jose';
import type { AppConfig } from '../config.js';
import { resolveTenantId } from './entra-tenant.js';
import { localJwks, remoteJwks, scopeValueOf, type TokenVerifierOptions } from './token-verifier.js';

/**
 * Whose tokens the API accepts: the embedded identity provider's (its issuer and keys, known once it is
 * mounted), or the Entra ID tenant's (its issuers and published keys, once the tenant is resolved).
 */
export async function tokenVerifierOptions(
  config: AppConfig,
  idp: { issuer: string; publicJwks: JSONWebKeySet } | undefined,
): Promise<TokenVerifierOptions> {
  const requiredScope = scopeValueOf(config.idp.scope);
  if (config.idp.mode === 'embedded') {
    if (!idp) throw new Error('the embedded identity provider is mounted before its tokens can be verified');
    return { issuers: [idp.issuer], audience: config.idp.audience, jwks: localJwks(idp.publicJwks), requiredScope };
  }
  const { authorityHost, audience } = config.idp;
  const tenantId = await resolveTenantId(authorityHost, config.idp.tenantId);
  return {
    issuers: [`${authorityHost}/${tenantId}/v2.0`, `https://sts.windows.net/${tenantId}/`],
    // One audience, or several separated by commas (the App ID URI and the client id while moving
    // the API registration from v1 to v2 tokens).
    audience: audience
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
    jwks: remoteJwks(`${authorityHost}/${tenantId}/discovery/v2.0/keys`),
    requiredScope,
  };
}
