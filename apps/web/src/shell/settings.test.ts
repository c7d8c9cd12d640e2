import { describe, expect, it, vi } from 'vitest';
import { apiInfoSchema, clientInfoSchema } from '@mfa-portal/shared';
import { loadSetting, loadSettings } from './settings';
import { apiInfo, clientInfo } from '../test/fixtures';

function textResponse(body: string, status = 200) {
  return new Response(body, { status, headers: { 'content-type': 'text/plain' } });
}

describe('settings loader', () => {
  it('reads the body as text and parses it with the shared schema', async () => {
    const fetchStub = vi.fn(async () => textResponse(JSON.stringify(clientInfo)));
    await expect(loadSetting('/settings/AADClientInfo', clientInfoSchema, fetchStub)).resolves.toEqual(clientInfo);
  });

  it('yields null on a non-OK answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchStub = vi.fn(async () => textResponse('{"code":"server.internal"}', 500));
    await expect(loadSetting('/settings/APIInfo', apiInfoSchema, fetchStub)).resolves.toBeNull();
  });

  it('yields null when the body is not JSON', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchStub = vi.fn(async () => textResponse('<html>proxy error</html>'));
    await expect(loadSetting('/settings/APIInfo', apiInfoSchema, fetchStub)).resolves.toBeNull();
  });

  it('yields null when the JSON does not have the expected shape', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchStub = vi.fn(async () => textResponse(JSON.stringify({ ...clientInfo, protocolMode: 'SAML' })));
    await expect(loadSetting('/settings/AADClientInfo', clientInfoSchema, fetchStub)).resolves.toBeNull();
  });

  it('yields null when the network fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchStub = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(loadSetting('/settings/APIInfo', apiInfoSchema, fetchStub)).resolves.toBeNull();
  });

  it('loads both documents from under the base path', async () => {
    const fetchStub = vi.fn(async (url: RequestInfo | URL) =>
      textResponse(JSON.stringify(String(url).endsWith('AADClientInfo') ? clientInfo : apiInfo)),
    );
    await expect(loadSettings('/portal/', fetchStub)).resolves.toEqual({ clientInfo, apiInfo });
    expect(fetchStub.mock.calls.map(([url]) => String(url)).sort()).toEqual(['/portal/settings/AADClientInfo', '/portal/settings/APIInfo']);
  });

  it('yields null when either document is missing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchStub = vi.fn(async (url: RequestInfo | URL) =>
      String(url).endsWith('APIInfo') ? textResponse('', 503) : textResponse(JSON.stringify(clientInfo)),
    );
    await expect(loadSettings('/', fetchStub)).resolves.toBeNull();
  });
});
