import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PUSH_TIMEOUT_SECONDS, type PushTransaction } from '@mfa-portal/shared';
import type { Database, PushTransactionTable } from '../../db/schema.js';
import { MfaError, type MfaProvider, type PushState } from '../../mfa/port.js';
import { pushRepository } from './push.repository.js';

/**
 * Pushes the portal starts through the MFA provider. The provider's transaction id stays on
 * the server: callers get the portal's own id, bound to the user, the device and the purpose, so
 * polling another user's push (or the same push for another purpose) is "not found". A push that
 * stays unanswered past `timeoutSeconds` reads as `timeout`. The first poll that sees the answer
 * marks the push completed (`justCompleted`), so its effect (a step-up, an audit event) happens once.
 *
 * Whether a push may be started at all (policy, step-up, rate limits) is the callers' business.
 */

export type PushPurpose = PushTransactionTable['purpose'];

export interface PushPoll {
  push: PushTransaction;
  /** True for the one poll that saw the push answered (or timed out). */
  justCompleted: boolean;
  /** The provider's status text when it just completed (for the audit log). */
  detail: string | null;
}

export interface PushService {
  readonly timeoutSeconds: number;
  /** `session`: the starter's sign-in session; only polls from that session then see the answer. */
  /** `clientAddress`: where the person who asked is (the provider's network policies; not for verification pushes). */
  start(input: {
    upn: string;
    deviceId: string;
    purpose: PushPurpose;
    actorUpn: string;
    session?: string;
    clientAddress?: string | null;
    now?: Date;
  }): Promise<{
    push: PushTransaction;
    /**
     * The code that goes with the push: for a helpdesk verification push, the one the user sees in the
     * push (read it to them); for a number-matching push, the one the user enters on the phone (show it).
     */
    confirmationCode: string | null;
  }>;
  /**
   * `deviceId` / `actorUpn` / `session` narrow the search: a push of another device, started by someone
   * else or from another sign-in session is not found (its approval grants nothing to this session).
   */
  poll(input: {
    upn: string;
    txid: string;
    purpose: PushPurpose;
    deviceId?: string;
    actorUpn?: string;
    session?: string;
    now?: Date;
  }): Promise<PushPoll>;
  /**
   * Forgets a removed account's pushes, on the ambient transaction of whoever removes the account, so
   * a later account of the same name finds none of them.
   */
  forgetAccount(upn: string): Promise<void>;
}

const iso = (d: Date | string) => new Date(d).toISOString();

function toPush(row: {
  id: string;
  device_id: string;
  state: PushTransaction['state'];
  started_at: Date;
  expires_at: Date;
  completed_at: Date | null;
}): PushTransaction {
  return {
    txid: row.id,
    deviceId: row.device_id,
    state: row.state,
    startedAt: iso(row.started_at),
    expiresAt: iso(row.expires_at),
    completedAt: row.completed_at ? iso(row.completed_at) : null,
  };
}

export function createPushService(db: Kysely<Database>, mfa: MfaProvider, opts: { timeoutSeconds?: number } = {}): PushService {
  const timeoutSeconds = opts.timeoutSeconds ?? PUSH_TIMEOUT_SECONDS;

  const repo = pushRepository(db);

  return {
    timeoutSeconds,

    async start({ upn, deviceId, purpose, actorUpn, session, clientAddress, now = new Date() }) {
      const user = upn.toLowerCase();
      let providerRef: string;
      let confirmationCode: string | null = null;
      if (purpose === 'admin_verify_identity') {
        const v = await mfa.sendVerificationPush(user, deviceId);
        providerRef = v.pushId;
        confirmationCode = v.confirmationCode;
      } else {
        const started = await mfa.startPush(user, deviceId, { purpose, ipaddr: clientAddress ?? null });
        providerRef = started.txid;
        confirmationCode = started.verificationCode;
      }
      const row = await repo.insert({
        id: randomUUID(),
        upn: user,
        device_id: deviceId,
        purpose,
        provider_ref: providerRef,
        actor_upn: actorUpn.toLowerCase(),
        session_key: session ?? null,
        state: 'waiting',
        started_at: now,
        expires_at: new Date(now.getTime() + timeoutSeconds * 1000),
      });
      return { push: toPush(row), confirmationCode };
    },

    async poll({ upn, txid, purpose, deviceId, actorUpn, session, now = new Date() }) {
      const user = upn.toLowerCase();
      const row = await repo.find({ id: txid, upn: user, purpose, deviceId, actorUpn: actorUpn?.toLowerCase(), session });
      if (!row) throw new MfaError('push_not_found');
      if (row.state !== 'waiting') return { push: toPush(row), justCompleted: false, detail: null };

      let answer: PushState;
      if (now.getTime() >= new Date(row.expires_at).getTime()) {
        answer = { state: 'timeout', detail: `No answer within ${timeoutSeconds} seconds` };
      } else {
        answer =
          purpose === 'admin_verify_identity'
            ? await mfa.verificationPushResponse(user, row.provider_ref)
            : await mfa.pushStatus(user, row.provider_ref);
      }
      if (answer.state === 'waiting') return { push: toPush(row), justCompleted: false, detail: null };
      const done = await repo.complete(row.id, answer.state, now);
      if (!done) {
        const again = await repo.get(row.id);
        return { push: toPush(again), justCompleted: false, detail: null };
      }
      return { push: toPush(done), justCompleted: true, detail: answer.detail };
    },

    async forgetAccount(upn) {
      await repo.deleteAccount(upn);
    },
  };
}
