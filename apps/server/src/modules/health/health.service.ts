import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Liveness and readiness. Liveness only says the process answers; readiness runs each check (the
 * database with a short timeout, signing keys, the MFA provider, ...) and names what fails. A check
 * that only degrades the service (it answers correctly, less efficiently) names itself without making
 * the instance not ready: taking it out of the load balancer would help nothing.
 */
export interface ReadinessCheck {
  name: string;
  /** Resolves when ready; throws (or rejects) with a short, non-secret reason otherwise. */
  run(): Promise<void> | void;
  /** A failure of this check degrades the service instead of making it not ready. */
  degradesOnly?: boolean;
}

export interface CheckResult {
  ok: boolean;
  /** Set on a failed check that only degrades the service. */
  degraded?: true;
  reason?: string;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
  notReady: string[];
  /** Failed checks that only degrade the service (ready all the same). */
  degraded: string[];
}

export interface HealthService {
  readiness(): Promise<Readiness>;
  /** From SIGTERM on: not ready (the load balancer stops sending new requests), still alive. */
  setDraining(): void;
  /** Whether SIGTERM came: answers then say `Connection: close`, so clients reconnect elsewhere. */
  readonly draining: boolean;
}

export class NotReady extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NotReady(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The database answers a trivial query within `timeoutMs`. */
export function databaseCheck(db: Kysely<Database>, timeoutMs: number): ReadinessCheck {
  return {
    name: 'database',
    async run() {
      try {
        await withTimeout(sql`select 1`.execute(db), timeoutMs);
      } catch (err) {
        throw err instanceof NotReady ? err : new NotReady('unreachable');
      }
    },
  };
}

export function createHealthService(checks: readonly ReadinessCheck[], opts: { timeoutMs: number }): HealthService {
  let draining = false;
  return {
    setDraining() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    async readiness() {
      const results = await Promise.all(
        checks.map(async (check): Promise<[string, CheckResult]> => {
          try {
            await withTimeout(
              Promise.resolve().then(() => check.run()),
              opts.timeoutMs,
            );
            return [check.name, { ok: true }];
          } catch (err) {
            // Only our own short reasons are shown: an error's message could name hosts or users.
            const reason = err instanceof NotReady ? err.message : 'failed';
            return [check.name, check.degradesOnly ? { ok: false, degraded: true, reason } : { ok: false, reason }];
          }
        }),
      );
      if (draining) results.push(['shutdown', { ok: false, reason: 'the server is shutting down' }]);
      const notReady = results.filter(([, r]) => !r.ok && !r.degraded).map(([name]) => name);
      const degraded = results.filter(([, r]) => r.degraded).map(([name]) => name);
      return { ready: notReady.length === 0, checks: Object.fromEntries(results), notReady, degraded };
    },
  };
}
