import { describe, expect, it } from 'vitest';
import { resolveTenantId } from './entra-tenant.js';

const GUID = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const answering = (status: number, body: unknown): typeof fetch =>
  (async () => new Response(JSON.stringify(body), { status })) as typeof fetch;

describe('resolveTenantId', () => {
  it('uses a tenant GUID as it is, without a request', async () => {
    const never = (() => Promise.reject(new Error('no request expected'))) as typeof fetch;
    expect(await resolveTenantId('https://login.microsoftonline.com', GUID.toUpperCase(), never)).toBe(GUID);
  });

  it("resolves a domain to the GUID in the discovery document's issuer", async () => {
    let asked = '';
    const fetchImpl = (async (url: string) => {
      asked = url;
      return new Response(JSON.stringify({ issuer: `https://login.microsoftonline.com/${GUID}/v2.0` }));
    }) as unknown as typeof fetch;
    expect(await resolveTenantId('https://login.microsoftonline.com', 'contoso.onmicrosoft.com', fetchImpl)).toBe(GUID);
    expect(asked).toBe('https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration');
  });

  it('fails start-up clearly for an unknown domain or a document without a tenant ID', async () => {
    await expect(
      resolveTenantId('https://login.microsoftonline.com', 'nope.example', answering(400, { error: 'invalid_tenant' })),
    ).rejects.toThrow(/could not be resolved .*\(answered 400\).*set ENTRA_TENANT_ID to the tenant ID \(a GUID\)/);
    await expect(
      resolveTenantId(
        'https://login.microsoftonline.com',
        'contoso.com',
        answering(200, { issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0' }),
      ),
    ).rejects.toThrow(/names no tenant ID/);
  });
});
