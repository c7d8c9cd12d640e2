import { importJWK, SignJWT } from 'jose';
import { ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import { loadIdpSecrets } from '../../src/idp/secrets.js';
import type { MeTestApp } from '../me-api.js';

/** A Solution Administrator's access token after a second factor (administration asks for one). */
export async function adminToken(m: MeTestApp, upn = 'admin@example.com'): Promise<string> {
  const jwk = (await loadIdpSecrets(m.db)).signingKeys[0]!;
  const idp = m.t.config.idp;
  if (idp.mode !== 'embedded') throw new Error('the WebAuthn policy tests run in the embedded mode');
  return new SignJWT({ upn, preferred_username: upn, email: upn, roles: [ROLE_SOLUTION_ADMIN], amr: ['pwd', 'mfa'], scp: 'access_as_user' })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'at+jwt' })
    .setIssuer(idp.issuer)
    .setAudience(idp.audience)
    .setSubject(`sub-${upn}`)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(await importJWK(jwk, 'RS256'));
}

/** GET or PUT /api/admin/webauthn/policy as a Solution Administrator. */
export async function policyAsAdmin(m: MeTestApp, method: 'GET' | 'PUT', payload?: unknown) {
  return m.t.app.inject({
    method,
    url: '/api/admin/webauthn/policy',
    headers: {
      authorization: `Bearer ${await adminToken(m)}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}
