import { describe, expect, it, vi } from 'vitest';
import { CLAIMS_HEADER } from '@mfa-portal/shared';
import { base64UrlEncode, claimsFromAccount, fetchUserInfo } from './user-info';
import { account, profile } from '../test/fixtures';

function decodeBase64Url(value: string): string {
  const b64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

describe('GET /account/getuserinfo', () => {
  it('sends the query parameters and headers of the spec', async () => {
    const fetchStub = vi.fn(
      async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(JSON.stringify(profile()), { status: 200 }),
    );
    const result = await fetchUserInfo({
      accessToken: 'at-123',
      claims: claimsFromAccount(account),
      basePath: '/portal/',
      fetchImpl: fetchStub,
    });
    expect(result).toEqual({ kind: 'ok', data: profile() });

    const [url, init] = fetchStub.mock.calls[0]!;
    const u = new URL(String(url), 'https://localhost:8443');
    expect(u.pathname).toBe('/portal/account/getuserinfo');
    expect(Object.fromEntries(u.searchParams)).toEqual({
      userid: 'bob@example.com',
      email: 'bob@example.com',
      firstname: 'Bob',
      lastname: 'Builder',
    });
    const headers = new Headers(init?.headers);
    expect(headers.get('authorization')).toBe('Bearer at-123');
    expect(headers.get('content-type')).toBe('application/json');
    const claimsHeader = headers.get(CLAIMS_HEADER)!;
    expect(claimsHeader).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(decodeBase64Url(claimsHeader))).toEqual({
      upn: 'bob@example.com',
      email: 'bob@example.com',
      given_name: 'Bob',
      family_name: 'Builder',
    });
  });

  it('reads only the four claims, as strings', () => {
    expect(claimsFromAccount({ username: 'x', idTokenClaims: { upn: 'a@b', roles: ['r'], given_name: 42, email: 'a@b' } })).toEqual({
      upn: 'a@b',
      email: 'a@b',
    });
  });

  it('encodes non-ASCII names as UTF-8 base64url', () => {
    const encoded = base64UrlEncode(JSON.stringify({ given_name: 'Zoë', family_name: 'Ñúñez' }));
    expect(encoded).not.toMatch(/[+/=]/);
    expect(JSON.parse(decodeBase64Url(encoded))).toEqual({ given_name: 'Zoë', family_name: 'Ñúñez' });
  });

  it('falls back to the account username when the ID token has no upn', async () => {
    const fetchStub = vi.fn(async (_url: RequestInfo | URL) => new Response('{}', { status: 500 }));
    await fetchUserInfo({ accessToken: 't', claims: {}, fallbackUserId: 'bob@example.com', basePath: '/', fetchImpl: fetchStub });
    expect(new URL(String(fetchStub.mock.calls[0]![0]), 'https://x').searchParams.get('userid')).toBe('bob@example.com');
  });

  it('maps 401 to unauthorized', async () => {
    const fetchStub = vi.fn(async () => new Response('{"code":"auth.token_invalid","message":"no"}', { status: 401 }));
    await expect(fetchUserInfo({ accessToken: 't', claims: {}, basePath: '/', fetchImpl: fetchStub })).resolves.toEqual({
      kind: 'unauthorized',
    });
  });

  it('maps any other non-OK answer to failed with the response text as the error', async () => {
    const body = '{"code":"server.internal","message":"Internal error"}';
    const fetchStub = vi.fn(async () => new Response(body, { status: 500 }));
    await expect(fetchUserInfo({ accessToken: 't', claims: {}, basePath: '/', fetchImpl: fetchStub })).resolves.toEqual({
      kind: 'failed',
      error: body,
    });
    const forbidden = vi.fn(async () => new Response('mismatch', { status: 403 }));
    await expect(fetchUserInfo({ accessToken: 't', claims: {}, basePath: '/', fetchImpl: forbidden })).resolves.toEqual({
      kind: 'failed',
      error: 'mismatch',
    });
  });

  it('maps a 200 with an unexpected shape to failed', async () => {
    const fetchStub = vi.fn(async () => new Response('{"user":{}}', { status: 200 }));
    const result = await fetchUserInfo({ accessToken: 't', claims: {}, basePath: '/', fetchImpl: fetchStub });
    expect(result.kind).toBe('failed');
  });

  it('reports an aborted request as aborted, not as a failure', async () => {
    const controller = new AbortController();
    const fetchStub = vi.fn(
      (_url: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
        }),
    );
    const pending = fetchUserInfo({ accessToken: 't', claims: {}, basePath: '/', signal: controller.signal, fetchImpl: fetchStub });
    controller.abort();
    await expect(pending).resolves.toEqual({ kind: 'aborted' });
  });

  it('maps a network failure (not aborted) to failed', async () => {
    const fetchStub = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(fetchUserInfo({ accessToken: 't', claims: {}, basePath: '/', fetchImpl: fetchStub })).resolves.toEqual({
      kind: 'failed',
      error: 'Failed to fetch',
    });
  });
});
