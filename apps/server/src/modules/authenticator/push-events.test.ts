import { describe, expect, it } from 'vitest';
import type { PendingPushRequest, PushStateName } from '@mfa-portal/shared';
import type { AuthenticatorApp } from '../../mfa/port.js';
import { createPushEvents } from './push-events.js';
import type { SseStream } from './sse.js';

function fakeStream() {
  const events: Array<{ event: string; data: unknown }> = [];
  const closers: Array<() => void> = [];
  let closed = false;
  const out: SseStream = {
    send(event, data) {
      if (closed) return false;
      events.push({ event, data });
      return true;
    },
    comment() {},
    end() {
      if (closed) return;
      closed = true;
      for (const fn of closers.splice(0)) fn();
    },
    get closed() {
      return closed;
    },
    onClose(fn) {
      if (closed) fn();
      else closers.push(fn);
    },
  };
  return { out, events };
}

const settle = () => new Promise((r) => setTimeout(r, 20));
const DEVICE = '11111111-1111-4111-8111-111111111111';
const request = (id: string): PendingPushRequest => ({
  id,
  account: 'alice@example.com',
  deviceId: DEVICE,
  kind: 'sign_in',
  application: 'Portal',
  browser: null,
  os: null,
  ipAddress: null,
  location: null,
  requestedBy: null,
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
});

function fakeApp(state: { pending: PendingPushRequest[]; answered: Map<string, 'approved' | 'denied'>; device: boolean }) {
  return {
    deviceKey: async () => (state.device ? { username: 'Alice@example.com', deviceId: DEVICE, publicKey: {} } : null),
    pendingRequests: async () => state.pending,
    answeredRequest: async (_d: string, id: string) => {
      const s = state.answered.get(id);
      return s ? { username: 'alice@example.com', kind: 'sign_in', state: s, answeredAt: new Date() } : null;
    },
  } as unknown as AuthenticatorApp;
}

describe('push events hub', () => {
  it('sends the pending requests on connect, new ones and closed ones when the feed names the user', async () => {
    const state = { pending: [request('a')], answered: new Map<string, 'approved' | 'denied'>(), device: true };
    const hub = createPushEvents({ authenticatorApp: fakeApp(state), pushes: { peek: async () => null } });
    hub.listener.setLive(true);
    const { out, events } = fakeStream();
    hub.watchDevice(out, { upn: 'alice@example.com', deviceId: DEVICE });
    await settle();
    expect(events.map((e) => e.event)).toEqual(['request']);
    state.pending = [request('b')];
    state.answered.set('a', 'approved');
    hub.listener.invalidate(['bob@example.com']);
    await settle();
    expect(events).toHaveLength(1);
    hub.listener.invalidate(['alice@example.com']);
    await settle();
    expect(events.slice(1)).toEqual([
      { event: 'closed', data: { id: 'a', state: 'approved' } },
      { event: 'request', data: expect.objectContaining({ id: 'b' }) },
    ]);
    // The device removed: the stream ends.
    state.device = false;
    hub.changed(['alice@example.com']);
    await settle();
    expect(out.closed).toBe(true);
    expect(hub.size).toBe(0);
    hub.close();
  });

  it('polls while the feed is not live, and tells a waiting browser once', async () => {
    let state: PushStateName = 'waiting';
    const hub = createPushEvents({
      authenticatorApp: null,
      pushes: { peek: async () => ({ state, expiresAt: new Date(Date.now() + 60_000) }) },
      pollMs: 30,
    });
    const { out, events } = fakeStream();
    hub.watchPush(out, { upn: 'alice@example.com', txid: 't', session: 's' });
    await settle();
    expect(events).toEqual([]);
    state = 'denied';
    await new Promise((r) => setTimeout(r, 80));
    expect(events).toEqual([{ event: 'state', data: { state: 'denied' } }]);
    expect(out.closed).toBe(true);
    hub.close();
  });

  it('keeps a bounded number of streams per device and ends them all on close', async () => {
    const state = { pending: [], answered: new Map<string, 'approved' | 'denied'>(), device: true };
    const counts: number[] = [];
    const hub = createPushEvents({
      authenticatorApp: fakeApp(state),
      pushes: { peek: async () => null },
      maxPerDevice: 2,
      onOpenStreams: (_kind, n) => counts.push(n),
    });
    hub.listener.setLive(true);
    const streams = [fakeStream(), fakeStream(), fakeStream()];
    for (const s of streams) hub.watchDevice(s.out, { upn: 'alice@example.com', deviceId: DEVICE });
    await settle();
    expect(streams.map((s) => s.out.closed)).toEqual([true, false, false]);
    expect(hub.size).toBe(2);
    hub.close();
    expect(streams.every((s) => s.out.closed)).toBe(true);
    expect(counts.at(-1)).toBe(0);
  });
});
