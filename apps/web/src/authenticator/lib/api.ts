import type {
  ActivateBody,
  ActivateResponse,
  AuthenticatorInfo,
  PendingPushRequest,
  PushAnswer,
  PushAnswerResponse,
  PushSubscriptionJson,
} from '@mfa-portal/shared';
import { signText } from './device-key';
import { apiPath } from './paths';
import { answerSigningInput, deviceAuthHeader, deviceAuthSigningInput } from '@mfa-portal/shared/authenticator-signing';
import type { StoredAccount } from './store';

/** A refusal from the server: its stable code (`push.number_mismatch`, …) and HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    /** The server's reason in words, where it gives one (a factor policy's, naming the policy). */
    readonly reason: string | null = null,
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

/** The part of an account the signed calls need. */
export type Signer = Pick<StoredAccount, 'deviceId' | 'keys'>;

async function failure(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as { code?: unknown; details?: { reason?: unknown } } | null;
  const reason = typeof body?.details?.reason === 'string' ? body.details.reason : null;
  return new ApiError(typeof body?.code === 'string' ? body.code : 'network.error', response.status, reason);
}

async function call<T>(input: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(input, { ...init, cache: 'no-store', credentials: 'omit' });
  } catch {
    throw new ApiError('network.offline', 0);
  }
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/**
 * The `Authorization` header of one signed call: a fresh time and signature over the method and the
 * path (what the server sees, without a query), so a captured header is useless elsewhere or later.
 */
export async function signedHeader(signer: Signer, method: string, path: string, now = Date.now()): Promise<string> {
  const sig = await signText(signer.keys.privateKey, deviceAuthSigningInput(method, path, now));
  return deviceAuthHeader(signer.deviceId, now, sig);
}

async function signed<T>(signer: Signer, method: string, route: string, body?: unknown): Promise<T> {
  const path = apiPath(route);
  const headers: Record<string, string> = { authorization: await signedHeader(signer, method, path), accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return call<T>(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

export const api = {
  info: () => call<AuthenticatorInfo>(apiPath('info'), { headers: { accept: 'application/json' } }),

  activate: (body: ActivateBody) =>
    call<ActivateResponse>(apiPath('activate'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    }),

  requests: async (signer: Signer) => (await signed<{ requests: PendingPushRequest[] }>(signer, 'GET', 'requests')).requests,

  /** Signs the answer itself (request, number, decision, time) with the device key, then sends it. */
  answer: async (signer: Signer, answer: PushAnswer) => {
    const signature = await signText(signer.keys.privateKey, answerSigningInput(answer));
    return signed<PushAnswerResponse>(signer, 'POST', `requests/${encodeURIComponent(answer.requestId)}/answer`, { answer, signature });
  },

  report: (signer: Signer, requestId: string) =>
    signed<{ reported: true }>(signer, 'POST', `requests/${encodeURIComponent(requestId)}/report`, {}),

  pushSubscription: (signer: Signer, pushSubscription: PushSubscriptionJson | null) =>
    signed<unknown>(signer, 'PUT', 'push-subscription', { pushSubscription }),
};
