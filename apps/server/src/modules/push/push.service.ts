import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PUSH_TIMEOUT_SECONDS, type PushTransaction } from '@mfa-portal/shared';
import type { Database, PushTransactionTable } from '../../db/schema.js';
import type { IpLocator } from '../../lib/ip-locations.js';
import type { AsyncRateLimiter } from '../../lib/rate-limit/rate-limit-store.js';
import { currentRequestMeta } from '../../lib/request-meta.js';
import { MfaError, type MfaProvider, type PushContext, type PushState } from '../../mfa/port.js';
import { describeUserAgent } from '../activity/client-info.js';
import { rateLimited } from '../common/answers.js';
import { pushRepository } from './push.repository.js';

/** How long an ended push is kept (its answer is read within minutes; its history is the audit log's). */
const PUSH_KEPT_MS = 24 * 3_600_000;

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
   * The state of a push of this user (whatever its purpose) without completing it: what a stream that
   * tells the waiting browser needs. `session` narrows it to the sign-in session that started it.
   * Null when there is no such push.
   */
  peek(input: {
    upn: string;
    txid: string;
    session?: string;
    now?: Date;
  }): Promise<{ state: PushTransaction['state']; expiresAt: Date } | null>;
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

export interface PushServiceOptions {
  timeoutSeconds?: number;
  /** The application the phone names as asking (the portal's name). */
  application?: string;
  /** The place of a client address (IP_LOCATIONS), shown on the phone. */
  locate?: IpLocator;
  /** The display name of a helpdesk member, shown on the phone of a verification push. */
  displayNameOf?: (upn: string) => Promise<string | null>;
  /**
   * Pushes started per user, whatever their purpose: a flood of pushes tires people into approving
   * one (push fatigue), so the budget is the user's, not the caller's.
   */
  perUserLimiter?: AsyncRateLimiter;
  /** Each push the provider accepted, by purpose (metrics). */
  onStarted?: (purpose: PushPurpose) => void;
  /**
   * The factor policy: refuses a push to a phone the person may not use to sign in or step up
   * (asked before anything is sent for those purposes).
   */
  assertUsable?: (upn: string, deviceId: string) => Promise<void>;
}

export function createPushService(db: Kysely<Database>, mfa: MfaProvider, opts: PushServiceOptions = {}): PushService {
  const timeoutSeconds = opts.timeoutSeconds ?? PUSH_TIMEOUT_SECONDS;
  const application = opts.application ?? 'MFA self-service portal';

  const repo = pushRepository(db);

  /** What the phone shows: who asks, from which browser and system, where (the request in progress). */
  async function contextOf(purpose: PushPurpose, actorUpn: string, clientAddress: string | null): Promise<PushContext> {
    if (purpose === 'admin_verify_identity') {
      // The helpdesk member's own browser and address say nothing to the person on the phone; their name does.
      const requestedBy = (await opts.displayNameOf?.(actorUpn).catch(() => null)) ?? actorUpn;
      return { application, browser: null, os: null, ipAddress: null, location: null, requestedBy };
    }
    const { browser, os } = describeUserAgent(currentRequestMeta()?.userAgent);
    return { application, browser, os, ipAddress: clientAddress, location: opts.locate?.(clientAddress) ?? null, requestedBy: null };
  }

  return {
    timeoutSeconds,

    async start({ upn, deviceId, purpose, actorUpn, session, clientAddress, now = new Date() }) {
      const user = upn.toLowerCase();
      if (purpose === 'sign_in' || purpose === 'step_up') await opts.assertUsable?.(user, deviceId);
      if (opts.perUserLimiter) {
        const decision = await opts.perUserLimiter.consume(user);
        if (!decision.allowed) throw rateLimited(Math.max(1, Math.ceil(decision.retryAfterSeconds)));
      }
      const context = await contextOf(purpose, actorUpn, clientAddress ?? null);
      let providerRef: string;
      let confirmationCode: string | null = null;
      if (purpose === 'admin_verify_identity') {
        const v = await mfa.sendVerificationPush(user, deviceId, { context, now });
        providerRef = v.pushId;
        confirmationCode = v.confirmationCode;
      } else {
        const started = await mfa.startPush(user, deviceId, { purpose, ipaddr: clientAddress ?? null, context, now });
        providerRef = started.txid;
        confirmationCode = started.verificationCode;
      }
      opts.onStarted?.(purpose);
      // Each push starts by forgetting the person's pushes of more than a day ago, so the table holds
      // about a day of each person's pushes, whatever the size of the organisation.
      await repo.deleteStartedBefore(user, new Date(now.getTime() - PUSH_KEPT_MS));
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

    async peek({ upn, txid, session, now = new Date() }) {
      const row = await repo.findAnyPurpose({ id: txid, upn: upn.toLowerCase(), session });
      if (!row) return null;
      const expiresAt = new Date(row.expires_at);
      if (row.state !== 'waiting') return { state: row.state, expiresAt };
      if (now.getTime() >= expiresAt.getTime()) return { state: 'timeout', expiresAt };
      const answer =
        row.purpose === 'admin_verify_identity'
          ? await mfa.verificationPushResponse(row.upn, row.provider_ref)
          : await mfa.pushStatus(row.upn, row.provider_ref);
      return { state: answer.state, expiresAt };
    },

    async forgetAccount(upn) {
      await repo.deleteAccount(upn);
    },
  };
}
