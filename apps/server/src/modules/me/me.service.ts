import type {
  ActivityQuery,
  ActivityResponse,
  BypassCodeInfo,
  BypassCodesResponse,
  ClaimHardwareTokenBody,
  ConfirmTotpBody,
  CreateBypassCodesResponse,
  Device,
  DevicesResponse,
  StepUpBody,
  StepUpStatus,
  TestDeviceResponse,
  TotpEnrolmentResponse,
  AddPhoneBody,
  PhoneActivationResponse,
  ProviderCapabilitiesResponse,
  PushTransaction,
  SmsActivationResponse,
  StepUpPushStatus,
} from '@mfa-portal/shared';
import { AppError } from '../../lib/errors.js';
import { mfaErrorToAppError } from '../../mfa/errors.js';
import { MfaError, type MfaAccount, type MfaProvider } from '../../mfa/port.js';
import { VERIFY_FAILURE_CODES, type VerificationResult, type VerificationService } from '../../mfa/verification.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PushService } from '../push/push.service.js';
import type { StepUpService } from '../step-up/step-up.service.js';

/**
 * Self-service rules (`/api/me/...`): the caller acts on their own account only. Routes validate;
 * this service checks the account status, step-up, rate limits, calls the MFA provider and audits
 * every change and every failed attempt (never a secret or a code).
 */

export interface MeContext {
  upn: string;
  roles: readonly string[];
  requestId: string;
  clientAddress: string | null;
}

export interface MeServiceDeps {
  mfa: MfaProvider;
  audit: AuditService;
  stepUp: StepUpService;
  verification: VerificationService;
  pushes: PushService;
  totpIssuer: string;
  now?: () => Date;
}

export type CreateBypassCodesInput = { count: number; validitySeconds: number; reuseCount: number; replaceExisting: boolean };

const iso = (d: Date) => d.toISOString();

export function createMeService(deps: MeServiceDeps) {
  const { mfa, audit, stepUp, verification, pushes } = deps;
  const clock = deps.now ?? (() => new Date());

  const stepUpRequired = () => new AppError(403, 'auth.step_up_required', undefined, { maxAgeSeconds: stepUp.maxAgeSeconds });

  function toAppError(err: unknown): AppError | null {
    if (err instanceof AppError) return err;
    if (err instanceof MfaError) return mfaErrorToAppError(err, err.code === 'has_devices' ? { maxAgeSeconds: stepUp.maxAgeSeconds } : {});
    return null;
  }

  /** A provisioned, usable account: 404 when not provisioned, 403 when disabled or locked out. */
  async function usableAccount(ctx: MeContext, now: Date): Promise<MfaAccount> {
    const account = await mfa.getAccount(ctx.upn, now);
    if (!account) throw new AppError(404, 'mfa.user_not_provisioned');
    if (account.status === 'disabled')
      throw new AppError(403, 'mfa.user_disabled', undefined, account.statusReason ? { reason: account.statusReason } : undefined);
    if (account.status === 'locked_out')
      throw lockedOut(account.statusReason, account.lockedUntil ? Math.ceil((account.lockedUntil.getTime() - now.getTime()) / 1000) : null);
    return account;
  }

  function lockedOut(reason: string | null, retryAfterSeconds: number | null): AppError {
    return new AppError(
      403,
      'mfa.user_locked_out',
      undefined,
      { ...(reason ? { reason } : {}), ...(retryAfterSeconds ? { retryAfterSeconds } : {}) },
      retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : {},
    );
  }

  async function requireStepUp(ctx: MeContext, now: Date): Promise<void> {
    if (!(await stepUp.isFresh(ctx.upn, now))) throw stepUpRequired();
  }

  /** Runs a change and audits it: success with `successDetails`, or failure with the error code. */
  async function audited<T>(
    ctx: MeContext,
    action: string,
    details: Record<string, unknown>,
    fn: () => Promise<T>,
    successDetails?: (result: T) => Record<string, unknown>,
  ): Promise<T> {
    const common = {
      actor: { upn: ctx.upn, roles: ctx.roles },
      target: ctx.upn,
      action,
      requestId: ctx.requestId,
      clientAddress: ctx.clientAddress,
    };
    let result: T;
    try {
      result = await fn();
    } catch (err) {
      const appError = toAppError(err);
      await audit.append({ ...common, outcome: 'failure', reason: appError?.code ?? 'server.internal', details });
      throw appError ?? err;
    }
    await audit.append({ ...common, outcome: 'success', details: { ...details, ...successDetails?.(result) } });
    return result;
  }

  /** One attempt from the verification budgets (per user, per address); 429 with Retry-After when spent. */
  async function throttle(ctx: MeContext, action: string, details: Record<string, unknown>): Promise<void> {
    const limited = await verification.throttle({
      upn: ctx.upn,
      clientAddress: ctx.clientAddress,
      action,
      actor: { upn: ctx.upn, roles: ctx.roles },
      requestId: ctx.requestId,
      details,
    });
    if (limited) throw rateLimited(limited.retryAfterSeconds);
  }

  function rateLimited(retryAfterSeconds: number): AppError {
    return new AppError(429, 'request.rate_limited', undefined, { retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });
  }

  /** The error answering a failed verification. */
  function verificationError(result: Extract<VerificationResult, { ok: false }>): AppError {
    if (result.reason === 'rate_limited') return rateLimited(result.retryAfterSeconds);
    if (result.justLocked || result.reason === 'user_locked_out') return lockedOut(result.statusReason, result.retryAfterSeconds);
    const code = VERIFY_FAILURE_CODES[result.reason];
    switch (result.reason) {
      case 'code_invalid':
      case 'code_replayed':
        return new AppError(422, code, undefined, { field: 'code' });
      case 'user_disabled':
        return new AppError(403, code, undefined, result.statusReason ? { reason: result.statusReason } : undefined);
      case 'not_provisioned':
        return new AppError(404, code);
      case 'no_factor':
        return new AppError(409, code);
    }
  }

  /**
   * (Re)activating a phone hands its push channel to whoever scans the code: when the user has any
   * other device, that needs a fresh step-up, as adding a device does.
   */
  async function requireStepUpForActivation(ctx: MeContext, deviceId: string, now: Date): Promise<void> {
    const devices = await mfa.listDevices(ctx.upn);
    if (!devices.some((d) => d.id === deviceId)) throw new AppError(404, 'device.not_found');
    if (devices.some((d) => d.id !== deviceId)) await requireStepUp(ctx, now);
  }

  /** 409 `mfa.not_supported_by_provider` when the configured provider cannot do this: it is never imitated. */
  function requireCapability(capability: 'phones' | 'smsActivation' | 'push'): void {
    if (!mfa.capabilities[capability]) throw new MfaError('not_supported', { reason: `The ${mfa.name} MFA provider cannot do this.` });
  }

  /** Audits the end of a push (once: the poll that saw it answered). */
  async function auditPushResult(ctx: MeContext, action: string, push: PushTransaction, detail: string | null): Promise<void> {
    await audit.append({
      actor: { upn: ctx.upn, roles: ctx.roles },
      target: ctx.upn,
      action,
      outcome: push.state === 'approved' ? 'success' : 'failure',
      reason: push.state === 'approved' ? null : `push.${push.state}`,
      requestId: ctx.requestId,
      clientAddress: ctx.clientAddress,
      details: { deviceId: push.deviceId, txid: push.txid, state: push.state, ...(detail ? { detail } : {}) },
    });
  }

  const deviceDetails = (d: Device) => ({ deviceId: d.id, kind: d.kind, deviceName: d.name, ...(d.serial ? { serial: d.serial } : {}) });
  const bypassDetails = (b: BypassCodeInfo) => ({ bypassId: b.id, expiresAt: b.expiresAt });

  return {
    async listDevices(ctx: MeContext): Promise<DevicesResponse> {
      await usableAccount(ctx, clock());
      return { devices: await mfa.listDevices(ctx.upn) };
    },

    async startTotpEnrolment(ctx: MeContext): Promise<TotpEnrolmentResponse> {
      const now = clock();
      const enrolment = await audited(
        ctx,
        'device.enrol_start',
        { kind: 'authenticator' },
        async () => {
          await usableAccount(ctx, now);
          // Without a fresh step-up the provider accepts this only as the user's first device.
          const allowWhenDevicesExist = await stepUp.isFresh(ctx.upn, now);
          return mfa.startTotpEnrolment(ctx.upn, { allowWhenDevicesExist, issuer: deps.totpIssuer, now });
        },
        (e) => ({ enrolmentId: e.enrolmentId, expiresAt: iso(e.expiresAt) }),
      );
      return { ...enrolment, expiresAt: iso(enrolment.expiresAt) };
    },

    async confirmTotpEnrolment(ctx: MeContext, enrolmentId: string, body: ConfirmTotpBody): Promise<Device> {
      const now = clock();
      await throttle(ctx, 'device.enrol_confirm', { enrolmentId });
      return audited(
        ctx,
        'device.enrol_confirm',
        { enrolmentId, kind: 'authenticator' },
        async () => {
          await usableAccount(ctx, now);
          const allowWhenDevicesExist = await stepUp.isFresh(ctx.upn, now);
          return mfa.confirmTotpEnrolment(ctx.upn, enrolmentId, body, { allowWhenDevicesExist, now });
        },
        deviceDetails,
      );
    },

    async claimHardwareToken(ctx: MeContext, body: ClaimHardwareTokenBody): Promise<Device> {
      const now = clock();
      await throttle(ctx, 'device.claim_token', { serial: body.serial });
      return audited(
        ctx,
        'device.claim_token',
        { serial: body.serial, kind: 'hardware_token' },
        async () => {
          await usableAccount(ctx, now);
          const allowWhenDevicesExist = await stepUp.isFresh(ctx.upn, now);
          return mfa.claimHardwareToken(ctx.upn, body, { allowWhenDevicesExist, now });
        },
        deviceDetails,
      );
    },

    async resyncHardwareToken(ctx: MeContext, deviceId: string, codes: readonly string[]): Promise<Device> {
      const now = clock();
      await throttle(ctx, 'device.resync', { deviceId });
      return audited(ctx, 'device.resync', { deviceId }, async () => {
        await usableAccount(ctx, now);
        return mfa.resyncHardwareToken(ctx.upn, deviceId, codes, { now });
      });
    },

    async renameDevice(ctx: MeContext, deviceId: string, name: string): Promise<Device> {
      return audited(ctx, 'device.rename', { deviceId, deviceName: name }, async () => {
        await usableAccount(ctx, clock());
        return mfa.renameDevice(ctx.upn, deviceId, name);
      });
    },

    async deleteDevice(ctx: MeContext, deviceId: string, confirmLastDevice: boolean): Promise<Device> {
      const now = clock();
      return audited(
        ctx,
        'device.delete',
        { deviceId, confirmLastDevice },
        async () => {
          await usableAccount(ctx, now);
          await requireStepUp(ctx, now);
          return mfa.deleteDevice(ctx.upn, deviceId, { allowLast: confirmLastDevice });
        },
        deviceDetails,
      );
    },

    async testDevice(ctx: MeContext, deviceId: string, code: string): Promise<TestDeviceResponse> {
      const now = clock();
      await usableAccount(ctx, now);
      const result = await verification
        .verify({
          upn: ctx.upn,
          code,
          purpose: 'device_test',
          deviceId,
          methods: ['passcode'],
          actor: { upn: ctx.upn, roles: ctx.roles },
          requestId: ctx.requestId,
          clientAddress: ctx.clientAddress,
          now,
        })
        .catch((err: unknown) => {
          throw toAppError(err) ?? err;
        });
      if (!result.ok) throw verificationError(result);
      const device = (await mfa.listDevices(ctx.upn)).find((d) => d.id === deviceId);
      if (!device) throw new AppError(404, 'device.not_found');
      return { verified: true, device, verifiedAt: iso(now) };
    },

    capabilities(): ProviderCapabilitiesResponse {
      return { provider: mfa.name, ...mfa.capabilities };
    },

    async addPhone(ctx: MeContext, body: AddPhoneBody): Promise<Device> {
      const now = clock();
      return audited(
        ctx,
        'device.add_phone',
        { kind: 'phone', platform: body.platform },
        async () => {
          requireCapability('phones');
          await usableAccount(ctx, now);
          // Without a fresh step-up the provider accepts this only as the user's first device.
          const allowWhenDevicesExist = await stepUp.isFresh(ctx.upn, now);
          return mfa.addPhone(
            ctx.upn,
            { number: body.number, platform: body.platform, ...(body.name ? { name: body.name } : {}) },
            { allowWhenDevicesExist },
          );
        },
        (d) => ({ ...deviceDetails(d), phoneNumber: d.phoneNumber }),
      );
    },

    async phoneActivation(ctx: MeContext, deviceId: string): Promise<PhoneActivationResponse> {
      const now = clock();
      const a = await audited(
        ctx,
        'device.activation',
        { deviceId, channel: 'qr' },
        async () => {
          requireCapability('phones');
          await usableAccount(ctx, now);
          await requireStepUpForActivation(ctx, deviceId, now);
          return mfa.phoneActivation(ctx.upn, deviceId, { now });
        },
        (r) => ({ expiresAt: iso(r.expiresAt) }),
      );
      return { activationUrl: a.activationUrl, qrSvg: a.qrSvg, installationUrl: a.installationUrl, expiresAt: iso(a.expiresAt) };
    },

    async sendSmsActivation(ctx: MeContext, deviceId: string): Promise<SmsActivationResponse> {
      const now = clock();
      // Each text message costs and lands on a phone: the verification budgets bound them.
      await throttle(ctx, 'device.activation', { deviceId, channel: 'sms' });
      const r = await audited(
        ctx,
        'device.activation',
        { deviceId, channel: 'sms' },
        async () => {
          requireCapability('smsActivation');
          await usableAccount(ctx, now);
          await requireStepUpForActivation(ctx, deviceId, now);
          return mfa.sendSmsActivation(ctx.upn, deviceId, { now });
        },
        (x) => ({ expiresAt: iso(x.expiresAt) }),
      );
      return { sent: true, expiresAt: iso(r.expiresAt) };
    },

    async startTestPush(ctx: MeContext, deviceId: string): Promise<PushTransaction> {
      const now = clock();
      // Unwanted pushes tire people into approving one: the verification budgets bound them.
      await throttle(ctx, 'device.test_push_start', { deviceId });
      const started = await audited(
        ctx,
        'device.test_push_start',
        { deviceId },
        async () => {
          requireCapability('push');
          await usableAccount(ctx, now);
          return pushes.start({ upn: ctx.upn, deviceId, purpose: 'device_test', actorUpn: ctx.upn, now });
        },
        (r) => ({ txid: r.push.txid }),
      );
      return started.push;
    },

    async testPushStatus(ctx: MeContext, deviceId: string, txid: string): Promise<PushTransaction> {
      const polled = await pushes.poll({ upn: ctx.upn, txid, purpose: 'device_test', deviceId, now: clock() }).catch((err: unknown) => {
        throw toAppError(err) ?? err;
      });
      if (polled.justCompleted) await auditPushResult(ctx, 'device.test_push', polled.push, polled.detail);
      return polled.push;
    },

    async startStepUpPush(ctx: MeContext, deviceId: string): Promise<PushTransaction> {
      const now = clock();
      await throttle(ctx, 'step_up.push_start', { deviceId });
      const started = await audited(
        ctx,
        'step_up.push_start',
        { deviceId },
        async () => {
          requireCapability('push');
          await usableAccount(ctx, now);
          return pushes.start({ upn: ctx.upn, deviceId, purpose: 'step_up', actorUpn: ctx.upn, now });
        },
        (r) => ({ txid: r.push.txid }),
      );
      return started.push;
    },

    async stepUpPushStatus(ctx: MeContext, txid: string): Promise<StepUpPushStatus> {
      const now = clock();
      const polled = await pushes.poll({ upn: ctx.upn, txid, purpose: 'step_up', now }).catch((err: unknown) => {
        throw toAppError(err) ?? err;
      });
      if (!polled.justCompleted) return { ...polled.push, stepUp: await stepUp.status(ctx.upn, now) };
      await auditPushResult(ctx, 'step_up.push', polled.push, polled.detail);
      // An approval counts once, when first seen; the account must still be usable then.
      if (polled.push.state === 'approved') {
        await usableAccount(ctx, now);
        return { ...polled.push, stepUp: await stepUp.record(ctx.upn, 'push', now) };
      }
      return { ...polled.push, stepUp: await stepUp.status(ctx.upn, now) };
    },

    async listBypassCodes(ctx: MeContext): Promise<BypassCodesResponse> {
      const now = clock();
      await usableAccount(ctx, now);
      return { codes: await mfa.listBypassCodes(ctx.upn, { now }) };
    },

    async createBypassCodes(ctx: MeContext, body: CreateBypassCodesInput): Promise<CreateBypassCodesResponse> {
      const now = clock();
      const created = await audited(
        ctx,
        'bypass.create',
        { count: body.count, validitySeconds: body.validitySeconds, reuseCount: body.reuseCount, replaceExisting: body.replaceExisting },
        async () => {
          await usableAccount(ctx, now);
          await requireStepUp(ctx, now);
          return mfa.createBypassCodes(ctx.upn, { ...body, createdBy: ctx.upn }, { now });
        },
        (r) => ({ bypassIds: r.codes.map((c) => c.id), replaced: r.replaced }),
      );
      return { codes: created.codes.map((c) => ({ ...c, expiresAt: iso(c.expiresAt) })), replaced: created.replaced };
    },

    async revokeBypassCode(ctx: MeContext, id: string): Promise<BypassCodeInfo> {
      const now = clock();
      return audited(
        ctx,
        'bypass.revoke',
        { bypassId: id },
        async () => {
          await usableAccount(ctx, now);
          return mfa.revokeBypassCode(ctx.upn, id, { now });
        },
        bypassDetails,
      );
    },

    async stepUpStatus(ctx: MeContext): Promise<StepUpStatus> {
      const now = clock();
      await usableAccount(ctx, now);
      return stepUp.status(ctx.upn, now);
    },

    async stepUp(ctx: MeContext, body: StepUpBody): Promise<StepUpStatus> {
      const now = clock();
      await usableAccount(ctx, now);
      const result = await verification
        .verify({
          upn: ctx.upn,
          code: body.code,
          purpose: 'step_up',
          methods: [body.method],
          actor: { upn: ctx.upn, roles: ctx.roles },
          requestId: ctx.requestId,
          clientAddress: ctx.clientAddress,
          now,
        })
        .catch((err: unknown) => {
          // A provider error (e.g. a factor the provider cannot check) is a clear answer, never a 500.
          throw toAppError(err) ?? err;
        });
      if (!result.ok) throw verificationError(result);
      return stepUp.record(ctx.upn, body.method, now);
    },

    async activity(ctx: MeContext, query: ActivityQuery): Promise<ActivityResponse> {
      const page = await audit.listForUser(ctx.upn, { cursor: query.cursor, limit: query.limit });
      return {
        events: page.events.map((e) => ({
          id: e.id,
          occurredAt: new Date(e.occurredAt).toISOString(),
          actorUpn: e.actorUpn,
          actorRoles: [...e.actorRoles],
          targetUpn: e.target,
          action: e.action,
          outcome: e.outcome === 'success' ? 'success' : 'failure',
          reason: e.reason,
          requestId: e.requestId,
          details: e.details ? { ...e.details } : null,
        })),
        nextCursor: page.nextCursor,
      };
    },
  };
}

export type MeService = ReturnType<typeof createMeService>;
