import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { SiemStreamName } from '../../db/schema.js';
import { periodicJob } from '../../lib/periodic-job.js';
import { toChainedEvent } from '../audit/audit-row.js';
import type { ChainedAuditEvent } from '../audit/audit-chain.js';
import type { SiemRepository } from './siem.repository.js';

/**
 * Delivers one stream's outbox, in chain order, at least once. Every `pollMs` a pass takes the stream's
 * lease (one instance at a time sends a stream, so several instances keep its order), sends the oldest
 * pending events (a batch for syslog, one at a time for the webhook), and records the outcome: delivered
 * events are marked, a failure leaves them pending and holds the whole stream back — nothing after a
 * failed event goes out before it — for a back-off that doubles at each failure in a row, up to a cap.
 * Nothing is ever given up: when the receiver comes back, delivery resumes where it stopped. Nothing
 * here runs inside a request, so a receiver that is down never slows or fails a change.
 */

export type StreamSend = (events: readonly ChainedAuditEvent[], signal: AbortSignal) => Promise<void>;

export interface SiemListeners {
  onDelivered?(stream: SiemStreamName, count: number): void;
  onFailedAttempt?(stream: SiemStreamName): void;
  /** After each pass: what waits, and how long the oldest has waited (0 when nothing does). */
  onBacklog?(stream: SiemStreamName, count: number, oldestAgeSeconds: number): void;
}

export interface StreamDeliveryDeps {
  stream: SiemStreamName;
  repo: SiemRepository;
  send: StreamSend;
  /** Called once stopped: closes what the sender keeps open. */
  close?: () => void;
  batchSize: number;
  pollMs: number;
  retryMinMs: number;
  retryMaxMs: number;
  keepDeliveredHours: number;
  /** The longest a send may take (a pass stops early rather than outlive its lease). */
  sendTimeoutMs: number;
  /** Secrets (and URLs) that must never appear in a stored error. */
  redact?: readonly string[];
  listeners?: SiemListeners;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  now?: () => Date;
}

export interface StreamDelivery {
  readonly stream: SiemStreamName;
  /** One pass (serialised with the loop's); resolves when it has delivered what it could. */
  runOnce(): Promise<{ delivered: number; failed: boolean }>;
  start(): void;
  /** Stops the loop, cuts a send in progress (its events stay pending) and hands the lease back. */
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 1000;

export function backoffDelay(failures: number, minMs: number, maxMs: number): number {
  return Math.min(maxMs, minMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
}

/** The error as it may be stored and shown: its code and message, secrets and URL user names removed. */
export function safeError(err: unknown, redact: readonly string[] = []): string {
  const e = err as { code?: unknown; message?: unknown };
  let text = [typeof e.code === 'string' ? e.code : null, typeof e.message === 'string' ? e.message : String(err)]
    .filter(Boolean)
    .join(': ');
  for (const secret of redact) if (secret) text = text.split(secret).join('***');
  return text.replace(/\/\/[^/\s@]+@/g, '//***@').slice(0, 300);
}

export function streamDelivery(deps: StreamDeliveryDeps): StreamDelivery {
  const { stream, repo } = deps;
  const clock = deps.now ?? (() => new Date());
  const owner = randomUUID();
  // Long enough for several sends; renewed by every pass while this instance keeps the stream.
  const leaseMs = Math.max(60_000, deps.sendTimeoutMs * 4);
  let aborter = new AbortController();
  let lastPrune = 0;

  async function reportBacklog() {
    if (!deps.listeners?.onBacklog) return;
    const { count, oldest } = await repo.backlog(stream);
    deps.listeners.onBacklog(stream, count, oldest ? Math.max(0, (clock().getTime() - oldest.getTime()) / 1000) : 0);
  }

  async function prune() {
    if (deps.keepDeliveredHours === 0 || clock().getTime() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = clock().getTime();
    await repo.pruneDelivered(stream, new Date(clock().getTime() - deps.keepDeliveredHours * 3_600_000), PRUNE_BATCH);
  }

  async function pass(): Promise<{ delivered: number; failed: boolean }> {
    const started = clock();
    const leaseUntil = started.getTime() + leaseMs;
    const state = await repo.claimLease(stream, owner, started, new Date(leaseUntil));
    let delivered = 0;
    let failed = false;
    try {
      // Another instance sends this stream now.
      if (!state) return { delivered, failed };
      let failures = state.failures;
      let nextAttempt = state.next_attempt_at;
      const signal = aborter.signal;
      for (;;) {
        const now = clock();
        if (signal.aborted || (nextAttempt && nextAttempt > now)) break;
        // Stop before the lease could run out in the middle of a send.
        if (now.getTime() + deps.sendTimeoutMs * 2 > leaseUntil) break;
        const rows = await repo.pending(stream, deps.batchSize);
        if (rows.length === 0) break;
        const ids = rows.map((r) => Number(r.id));
        try {
          await deps.send(rows.map(toChainedEvent), signal);
        } catch (err) {
          // Stopping cuts the send: its events simply stay pending.
          if (signal.aborted) break;
          failures += 1;
          failed = true;
          const at = clock();
          nextAttempt = new Date(at.getTime() + backoffDelay(failures, deps.retryMinMs, deps.retryMaxMs));
          const error = safeError(err, deps.redact);
          await repo.recordFailure(stream, ids, error, at, nextAttempt);
          deps.listeners?.onFailedAttempt?.(stream);
          deps.log?.warn(
            { stream, failures, error, nextAttemptAt: nextAttempt.toISOString() },
            'audit events could not be sent to the SIEM; trying again later',
          );
          break;
        }
        await repo.markDelivered(stream, ids, clock(), { keep: deps.keepDeliveredHours > 0 });
        deps.listeners?.onDelivered?.(stream, ids.length);
        delivered += ids.length;
        failures = 0;
        nextAttempt = null;
        if (rows.length < deps.batchSize) break;
      }
      await prune();
      return { delivered, failed };
    } finally {
      await reportBacklog();
    }
  }

  const job = periodicJob({
    everyMs: deps.pollMs,
    run: pass,
    onError: (err) => deps.log?.warn({ err, stream }, 'the SIEM delivery pass failed; the next one tries again'),
  });

  return {
    stream,
    runOnce: job.runOnce,
    start() {
      if (aborter.signal.aborted) aborter = new AbortController(); // started again after a stop
      job.start();
    },
    async stop() {
      // A send under way is cut short: its events stay in the outbox for the next instance.
      aborter.abort();
      await job.stop();
      await repo.releaseLease(stream, owner).catch(() => undefined);
      deps.close?.();
    },
  };
}
