import { vi } from 'vitest';
import type { PendingPushRequest } from '@mfa-portal/shared';
import { generateDeviceKey } from '../lib/device-key';
import type { StoredAccount } from '../lib/store';

export interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
}

type Handler = (call: Call) => Response | Promise<Response>;

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The app's API as a fetch stub: routes by "METHOD path", every call recorded. The events stream
 * stays open (until the app aborts it) unless a test gives it a handler.
 */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'https://portal.example/');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const call: Call = { method, path: url.pathname, headers, body, ...(init.signal ? { signal: init.signal } : {}) };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    if (handler) return handler(call);
    if (url.pathname.endsWith('/api/events')) {
      return new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        resolve(new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(': open\n\n')) }), { status: 200 }));
      });
    }
    return json(404, { code: 'route.not_found' });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls, fetchStub };
}

export async function testAccount(overrides: Partial<StoredAccount> = {}): Promise<StoredAccount> {
  return {
    deviceId: '7d3f2a4e-1b2c-4d5e-8f90-123456789abc',
    upn: 'bob@example.com',
    displayName: 'Bob Example',
    keys: await generateDeviceKey(),
    passcode: { secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', digits: 6, period: 30, issuer: 'MFA Portal' },
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function pendingRequest(overrides: Partial<PendingPushRequest> = {}): PendingPushRequest {
  const now = Date.now();
  return {
    id: '0b6f1d2e-3c4a-4b5c-9d6e-7f8091a2b3c4',
    account: 'bob@example.com',
    deviceId: '7d3f2a4e-1b2c-4d5e-8f90-123456789abc',
    kind: 'sign_in',
    application: 'MFA self-service portal',
    browser: 'Chrome',
    os: 'Windows',
    ipAddress: '203.0.113.7',
    location: 'Amsterdam, NL',
    requestedBy: null,
    createdAt: new Date(now - 5000).toISOString(),
    expiresAt: new Date(now + 55_000).toISOString(),
    ...overrides,
  };
}
