import { ApiError, type Signer } from './lib/api';

export type OutcomeKind =
  'approved' | 'denied' | 'mismatch' | 'expired' | 'already_answered' | 'closed_elsewhere' | 'offline' | 'failed' | 'unauthorized';

/** What happened to the last request, shown until the person moves on. */
export interface Outcome {
  kind: OutcomeKind;
  /** A denial the person may report as "This wasn't me". */
  report?: { signer: Signer; requestId: string };
}

/** The outcome a refusal of an answer means to the person holding the phone. */
export function outcomeOfError(err: unknown): OutcomeKind {
  if (!(err instanceof ApiError)) return 'failed';
  switch (err.code) {
    case 'push.number_mismatch':
      return 'mismatch';
    case 'push.expired':
      return 'expired';
    case 'push.already_answered':
      return 'already_answered';
    case 'authenticator.device_unauthorized':
    case 'push.signature_invalid':
      return 'unauthorized';
    case 'network.offline':
      return 'offline';
    default:
      return 'failed';
  }
}
