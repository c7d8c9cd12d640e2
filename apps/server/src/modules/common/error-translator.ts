import type { ErrorCode } from '@mfa-portal/shared';
import type { AppError, ErrorTranslator } from '../../lib/errors.js';
import { toAppError } from '../../mfa/errors.js';

/**
 * The one translation of a failure into its answer, handed by the composition root to the error
 * handler: an AppError as it is, a provider refusal (MfaError) by the provider's table of codes,
 * anything else null (a 500, logged). Services and adapters throw their own typed errors and let them
 * through; nothing between them and the edge catches only to translate.
 */
export function createErrorTranslator(opts: {
  /** Told to the client when a provider refuses a second device for want of a fresh step-up. */
  stepUpMaxAgeSeconds: number;
}): ErrorTranslator {
  return (err) => translateError(err, opts);
}

/** The AppError answering `err`, or null when nothing but a 500 answers it. */
export function translateError(err: unknown, opts: { stepUpMaxAgeSeconds?: number } = {}): AppError | null {
  return toAppError(err, opts);
}

/**
 * The code a failure is answered with, for the audit event that records it (`server.internal` for an
 * unexpected one): a failed change is audited where it happens, answered at the edge.
 */
export function failureCode(err: unknown): ErrorCode {
  return translateError(err)?.code ?? 'server.internal';
}
