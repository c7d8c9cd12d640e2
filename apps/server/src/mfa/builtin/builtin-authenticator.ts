import { timingSafeEqual } from 'node:crypto';
import {
  answerSigningInput,
  DEVICE_SIGNATURE_WINDOW_SECONDS,
  pushAnswerBodySchema,
  pushSubscriptionSchema,
  type PendingPushRequest,
  type PushRequestKind,
} from '@mfa-portal/shared';
import { verifyDeviceSignature } from '../../lib/device-signature.js';
import { MfaError, type AuthenticatorApp } from '../port.js';
import { authenticatorRepository, type AuthenticatorRepository } from './authenticator.repository.js';
import { builtinActivation } from './builtin-activation.js';
import type { BuiltinContext } from './builtin-context.js';
import { effectiveStatus, isUuid, subscriptionSecretAad } from './builtin-mapping.js';
import { builtinRepository, type BuiltinRepository } from './builtin.repository.js';
import type { LockoutPolicy } from './lockout.js';
import { recordFailure, recordSuccess } from './lockout-record.js';
import type { WebPushDelivery } from './web-push-delivery.js';

/**
 * The builtin provider's side of its own authenticator app: activation (builtin-activation.ts), device
 * keys and Web Push subscriptions, the requests waiting for a device, and the checks of an answer.
 * An answer is checked before anything is written (request of this device, signature by its key,
 * still waiting, not expired, signed now); a wrong number then refuses the request and counts as a
 * failed check of the user, like a wrong passcode.
 */

export interface BuiltinAuthenticatorOptions {
  activationMinutes: number;
  policy: LockoutPolicy;
  delivery: WebPushDelivery | null;
}

const sameDigits = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

type Decided =
  { ok: true; username: string; state: 'approved' | 'denied'; kind: PushRequestKind; justLocked: boolean } | { ok: false; error: MfaError };

export function builtinAuthenticator(ctx: BuiltinContext, opts: BuiltinAuthenticatorOptions): AuthenticatorApp {
  const { db } = ctx;
  const { box } = ctx.keys;
  const repo = authenticatorRepository(db);
  const tx = <T>(fn: (r: BuiltinRepository, a: AuthenticatorRepository) => Promise<T>): Promise<T> =>
    db.transaction().execute((trx) => fn(builtinRepository(trx), authenticatorRepository(trx)));

  return {
    ...builtinActivation(ctx, { activationMinutes: opts.activationMinutes }),

    async deviceKey(deviceId) {
      const row = isUuid(deviceId) ? await repo.findDeviceKey(deviceId) : undefined;
      return row ? { username: row.username, deviceId: row.device_id, publicKey: row.public_key_jwk } : null;
    },

    async setPushSubscription(deviceId, subscription) {
      let sealed: string | null = null;
      if (subscription !== null) {
        const parsed = pushSubscriptionSchema.safeParse(subscription);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new MfaError('invalid_request', {
            field: ['pushSubscription', ...(issue?.path ?? [])].join('.'),
            reason: issue?.message ?? 'is invalid',
          });
        }
        sealed = box.seal(JSON.stringify(parsed.data), subscriptionSecretAad(deviceId));
      }
      if (!isUuid(deviceId) || !(await repo.setSubscription(deviceId, sealed))) throw new MfaError('device_not_found');
    },

    async pendingRequests(deviceId, pendingOpts = {}) {
      if (!isUuid(deviceId)) return [];
      const rows = await repo.pendingRequests(deviceId, pendingOpts.now ?? new Date());
      return rows.map((r): PendingPushRequest => ({
        id: r.id,
        account: r.username,
        deviceId: r.device_id,
        kind: r.kind,
        application: r.context.application,
        browser: r.context.browser ?? null,
        os: r.context.os ?? null,
        ipAddress: r.context.ipAddress ?? null,
        location: r.context.location ?? null,
        requestedBy: r.context.requestedBy ?? null,
        createdAt: r.created_at.toISOString(),
        expiresAt: r.expires_at.toISOString(),
      }));
    },

    async answer(deviceId, input, answerOpts = {}) {
      const now = answerOpts.now ?? new Date();
      const parsed = pushAnswerBodySchema.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new MfaError('invalid_request', { field: issue?.path.join('.') || 'body', reason: issue?.message ?? 'is invalid' });
      }
      const { answer, signature } = parsed.data;
      const key = isUuid(deviceId) ? await repo.findDeviceKey(deviceId) : undefined;
      if (!key) throw new MfaError('push_not_found');

      // Decided in one transaction; a wrong number's refusal and its failure count are written, then
      // thrown once they are (the caller's transaction, when there is one, keeps them).
      const decided = await tx(async (r, a): Promise<Decided> => {
        // The user's row first, as every check of this user takes it.
        const user = await a.lockUserById(key.user_id);
        const request = await a.lockDeviceRequest(deviceId, answer.requestId);
        if (!request || !user || request.user_id !== user.id) throw new MfaError('push_not_found');
        if (!verifyDeviceSignature(key.public_key_jwk, answerSigningInput(answer), signature)) throw new MfaError('push_signature_invalid');
        if (request.state !== 'waiting') throw new MfaError('push_already_answered');
        if (request.expires_at.getTime() <= now.getTime()) throw new MfaError('push_expired');
        if (Math.abs(Date.parse(answer.time) - now.getTime()) > DEVICE_SIGNATURE_WINDOW_SECONDS * 1000)
          throw new MfaError('invalid_request', { field: 'answer.time', reason: 'must be the time of the answer (check the phone clock)' });
        const base = { username: user.username, kind: request.kind };

        if (answer.decision === 'deny') {
          if (!(await a.setRequestState(request.id, 'waiting', 'denied', now))) throw new MfaError('push_already_answered');
          return { ok: true, ...base, state: 'denied', justLocked: false };
        }
        const status = effectiveStatus(user, now);
        if (status.status === 'disabled') throw new MfaError('user_disabled', status.statusReason ? { reason: status.statusReason } : {});
        if (status.status === 'locked_out')
          throw new MfaError('user_locked_out', status.statusReason ? { reason: status.statusReason } : {});
        if (answer.number === null || !sameDigits(answer.number, request.number)) {
          if (!(await a.setRequestState(request.id, 'waiting', 'denied', now))) throw new MfaError('push_already_answered');
          const decision = await recordFailure(r, user, now, opts.policy);
          return {
            ok: false,
            error: new MfaError('push_number_mismatch', {
              field: 'answer.number',
              reason: decision.justLocked ? 'the account is now locked' : 'not the number shown',
            }),
          };
        }
        if (!(await a.setRequestState(request.id, 'waiting', 'approved', now))) throw new MfaError('push_already_answered');
        await recordSuccess(r, user, now);
        await r.touchDevice(deviceId, now);
        return { ok: true, ...base, state: 'approved', justLocked: false };
      });
      if (!decided.ok) throw decided.error;
      return { username: decided.username, state: decided.state, kind: decided.kind, justLocked: decided.justLocked };
    },

    async answeredRequest(deviceId, requestId) {
      if (!isUuid(deviceId) || !isUuid(requestId)) return null;
      const key = await repo.findDeviceKey(deviceId);
      const row = key ? await repo.findDeviceRequest(deviceId, requestId) : undefined;
      if (!key || !row || !row.answered_at) return null;
      if (row.state !== 'approved' && row.state !== 'denied' && row.state !== 'fraud') return null;
      return { username: key.username, kind: row.kind, state: row.state, answeredAt: row.answered_at };
    },

    async markFraud(deviceId, requestId) {
      if (!isUuid(deviceId) || !isUuid(requestId)) return false;
      return repo.markFraud(deviceId, requestId);
    },

    async vapidPublicKey() {
      return opts.delivery ? opts.delivery.vapidPublicKey() : null;
    },
  };
}
