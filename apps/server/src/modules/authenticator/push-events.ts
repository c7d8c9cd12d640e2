import type { PendingPushRequest, PushStateName } from '@mfa-portal/shared';
import type { ChangeListener } from '../../db/change-feed.js';
import type { AuthenticatorApp } from '../../mfa/port.js';
import type { PushService } from '../push/push.service.js';
import type { SseStream } from './sse.js';

/**
 * The server-sent events of pushes, on this instance: the authenticator app's stream (its pending
 * requests, and when each closes) and the waiting browser's (the one moment its push stops waiting).
 * Request state lives in the database, so the hub never trusts what it was told: it re-reads. It
 * listens to the change feed, which names on every instance the users whose pushes or activations
 * changed; while the feed is not live it re-reads every second, and a timer re-reads at each expiry
 * (nothing in the database changes when a push runs out of time).
 */

export interface PushEventsOptions {
  authenticatorApp: AuthenticatorApp | null;
  pushes: Pick<PushService, 'peek'>;
  /** How often a quiet stream gets a comment line (proxies close idle connections). */
  heartbeatMs?: number;
  /** How often streams re-read while the change feed is not live. */
  pollMs?: number;
  /** Streams kept per device (app) and per user (waiting browsers); the oldest goes first. */
  maxPerDevice?: number;
  maxPerUser?: number;
  /** Streams open, by kind (metrics). */
  onOpenStreams?: (kind: 'app' | 'browser', open: number) => void;
  onError?: (err: unknown) => void;
}

interface Stream {
  kind: 'app' | 'browser';
  upn: string;
  /** The device (app streams) or the push (browser streams): what the bound counts. */
  key: string;
  out: SseStream;
  /** Re-reads and sends what changed. */
  refresh(): Promise<void>;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  again: boolean;
}

export const SSE_HEARTBEAT_MS = 15_000;
const POLL_MS = 1000;

export function createPushEvents(opts: PushEventsOptions) {
  const heartbeatMs = opts.heartbeatMs ?? SSE_HEARTBEAT_MS;
  const pollMs = opts.pollMs ?? POLL_MS;
  const maxPerDevice = opts.maxPerDevice ?? 3;
  const maxPerUser = opts.maxPerUser ?? 8;
  const byUser = new Map<string, Set<Stream>>();
  let live = false;
  let closed = false;
  let poller: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  const all = () => [...byUser.values()].flatMap((set) => [...set]);
  const count = (kind: Stream['kind']) => all().filter((s) => s.kind === kind).length;
  const report = (kind: Stream['kind']) => opts.onOpenStreams?.(kind, count(kind));

  /** Re-reads one stream; a change during a re-read makes one more afterwards, never two at once. */
  function refresh(stream: Stream): void {
    if (stream.out.closed) return;
    if (stream.running) {
      stream.again = true;
      return;
    }
    stream.running = stream
      .refresh()
      .catch((err: unknown) => opts.onError?.(err))
      .finally(() => {
        stream.running = null;
        if (stream.again && !stream.out.closed) {
          stream.again = false;
          refresh(stream);
        }
      });
  }

  const refreshUsers = (users: Iterable<string>) => {
    for (const upn of users) for (const s of byUser.get(upn.toLowerCase()) ?? []) refresh(s);
  };
  const refreshAll = () => {
    for (const s of all()) refresh(s);
  };

  /** The timers run only while streams are open: an idle instance does nothing. */
  function updateTimers(): void {
    const any = byUser.size > 0 && !closed;
    if (any && !heartbeat) {
      heartbeat = setInterval(() => {
        for (const s of all()) s.out.comment('heartbeat');
      }, heartbeatMs);
      heartbeat.unref();
    }
    if (!any && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
    const poll = any && !live;
    if (poll && !poller) {
      poller = setInterval(refreshAll, pollMs);
      poller.unref();
    }
    if (!poll && poller) {
      clearInterval(poller);
      poller = null;
    }
  }

  /** Re-reads again when the next thing runs out of time (a push's expiry changes no row). */
  function wakeAt(stream: Stream, at: Date | null): void {
    if (stream.timer) clearTimeout(stream.timer);
    stream.timer = null;
    if (!at || stream.out.closed) return;
    const ms = Math.max(0, at.getTime() - Date.now()) + 50;
    stream.timer = setTimeout(() => refresh(stream), ms);
    stream.timer.unref();
  }

  function add(stream: Stream): void {
    if (closed) return stream.out.end();
    const upn = stream.upn;
    const set = byUser.get(upn) ?? new Set<Stream>();
    byUser.set(upn, set);
    const same = [...set].filter((s) => s.kind === stream.kind && (s.kind === 'browser' || s.key === stream.key));
    const max = stream.kind === 'app' ? maxPerDevice : maxPerUser;
    // Oldest first (a Set keeps insertion order): a reconnecting client replaces its own old stream.
    for (const old of same.slice(0, Math.max(0, same.length - max + 1))) old.out.end();
    set.add(stream);
    stream.out.onClose(() => {
      if (stream.timer) clearTimeout(stream.timer);
      set.delete(stream);
      if (set.size === 0 && byUser.get(upn) === set) byUser.delete(upn);
      report(stream.kind);
      updateTimers();
    });
    report(stream.kind);
    updateTimers();
    refresh(stream);
  }

  const base = (kind: Stream['kind'], upn: string, key: string, out: SseStream) => ({
    kind,
    upn: upn.toLowerCase(),
    key,
    out,
    timer: null,
    running: null,
    again: false,
  });

  return {
    /** The change feed's listener: users named by a commit are re-read; not live means polling. */
    listener: {
      setLive(now: boolean) {
        live = now;
        updateTimers();
        // Something may have gone unheard while the feed was down.
        if (now) refreshAll();
      },
      invalidate(users: string[]) {
        refreshUsers(users);
      },
      clear() {
        refreshAll();
      },
    } satisfies ChangeListener,

    /** A change this instance just committed: its streams hear it without waiting for the feed. */
    changed(users: string[]): void {
      refreshUsers(users);
    },

    /**
     * The app's stream for one device: every pending request at once (`request`), new ones as they
     * come, `closed` `{id, state}` when one is answered or runs out of time; it ends when the device
     * is removed (or is no longer this user's).
     */
    watchDevice(out: SseStream, who: { upn: string; deviceId: string }): void {
      const app = opts.authenticatorApp;
      if (!app) return out.end();
      const known = new Map<string, PendingPushRequest>();
      const stream: Stream = {
        ...base('app', who.upn, who.deviceId, out),
        async refresh() {
          const key = await app.deviceKey(who.deviceId);
          if (!key || key.username.toLowerCase() !== stream.upn) return out.end();
          const pending = await app.pendingRequests(who.deviceId);
          const now = new Set(pending.map((r) => r.id));
          for (const [id] of known) {
            if (now.has(id)) continue;
            const answered = await app.answeredRequest(who.deviceId, id);
            out.send('closed', { id, state: answered?.state ?? 'timeout' });
            known.delete(id);
          }
          for (const r of pending) {
            if (known.has(r.id)) continue;
            known.set(r.id, r);
            out.send('request', r);
          }
          const next = [...known.values()].map((r) => new Date(r.expiresAt)).sort((a, b) => a.getTime() - b.getTime())[0];
          wakeAt(stream, next ?? null);
        },
      };
      add(stream);
    },

    /** The waiting browser's stream for one push of its session: `state` once it stops waiting, then the end. */
    watchPush(out: SseStream, who: { upn: string; txid: string; session: string }): void {
      const stream: Stream = {
        ...base('browser', who.upn, who.txid, out),
        async refresh() {
          const peeked = await opts.pushes.peek({ upn: who.upn, txid: who.txid, session: who.session });
          const state: PushStateName = peeked?.state ?? 'timeout';
          if (state !== 'waiting') {
            out.send('state', { state });
            return out.end();
          }
          wakeAt(stream, peeked?.expiresAt ?? null);
        },
      };
      add(stream);
    },

    /** Streams open now (tests, metrics). */
    get size(): number {
      return all().length;
    },

    /** Ends every stream (shutdown: an open stream would hold the server's close forever). */
    close(): void {
      closed = true;
      for (const s of all()) s.out.end();
      byUser.clear();
      updateTimers();
    },
  };
}

export type PushEvents = ReturnType<typeof createPushEvents>;
