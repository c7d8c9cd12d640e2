import type { VerifyFailure, VerifyOutcome } from '../port.js';

/** A refused check of a second factor: `reason`, and nothing else unless `extra` says (both adapters). */
export function verifyFailure(reason: VerifyFailure, extra: Partial<Extract<VerifyOutcome, { ok: false }>> = {}): VerifyOutcome {
  return { ok: false, reason, justLocked: false, retryAfterSeconds: null, statusReason: null, ...extra };
}
