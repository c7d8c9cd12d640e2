import type { TokenVerifier } from '../../auth/token-verifier.js';
import { AppError } from '../../lib/errors.js';
import { MfaError, type MfaProvider } from '../../mfa/port.js';
import type { AuditEntry, AuditService } from '../audit/audit.service.js';
import type { SiemListeners } from '../siem/siem-delivery.js';
import type { PortalMetrics } from './metrics.registry.js';

/**
 * Decorators the composition root wraps around collaborators so that metrics are recorded in one
 * place, without each adapter or service knowing about them.
 */

/** Times every call of the MFA provider port and counts its failures by operation. */
export function withProviderMetrics(mfa: MfaProvider, metrics: PortalMetrics): MfaProvider {
  const provider = mfa.name;
  return new Proxy(mfa, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      const operation = prop;
      return async (...args: unknown[]) => {
        const end = metrics.mfaProviderCalls.startTimer({ provider, operation });
        try {
          const result: unknown = await (value as (...a: unknown[]) => unknown).apply(target, args);
          end({ outcome: 'ok' });
          return result;
        } catch (err) {
          end({ outcome: 'error' });
          // Refusals (MfaError: not found, last device, ...) are answers, not provider errors.
          if (!(err instanceof MfaError)) metrics.mfaProviderErrors.inc({ provider, operation, code: errorCodeOf(err) });
          throw err;
        }
      };
    },
  });
}

function errorCodeOf(err: unknown): string {
  if (err instanceof AppError) return err.code;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? code : 'unexpected';
}

/** Counts audit appends by action and outcome, and derives sign-in, second-factor and lockout outcomes from them. */
export function withAuditMetrics(audit: AuditService, metrics: PortalMetrics): AuditService {
  return {
    ...audit,
    async append(entry, opts) {
      const event = await audit.append(entry, opts);
      recordAudited(entry, metrics);
      return event;
    },
    async verify(opts) {
      try {
        const result = await audit.verify(opts);
        metrics.auditChainVerifications.inc({ result: result.ok ? 'ok' : 'broken' });
        return result;
      } catch (err) {
        metrics.auditChainVerifications.inc({ result: 'error' });
        throw err;
      }
    },
  };
}

const SIGN_IN_STEPS: Record<string, { step: string; outcome: string }> = {
  'idp.login.password_ok': { step: 'password', outcome: 'success' },
  'idp.login.password_failed': { step: 'password', outcome: 'failure' },
  'idp.login.second_factor_ok': { step: 'second_factor', outcome: 'success' },
  'idp.login.second_factor_failed': { step: 'second_factor', outcome: 'failure' },
  'idp.login.refused': { step: 'refused', outcome: 'refused' },
};

const label = (v: unknown, fallback: string) => (typeof v === 'string' && /^[a-z0-9_.-]{1,64}$/i.test(v) ? v : fallback);

function recordAudited(entry: AuditEntry, metrics: PortalMetrics): void {
  metrics.auditAppends.inc({ action: label(entry.action, 'other'), outcome: entry.outcome });
  const details = entry.details ?? {};
  const step = SIGN_IN_STEPS[entry.action];
  if (step) metrics.signInSteps.inc(step);
  if (entry.action === 'mfa.verify') {
    metrics.secondFactor.inc({
      purpose: label(details.purpose, 'unknown'),
      method: entry.outcome === 'success' ? label(details.method, 'unknown') : 'none',
      outcome: entry.outcome,
      reason: entry.outcome === 'success' ? '' : label(entry.reason, 'unknown'),
    });
  }
  if (entry.action === 'mfa.lockout') metrics.lockouts.inc({ purpose: label(details.purpose, 'unknown') });
}

/** Counts bearer-token checks of the API by outcome. */
export function withAuthenticationMetrics(verify: TokenVerifier, metrics: PortalMetrics): TokenVerifier {
  return async (bearer) => {
    try {
      const caller = await verify(bearer);
      metrics.apiAuthentications.inc({ outcome: 'success' });
      return caller;
    } catch (err) {
      metrics.apiAuthentications.inc({ outcome: errorCodeOf(err) });
      throw err;
    }
  };
}

/** Counts a read cache's lookups by result (hit, miss); the label children are bound once. */
export function cacheLookupRecorder(metrics: PortalMetrics, cache: string): (hit: boolean) => void {
  const hit = metrics.readCacheLookups.labels({ cache, result: 'hit' });
  const miss = metrics.readCacheLookups.labels({ cache, result: 'miss' });
  return (found) => (found ? hit.inc() : miss.inc());
}

/** Delivery to the SIEM's streams: events delivered, failed attempts, and what waits, per stream. */
export function siemRecorder(metrics: PortalMetrics | null): SiemListeners {
  if (!metrics) return {};
  return {
    onDelivered: (stream, count) => metrics.siemDeliveries.inc({ stream }, count),
    onFailedAttempt: (stream) => metrics.siemFailedAttempts.inc({ stream }),
    onBacklog: (stream, count, oldestAgeSeconds) => {
      metrics.siemPendingEvents.set({ stream }, count);
      metrics.siemOldestPendingAge.set({ stream }, oldestAgeSeconds);
    },
  };
}
