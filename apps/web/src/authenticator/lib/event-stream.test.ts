import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json, pendingRequest, testAccount } from '../test/fake-api';
import { backoffMs, openRequestStream } from './event-stream';

function streamOf(text: string): Response {
  return new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
}

describe('the request stream', () => {
  afterEach(() => vi.useRealTimers());

  it('backs off from about a second, doubling, to at most 30 s', () => {
    expect(backoffMs(0, () => 1)).toBe(1000);
    expect(backoffMs(0, () => 0)).toBe(500);
    expect(backoffMs(3, () => 1)).toBe(8000);
    expect(backoffMs(20, () => 1)).toBe(30_000);
  });

  it('delivers requests and closings, and reconnects with a fresh signature when the stream ends', async () => {
    const request = pendingRequest();
    let connections = 0;
    const { calls } = fakeApi({
      'GET /authenticator/api/events': () =>
        ++connections === 1
          ? streamOf(
              `: open\n\nevent: request\ndata: ${JSON.stringify(request)}\n\nevent: closed\ndata: {"id":"${request.id}","state":"approved"}\n\n`,
            )
          : new Promise<Response>(() => {}),
    });
    const onRequest = vi.fn();
    const onClosed = vi.fn();
    const stop = openRequestStream(await testAccount(), { onRequest, onClosed });
    await vi.waitFor(() => expect(connections).toBe(2), { timeout: 5000 });
    stop();
    expect(onRequest).toHaveBeenCalledWith(request);
    expect(onClosed).toHaveBeenCalledWith({ id: request.id, state: 'approved' });
    const [first, second] = calls.filter((c) => c.path === '/authenticator/api/events');
    expect(first!.headers.authorization).toMatch(/^PortalDevice deviceId="7d3f2a4e-[^"]+", ts="\d+", sig="[A-Za-z0-9_-]{86}"$/);
    expect(second!.headers.authorization).not.toBe(first!.headers.authorization);
  });

  it('stops for good when the server no longer knows the device', async () => {
    const { calls } = fakeApi({ 'GET /authenticator/api/events': () => json(401, { code: 'authenticator.device_unauthorized' }) });
    const onUnauthorized = vi.fn();
    openRequestStream(await testAccount(), { onRequest: vi.fn(), onClosed: vi.fn(), onUnauthorized });
    await vi.waitFor(() => expect(onUnauthorized).toHaveBeenCalledOnce());
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(1);
  });
});
