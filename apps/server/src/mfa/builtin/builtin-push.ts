import { randomInt, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PushRequestKind } from '@mfa-portal/shared';
import type { MfaPushRequestTable, PushRequestContext } from '../../db/schema.js';
import { unitOfWorkOf } from '../../db/unit-of-work.js';
import { MfaError, type MfaProvider, type PushContext, type PushState } from '../port.js';
import { authenticatorRepository, type AuthenticatorRepository } from './authenticator.repository.js';
import type { BuiltinContext } from './builtin-context.js';
import { assertUsable, BUILTIN_PUSH_NEEDS_APP, builtinCapabilities, isUuid } from './builtin-mapping.js';
import { builtinRepository, type BuiltinRepository } from './builtin.repository.js';
import type { WebPushDelivery } from './web-push-delivery.js';

/**
 * Pushes of the builtin provider to phones activated in the portal's own authenticator app. A push is
 * a row (`mfa_push_request`) with a two-digit number that the browser (or the helpdesk agent) shows
 * and the person types in the app; its id is the provider's transaction id. The app learns of it by
 * Web Push when it can, and by fetching what waits for it; its answer is checked by
 * builtin-authenticator.ts. A request unanswered past the push timeout reads as `timeout`.
 */

export type BuiltinPush = Pick<MfaProvider, 'startPush' | 'pushStatus' | 'sendVerificationPush' | 'verificationPushResponse'>;

export interface BuiltinPushOptions {
  pushTimeoutSeconds: number;
  /** Web Push to the app; null: none (the app fetches its requests itself). */
  delivery: WebPushDelivery | null;
}

/** Requests are kept this long after they end (a denial can still be reported), then forgotten. */
export const PUSH_REQUEST_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** The application the phone names when the caller said nothing of it. */
const DEFAULT_APPLICATION = 'MFA self-service portal';

const DETAIL: Record<Exclude<PushState['state'], 'waiting' | 'timeout'>, string> = {
  approved: 'Approved in the Portal Authenticator',
  denied: 'Denied in the Portal Authenticator',
  fraud: 'Denied in the Portal Authenticator and reported as not made by the user',
};

function contextOf(c: PushContext | undefined): PushRequestContext {
  return {
    application: c?.application || DEFAULT_APPLICATION,
    browser: c?.browser ?? null,
    os: c?.os ?? null,
    ipAddress: c?.ipAddress ?? null,
    location: c?.location ?? null,
    requestedBy: c?.requestedBy ?? null,
  };
}

export function builtinPush(ctx: BuiltinContext, opts: BuiltinPushOptions): BuiltinPush {
  const { db, userOrThrow } = ctx;
  const timeoutMs = opts.pushTimeoutSeconds * 1000;
  const tx = <T>(fn: (r: BuiltinRepository, a: AuthenticatorRepository) => Promise<T>): Promise<T> =>
    db.transaction().execute((trx) => fn(builtinRepository(trx), authenticatorRepository(trx)));

  async function start(username: string, deviceId: string, kind: PushRequestKind, context: PushContext | undefined, now: Date) {
    const request = await tx(async (r, a) => {
      const user = await r.findUserByUsername(username);
      assertUsable(user, now);
      // Another user's device, an unknown one and a device the app is not on are refused alike:
      // nothing tells which it was.
      const device = isUuid(deviceId) ? await r.findDevice(user.id, deviceId) : undefined;
      if (!device || !builtinCapabilities(device).includes('push') || !(await a.findDeviceKey(device.id)))
        throw new MfaError('not_supported', { reason: BUILTIN_PUSH_NEEDS_APP });
      await a.deleteOldRequests(user.id, new Date(now.getTime() - PUSH_REQUEST_RETENTION_MS));
      const row = await a.insertPushRequest({
        id: randomUUID(),
        user_id: user.id,
        device_id: device.id,
        kind,
        number: String(randomInt(10, 100)),
        context: JSON.stringify(contextOf(context)),
        created_at: now,
        expires_at: new Date(now.getTime() + timeoutMs),
      });
      return { ...row, username: user.username };
    });
    announce(request);
    return request;
  }

  /**
   * Tells the app by Web Push, in the background and never failing the push. Started inside the
   * caller's transaction, the notification waits until the request is visible to others (committed):
   * an app woken by it and asking at once then finds it. A request rolled back is never announced.
   */
  function announce(request: Pick<MfaPushRequestTable, 'id' | 'device_id' | 'kind'> & { username: string }): void {
    const delivery = opts.delivery;
    if (!delivery) return;
    const payload = { type: 'push_request', requestId: request.id, account: request.username, kind: request.kind };
    void (async () => {
      const repo = authenticatorRepository(db);
      for (let attempt = 0; attempt < 40; attempt++) {
        await sleep(attempt === 0 ? 0 : Math.min(250, 10 * attempt));
        if (unitOfWorkOf(db).inTransaction) continue;
        const row = await repo.findDeviceRequest(request.device_id, request.id);
        if (!row) continue;
        if (row.state === 'waiting') await delivery.notifyDevice(request.device_id, payload);
        return;
      }
    })().catch(() => undefined);
  }

  async function status(username: string, txid: string): Promise<PushState> {
    const user = await userOrThrow(username);
    const row = isUuid(txid) ? await authenticatorRepository(db).findPushRequest(user.id, txid) : undefined;
    if (!row) throw new MfaError('push_not_found');
    if (row.state === 'waiting' || row.state === 'timeout') {
      const now = new Date();
      if (row.state === 'waiting' && row.expires_at.getTime() > now.getTime()) return { state: 'waiting', detail: null };
      // Recorded, so the app stops showing it and every instance reads the same.
      if (row.state === 'waiting') await authenticatorRepository(db).setRequestState(row.id, 'waiting', 'timeout');
      return { state: 'timeout', detail: `No answer within ${opts.pushTimeoutSeconds} seconds` };
    }
    return { state: row.state, detail: DETAIL[row.state] };
  }

  return {
    async startPush(username, deviceId, pushOpts) {
      const request = await start(username, deviceId, pushOpts.purpose, pushOpts.context, pushOpts.now ?? new Date());
      return { txid: request.id, verificationCode: request.number };
    },
    pushStatus: status,
    async sendVerificationPush(username, deviceId, pushOpts = {}) {
      const request = await start(username, deviceId, 'helpdesk_check', pushOpts.context, pushOpts.now ?? new Date());
      return { pushId: request.id, confirmationCode: request.number };
    },
    verificationPushResponse: status,
  };
}
