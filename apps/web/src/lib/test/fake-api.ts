import { vi } from 'vitest';
import {
  FACTOR_KINDS,
  RECOMMENDED_METHOD_ORDER,
  type MyFactorPolicy,
  type DefaultMethodResponse,
  type ProviderCapabilitiesResponse,
  type SignInMethod,
  type UserInfoResponse,
} from '@mfa-portal/shared';

/** The capabilities the server reports for each provider (GET /api/me/capabilities). */
export function capabilitiesOf(provider: 'builtin' | 'duo'): ProviderCapabilitiesResponse {
  return provider === 'duo'
    ? {
        provider,
        phones: true,
        smsActivation: true,
        push: true,
        totp: false,
        hardwareTokens: true,
        renameHardwareTokens: false,
        webauthn: false,
        webauthnEnrolledInProviderPrompt: true,
        authenticatorApp: false,
      }
    : {
        provider,
        phones: false,
        smsActivation: false,
        push: true,
        totp: true,
        hardwareTokens: true,
        renameHardwareTokens: true,
        webauthn: true,
        webauthnEnrolledInProviderPrompt: false,
        authenticatorApp: true,
      };
}

/** A service that cannot send pushes (no phone channel at all): what the rules fall back to. */
export const capabilitiesWithoutPush = (): ProviderCapabilitiesResponse => ({
  ...capabilitiesOf('builtin'),
  push: false,
  authenticatorApp: false,
});

/**
 * GET /api/me/default-method as the server answers it for the profile's devices when nothing was chosen:
 * on the builtin provider every way of signing in, passkeys, then pushes, then passcodes; on Duo, Duo's
 * own prompt decides.
 */
export function defaultMethodOf(profile: UserInfoResponse, chosen: SignInMethod | null = null): DefaultMethodResponse {
  if (profile.mfa.provider === 'duo') return { decidedBy: 'mfa_provider', current: null, source: 'recommended', choices: [] };
  const choices = RECOMMENDED_METHOD_ORDER.flatMap((method) =>
    profile.mfa.devices.filter((d) => d.capabilities.includes(method)).map((d) => ({ deviceId: d.id, method })),
  );
  const kept = chosen && choices.find((c) => c.deviceId === chosen.deviceId && c.method === chosen.method);
  return kept
    ? { decidedBy: 'portal', current: kept, source: 'chosen', choices }
    : { decidedBy: 'portal', current: choices[0] ?? null, source: chosen ? 'replaced' : 'recommended', choices };
}

/** GET /api/me/factor-policy before any administrator restricted anything: every kind, no limit. */
export function openFactorPolicy(overrides: Partial<MyFactorPolicy> = {}): MyFactorPolicy {
  return {
    enrol: [...FACTOR_KINDS],
    use: [...FACTOR_KINDS],
    requirePhishingResistant: false,
    maxPerKind: {},
    unavailable: [],
    source: { kind: 'global', groups: [] },
    disallowedDevices: [],
    holdsUsable: true,
    ...overrides,
  };
}

/** One request the application sent, as the server would see it. */
export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
  /** The request's AbortSignal (a streamed answer ends when it fires). */
  signal?: AbortSignal;
}

export type Handler = (call: RecordedCall) => Response | Promise<Response>;

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const apiError = (status: number, code: string, details?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  json({ code, message: `${code} (server message)`, ...(details ? { details } : {}) }, status, headers);

/**
 * A stand-in for the server at the network boundary: `fetch` is replaced by a router of
 * `METHOD path` → handler. The profile call answers `profile`; an unexpected call fails the request
 * with 404 `route.not_found` and is listed in `unexpected` for the test to check. Requests honour
 * their AbortSignal like the real fetch.
 */
export function installFakeApi(profile: UserInfoResponse) {
  const routes = new Map<string, Handler[]>();
  const calls: RecordedCall[] = [];
  const unexpected: string[] = [];

  const api = {
    calls,
    unexpected,
    /** Answers `METHOD path` with `handler` (several handlers: one per call, the last one repeats). */
    on(method: string, path: string, ...handlers: Handler[]) {
      routes.set(`${method} ${path}`, handlers);
      return api;
    },
    callsTo(method: string, path: string) {
      return calls.filter((c) => c.method === method && c.path === path);
    },
  };

  api.on('GET', '/account/getuserinfo', () => json(profile));
  // What the profile's MFA provider can do, as the server answers it (a test may answer otherwise).
  api.on('GET', '/api/me/capabilities', () => json(capabilitiesOf(profile.mfa.provider)));
  // The default sign-in method as the server answers before anyone chose: the safest way first.
  api.on('GET', '/api/me/default-method', () => json(defaultMethodOf(profile)));
  // The factor policy: every kind may be added and used, unless a test says otherwise.
  api.on('GET', '/api/me/factor-policy', () => json(openFactorPolicy()));
  // The first-device policy: open unless a test says otherwise.
  api.on('GET', '/api/me/enrolment-policy', () =>
    json({ policy: 'open', passRequired: false, windowEndsAt: null, passGrantedUntil: null }),
  );
  // An administrator not limited to administrative units, unless a test says otherwise.
  api.on('GET', '/api/admin/units/mine', () => json({ reach: 'everyone', units: [] }));
  // No enrolment campaign asks anything of the person, unless a test says otherwise.
  api.on('GET', '/api/me/campaign', () => json({ campaign: null }));
  // No enrolment campaign has been started, unless a test says otherwise.
  api.on('GET', '/api/admin/campaigns', () => json({ campaigns: [], emailEnabled: true }));
  // No step-up yet in this session, unless a test says otherwise.
  api.on('GET', '/api/me/step-up', () => json({ active: false, method: null, verifiedAt: null, expiresAt: null, maxAgeSeconds: 300 }));

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost:3000/');
    const method = (init.method ?? 'GET').toUpperCase();
    const call: RecordedCall = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      ...(init.signal ? { signal: init.signal } : {}),
    };
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    calls.push(call);
    const handlers = routes.get(`${method} ${url.pathname}`);
    let response: Response;
    if (!handlers?.length) {
      unexpected.push(`${method} ${url.pathname}`);
      response = apiError(404, 'route.not_found');
    } else {
      const handler = handlers.length > 1 ? handlers.shift()! : handlers[0]!;
      response = await handler(call);
    }
    if (signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    return response;
  });
  vi.stubGlobal('fetch', fetchStub);
  return api;
}

export type FakeApi = ReturnType<typeof installFakeApi>;

/**
 * Server-sent event streams the test writes to: `handler` answers each request with a new open
 * `text/event-stream`; `send` writes one event to every stream still open; a stream ends when the
 * request is aborted (as fetch does) or when `close` is called. `live` counts the open streams.
 */
export function fakeEventStreams() {
  const encoder = new TextEncoder();
  const streams: { controller: ReadableStreamDefaultController<Uint8Array>; open: boolean }[] = [];
  // Needs only the request's signal, so the Portal Authenticator's fake API (test/fake-api.ts there) can use it too.
  const handler = (call: { signal?: AbortSignal }): Response => {
    const stream = { controller: undefined as unknown as ReadableStreamDefaultController<Uint8Array>, open: true };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        stream.controller = controller;
      },
      cancel: () => {
        stream.open = false;
      },
    });
    streams.push(stream);
    call.signal?.addEventListener('abort', () => {
      if (!stream.open) return;
      stream.open = false;
      stream.controller.error(new DOMException('Aborted', 'AbortError'));
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return {
    handler,
    /** Writes `event: <event>` with `data: <JSON>` (or raw text) to every open stream. */
    send(event: string, data: unknown, raw = false) {
      const chunk = encoder.encode(`event: ${event}\ndata: ${raw ? String(data) : JSON.stringify(data)}\n\n`);
      for (const stream of streams) if (stream.open) stream.controller.enqueue(chunk);
    },
    close() {
      for (const stream of streams)
        if (stream.open) {
          stream.open = false;
          stream.controller.close();
        }
    },
    get opened() {
      return streams.length;
    },
    get live() {
      return streams.filter((s) => s.open).length;
    },
  };
}
