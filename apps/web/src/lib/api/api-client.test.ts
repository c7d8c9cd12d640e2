import { describe, expect, it, vi } from 'vitest';
import { PublicClientApplication, InteractionRequiredAuthError, type AuthenticationResult } from '@azure/msal-browser';
import { devicesResponseSchema } from '@mfa-portal/shared';
import { buildMsalConfig } from '../../shell/msal-config';
import { account, clientInfo } from '../../test/fixtures';
import { acquireApiToken, createApiClient } from './api-client';
import { ApiError } from './api-error';
import { shouldRetry } from './query-client';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function client(fetchImpl: typeof fetch, token = () => Promise.resolve('tok')) {
  return createApiClient({ getAccessToken: token, basePath: '/portal/', fetchImpl });
}

describe('API client', () => {
  it('asks for a token before every call and sends it as a bearer, with JSON in and out, under the base path', async () => {
    const fetchImpl = vi.fn(async () => json({ devices: [] }));
    let n = 0;
    const api = client(fetchImpl as unknown as typeof fetch, async () => `token-${++n}`);
    await api.request('/api/me/devices', { schema: devicesResponseSchema });
    await api.request('/api/me/devices/d1', { method: 'PATCH', body: { name: 'x' }, query: { a: 'b', skip: undefined } });
    const [url1, init1] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url1).toBe('/portal/api/me/devices');
    expect(new Headers(init1.headers).get('authorization')).toBe('Bearer token-1');
    expect(new Headers(init1.headers).get('content-type')).toBeNull();
    const [url2, init2] = fetchImpl.mock.calls[1] as unknown as [string, RequestInit];
    expect(url2).toBe('/portal/api/me/devices/d1?a=b');
    expect(init2.method).toBe('PATCH');
    expect(init2.body).toBe('{"name":"x"}');
    expect(new Headers(init2.headers).get('authorization')).toBe('Bearer token-2');
    expect(new Headers(init2.headers).get('content-type')).toBe('application/json');
  });

  it('turns an error body into an ApiError with its code, details and Retry-After', async () => {
    const api = client(async () =>
      json({ code: 'request.rate_limited', message: 'Too many', details: { field: 'code' } }, 429, { 'retry-after': '30' }),
    );
    const error = await api.request('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'request.rate_limited', details: { field: 'code', retryAfterSeconds: 30 } });
  });

  it('names failures without a readable body, network failures and answers that break the contract', async () => {
    await expect(client(async () => new Response('<html>', { status: 502 })).request('/x')).rejects.toMatchObject({
      status: 502,
      code: 'server.internal',
    });
    await expect(client(async () => new Response('nope', { status: 400 })).request('/x')).rejects.toMatchObject({
      code: 'client.unexpected_response',
    });
    await expect(
      client(async () => {
        throw new TypeError('Failed to fetch');
      }).request('/x'),
    ).rejects.toMatchObject({ status: 0, code: 'client.network' });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(client(async () => json({ devices: 'no' })).request('/x', { schema: devicesResponseSchema })).rejects.toMatchObject({
      code: 'client.unexpected_response',
    });
  });

  it('passes the AbortSignal on and lets an abort through as an abort', async () => {
    const controller = new AbortController();
    const fetchImpl = vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
        ),
    );
    const pending = client(fetchImpl as unknown as typeof fetch).request('/x', { signal: controller.signal });
    await vi.waitFor(() => expect(fetchImpl).toHaveBeenCalled());
    expect(fetchImpl.mock.calls[0]![1].signal).toBe(controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads a text answer (a CSV export) with the same token, base path and errors', async () => {
    const fetchImpl = vi.fn(async () => new Response('a,b\r\n1,2\r\n', { status: 200, headers: { 'content-type': 'text/csv' } }));
    const api = client(fetchImpl as unknown as typeof fetch);
    await expect(api.text('/api/admin/audit.csv', { query: { actor: 'x@example.com', to: undefined } })).resolves.toBe('a,b\r\n1,2\r\n');
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/portal/api/admin/audit.csv?actor=x%40example.com');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer tok');
    await expect(client(async () => json({ code: 'auth.forbidden', message: 'no' }, 403)).text('/x')).rejects.toMatchObject({
      status: 403,
      code: 'auth.forbidden',
    });
  });

  it('returns nothing for 204', async () => {
    await expect(client(async () => new Response(null, { status: 204 })).request('/x', { method: 'DELETE' })).resolves.toBeUndefined();
  });
});

describe('acquireApiToken', () => {
  async function msal() {
    const instance = new PublicClientApplication(buildMsalConfig(clientInfo));
    await instance.initialize();
    vi.spyOn(instance, 'getActiveAccount').mockReturnValue(account);
    return instance;
  }

  it('asks MSAL silently for the API scope with the active account (MSAL renews an expired token)', async () => {
    const instance = await msal();
    const silent = vi.spyOn(instance, 'acquireTokenSilent').mockResolvedValue({ accessToken: 'fresh' } as AuthenticationResult);
    await expect(acquireApiToken(instance, 'api://scope', 'https://x/bridge')).resolves.toBe('fresh');
    expect(silent).toHaveBeenCalledWith({ scopes: ['api://scope'], account, redirectUri: 'https://x/bridge' });
  });

  it('asks the user to sign in again when MSAL needs an interaction', async () => {
    const instance = await msal();
    vi.spyOn(instance, 'acquireTokenSilent').mockRejectedValue(new InteractionRequiredAuthError('login_required', 'x'));
    await expect(acquireApiToken(instance, 'api://scope')).rejects.toMatchObject({ code: 'client.sign_in_required', status: 401 });
  });
});

describe('retries of reads', () => {
  it('retries network failures and 5xx twice, never a 4xx', () => {
    expect(shouldRetry(0, new ApiError(0, 'client.network', ''))).toBe(true);
    expect(shouldRetry(1, new ApiError(503, 'mfa.provider_unavailable', ''))).toBe(true);
    expect(shouldRetry(2, new ApiError(503, 'mfa.provider_unavailable', ''))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, 'device.not_found', ''))).toBe(false);
    expect(shouldRetry(0, new Error('x'))).toBe(false);
  });
});
