import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { periodicJob } from '../../lib/periodic-job.js';
import type { NotificationKind, NotificationParams } from './notification-kinds.js';
import type { MessageRenderer } from './notification-messages.js';
import type { OutboxRow, notificationsRepository } from './notifications.repository.js';

/**
 * Sends the outbox: every few seconds, claims due rows (several instances never claim the
 * same row), renders and sends each over SMTP, and records the outcome. A failed attempt is retried
 * with exponential back-off (base × 2^(attempt-1), capped), then marked failed. Nothing here ever
 * runs inside a request: an SMTP server that is down delays mail, never a change.
 */

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export type MailTransport = (message: MailMessage) => Promise<void>;

/** A nodemailer SMTP transport (connection timeouts kept short: the loop must not hang). */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return async (message) => {
    await transporter.sendMail(message);
  };
}

export interface Backoff {
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 30_000, maxMs: 60 * 60_000, maxAttempts: 8 };

export interface Recipient {
  email: string;
  displayName: string | null;
}

export interface SenderDeps {
  repo: ReturnType<typeof notificationsRepository>;
  transport: MailTransport;
  renderer: MessageRenderer;
  from: string;
  /** The user's e-mail address and name from the directory (null: unknown user or no address). */
  recipientOf: (upn: string) => Promise<Recipient | null>;
  pollMs: number;
  backoff?: Backoff;
  /** Secrets that must never appear in a stored error (the SMTP URL and its password). */
  redact?: readonly string[];
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  now?: () => Date;
}

export interface NotificationSender {
  /** One pass over the due rows; resolves when they are sent or rescheduled. */
  runOnce(): Promise<{ sent: number; retried: number; failed: number }>;
  start(): void;
  /** Stops the loop and waits for the pass in progress. */
  stop(): Promise<void>;
}

const BATCH = 20;

export function backoffDelay(attempt: number, b: Backoff): number {
  return Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, attempt - 1));
}

export function notificationSender(deps: SenderDeps): NotificationSender {
  const backoff = deps.backoff ?? DEFAULT_BACKOFF;
  const clock = deps.now ?? (() => new Date());
  const leaseMs = 5 * 60_000;
  // Set by stop(): a long drain of the outbox ends after the batch in hand.
  let stopping = false;

  function safeError(err: unknown): string {
    const e = err as { code?: unknown; responseCode?: unknown; message?: unknown };
    let text = [typeof e.code === 'string' ? e.code : null, typeof e.message === 'string' ? e.message : String(err)]
      .filter(Boolean)
      .join(': ');
    for (const secret of deps.redact ?? []) if (secret) text = text.split(secret).join('***');
    // Userinfo in any URL (smtp://user:password@host) is never stored.
    return text.replace(/\/\/[^/\s@]+@/g, '//***@').slice(0, 300);
  }

  async function deliver(row: OutboxRow): Promise<'sent' | 'retried' | 'failed'> {
    const params = row.params as unknown as NotificationParams;
    const kind = row.kind as NotificationKind;
    const now = clock();
    try {
      let to = row.recipient;
      let displayName: string | null = null;
      if (row.target_upn) {
        const user = await deps.recipientOf(row.target_upn);
        displayName = user?.displayName ?? null;
        if (!to) to = user?.email ?? null;
      }
      if (!to) {
        await deps.repo.markFailedAttempt(row.id, 'no e-mail address for the recipient in the directory', null);
        return 'failed';
      }
      const message = deps.renderer.render(kind, params, { displayName, upn: row.target_upn ?? '' });
      await deps.transport({ from: deps.from, to, ...message });
      await deps.repo.markSent(row.id, clock());
      return 'sent';
    } catch (err) {
      const final = row.attempts >= backoff.maxAttempts;
      const next = final ? null : new Date(now.getTime() + backoffDelay(row.attempts, backoff));
      await deps.repo.markFailedAttempt(row.id, safeError(err), next);
      deps.log?.warn({ notificationId: String(row.id), attempts: row.attempts, final }, 'a notification e-mail could not be sent');
      return final ? 'failed' : 'retried';
    }
  }

  async function runOnce() {
    const counts = { sent: 0, retried: 0, failed: 0 };
    for (;;) {
      const rows = await deps.repo.claimDue(clock(), BATCH, leaseMs);
      for (const row of rows) counts[await deliver(row)]++;
      if (rows.length < BATCH || stopping) return counts;
    }
  }

  const job = periodicJob({
    everyMs: deps.pollMs,
    run: runOnce,
    onError: (err) => deps.log?.error({ err }, 'the notification sender failed; it tries again'),
  });

  return {
    runOnce: job.runOnce,
    start() {
      stopping = false;
      job.start();
    },
    async stop() {
      stopping = true;
      await job.stop();
    },
  };
}
