import {
  PORTAL_AUTHENTICATOR_APP,
  type ActivateBody,
  type ActivateResponse,
  type AuthenticatorInfo,
  type PendingPushRequest,
  type PushAnswerBody,
  type PushAnswerResponse,
  type PushSubscriptionJson,
} from '@mfa-portal/shared';
import { AppError } from '../../lib/errors.js';
import { LOCKOUT_REASON, MfaError, type AuthenticatorApp, type MfaProvider } from '../../mfa/port.js';
import type { ActivityReportService } from '../activity/activity-report.service.js';
import type { AuditEntry, AuditService } from '../audit/audit.service.js';
import { failureCode } from '../common/error-translator.js';
import type { RequestContext } from '../common/request-context.js';

/**
 * What the portal's authenticator app does through `<base>authenticator/api/`: activate with a link's
 * token, read its pending pushes, answer them (signed by its device key) and report a denied one as
 * "This wasn't me". Every answer is audited with the device as the means, in the transaction of the
 * change; the streams of the user on every instance hear of it through the change feed, and the ones
 * of this instance at once (`changed`).
 */

/** Who calls: the device (authenticated by its key) and its owner. */
export interface DeviceCaller {
  deviceId: string;
  upn: string;
  requestId: string;
  clientAddress: string | null;
}

export interface AuthenticatorAppDeps {
  mfa: MfaProvider;
  audit: AuditService;
  activityReport: Pick<ActivityReportService, 'report'>;
  portalName: string;
  totpIssuer: string;
  pushTimeoutSeconds: number;
  /** The name the app shows for the account. */
  displayNameOf: (upn: string) => Promise<string | null>;
  /** A lock caused by a wrong number ends the user's sessions, as a wrong passcode's does. */
  onLockout?: (upn: string) => Promise<unknown>;
  /** A change committed here: this instance's streams re-read at once. */
  changed?: (users: string[]) => void;
  /**
   * The person's factor policy on adding a phone with this app, asked again when the link is used (it may
   * have changed since the link was made): a refusal uses nothing and adds nothing.
   */
  mayEnrol?: (upn: string) => Promise<void>;
  /** Each answer, by outcome (metrics). */
  onAnswer?: (outcome: 'approved' | 'denied' | 'number_mismatch' | 'refused' | 'reported') => void;
}

export function createAuthenticatorAppService(deps: AuthenticatorAppDeps) {
  const { mfa, audit } = deps;

  function app(): AuthenticatorApp {
    if (!mfa.capabilities.authenticatorApp || !mfa.authenticatorApp) throw new MfaError('not_supported');
    return mfa.authenticatorApp;
  }

  const entry = (who: DeviceCaller, e: Pick<AuditEntry, 'action' | 'outcome' | 'reason' | 'details'>): AuditEntry => ({
    actor: { upn: who.upn, roles: [] },
    target: who.upn,
    requestId: who.requestId,
    clientAddress: who.clientAddress,
    ...e,
  });

  /** The device's name for the activity ("Push approved from Portal Authenticator on Pixel 8"). */
  async function deviceNameOf(upn: string, deviceId: string): Promise<string | null> {
    const devices = await mfa.listDevices(upn).catch(() => []);
    return devices.find((d) => d.id === deviceId)?.name ?? null;
  }

  return {
    async info(): Promise<AuthenticatorInfo> {
      const vapid = mfa.capabilities.authenticatorApp && mfa.authenticatorApp ? await mfa.authenticatorApp.vapidPublicKey() : null;
      return { portalName: deps.portalName, vapidPublicKey: vapid, pushTimeoutSeconds: deps.pushTimeoutSeconds };
    },

    /** The link's token is the proof: no account is known before it is checked. */
    async activate(body: ActivateBody, meta: { requestId: string; clientAddress: string | null }): Promise<ActivateResponse> {
      const a = app();
      let done: Awaited<ReturnType<AuthenticatorApp['activate']>>;
      let owner: string | null = null;
      try {
        owner = typeof body.token === 'string' ? await a.activationOwner(body.token) : null;
        if (owner && deps.mayEnrol) await deps.mayEnrol(owner.toLowerCase());
        done = await audit.atomically(async () => {
          const r = await a.activate(body);
          const who = { ...meta, upn: r.username.toLowerCase(), deviceId: r.device.id };
          await audit.append(
            entry(who, {
              action: 'device.activate_app',
              outcome: 'success',
              details: {
                deviceId: r.device.id,
                deviceName: r.device.name,
                kind: 'phone',
                app: PORTAL_AUTHENTICATOR_APP,
                platform: body.platform,
                webPush: !!body.pushSubscription,
              },
            }),
          );
          return r;
        });
      } catch (err) {
        // Nobody is known behind a bad link: the refusal is recorded without an actor. A good link's
        // owner (refused by their policy, say) is the target, so it shows in their activity.
        if (err instanceof MfaError || err instanceof AppError)
          await audit.append({
            actor: null,
            target: owner?.toLowerCase() ?? null,
            action: 'device.activate_app',
            outcome: 'failure',
            reason: failureCode(err),
            requestId: meta.requestId,
            clientAddress: meta.clientAddress,
            details: { platform: body.platform },
          });
        throw err;
      }
      const upn = done.username.toLowerCase();
      deps.changed?.([upn]);
      return {
        deviceId: done.device.id,
        account: { upn, displayName: (await deps.displayNameOf(upn).catch(() => null)) || upn },
        passcode: { secret: done.passcodeSecret, algorithm: 'SHA1', digits: 6, period: 30, issuer: deps.totpIssuer },
      };
    },

    async pendingRequests(who: DeviceCaller): Promise<PendingPushRequest[]> {
      return app().pendingRequests(who.deviceId);
    },

    async setPushSubscription(who: DeviceCaller, subscription: PushSubscriptionJson | null): Promise<void> {
      await audit.atomically(async () => {
        await app().setPushSubscription(who.deviceId, subscription);
        await audit.append(
          entry(who, {
            action: 'device.app_push_subscription',
            outcome: 'success',
            details: { deviceId: who.deviceId, on: !!subscription },
          }),
        );
      });
    },

    async answer(who: DeviceCaller, requestId: string, body: PushAnswerBody): Promise<PushAnswerResponse> {
      if (body.answer.requestId !== requestId)
        throw new AppError({ code: 'request.invalid', details: { field: 'answer.requestId', reason: 'must be the request of the path' } });
      const a = app();
      const deviceName = await deviceNameOf(who.upn, who.deviceId);
      const details = {
        deviceId: who.deviceId,
        deviceName,
        app: PORTAL_AUTHENTICATOR_APP,
        pushRequestId: requestId,
        decision: body.answer.decision,
      };
      type Outcome = { ok: Awaited<ReturnType<AuthenticatorApp['answer']>> } | { mismatch: MfaError };
      let outcome: Outcome;
      try {
        outcome = await audit.atomically(async (): Promise<Outcome> => {
          try {
            const r = await a.answer(who.deviceId, body);
            const action = r.state === 'approved' ? 'push.approve' : 'push.deny';
            await audit.append(entry(who, { action, outcome: 'success', details: { ...details, kind: r.kind } }));
            return { ok: r };
          } catch (err) {
            // A wrong number refuses the request and counts towards the lockout: that must commit.
            if (err instanceof MfaError && err.code === 'push_number_mismatch') {
              await audit.append(entry(who, { action: 'push.approve', outcome: 'failure', reason: 'push.number_mismatch', details }));
              return { mismatch: err };
            }
            throw err;
          }
        });
      } catch (err) {
        if (err instanceof MfaError || err instanceof AppError) {
          await audit.append(entry(who, { action: `push.${body.answer.decision}`, outcome: 'failure', reason: failureCode(err), details }));
          deps.onAnswer?.('refused');
        }
        throw err;
      }
      deps.changed?.([who.upn]);
      if ('mismatch' in outcome) {
        deps.onAnswer?.('number_mismatch');
        const account = await mfa.getAccount(who.upn);
        if (account?.status === 'locked_out' && account.statusReason === LOCKOUT_REASON) await lockedByPush(who);
        throw outcome.mismatch;
      }
      deps.onAnswer?.(outcome.ok.state);
      if (outcome.ok.justLocked) await lockedByPush(who);
      return { state: outcome.ok.state, reportable: outcome.ok.state === 'denied' };
    },

    /** "This wasn't me" on a push this device denied: marked as fraud, and the activity report filed. */
    async report(who: DeviceCaller, requestId: string): Promise<{ reported: true }> {
      const a = app();
      const answered = await a.answeredRequest(who.deviceId, requestId);
      if (!answered || answered.username.toLowerCase() !== who.upn)
        throw new AppError({ code: 'push.not_found', details: { field: 'id' } });
      if (answered.state !== 'denied')
        throw new AppError({
          code: 'push.already_answered',
          details: { reason: answered.state === 'fraud' ? 'already reported' : 'only a denied request can be reported' },
        });
      const ctx: RequestContext = {
        upn: who.upn,
        roles: [],
        requestId: who.requestId,
        clientAddress: who.clientAddress,
        session: '',
        amr: [],
      };
      const denial = await findDenial(who.upn, requestId);
      await audit.atomically(async () => {
        if (!(await a.markFraud(who.deviceId, requestId)))
          throw new AppError({ code: 'push.already_answered', details: { reason: 'already reported' } });
        const event = await audit.append(
          entry(who, {
            action: 'push.report',
            outcome: 'success',
            details: { deviceId: who.deviceId, pushRequestId: requestId, kind: answered.kind },
          }),
        );
        // The existing report (the security contact is told), about the denial, or this event when the denial is not found.
        await deps.activityReport.report(ctx, denial ?? event.id, {
          signOutEverywhere: false,
          revokeBypassCodes: false,
          lockAccount: false,
        });
      });
      deps.changed?.([who.upn]);
      deps.onAnswer?.('reported');
      return { reported: true };
    },
  };

  /** The audit event of this request's denial, among the user's recent events. */
  async function findDenial(upn: string, requestId: string): Promise<string | null> {
    const page = await audit.listForUser(upn, { limit: 100 });
    return page.events.find((e) => e.action === 'push.deny' && e.details?.pushRequestId === requestId)?.id ?? null;
  }

  async function lockedByPush(who: DeviceCaller): Promise<void> {
    await audit.atomically(async () => {
      await deps.onLockout?.(who.upn);
      await audit.append(entry(who, { action: 'mfa.lockout', outcome: 'success', reason: LOCKOUT_REASON, details: { purpose: 'push' } }));
    });
  }
}

export type AuthenticatorAppService = ReturnType<typeof createAuthenticatorAppService>;
