import type {
  AddPhoneBody,
  Device,
  PhoneActivationResponse,
  PushTransaction,
  SmsActivationResponse,
  StartedPush,
} from '@mfa-portal/shared';
import { AppError } from '../../lib/errors.js';
import type { RequestContext } from '../common/request-context.js';
import { auditPushResult, deviceDetails, iso, selfService, type SelfServiceDeps } from '../common/self-service.js';

/**
 * The caller's phones (`/api/me/devices/phone`, activation, test push): only with a provider that has
 * a phone channel (409 `mfa.not_supported_by_provider` otherwise, never imitated). Text messages and
 * pushes spend the verification budgets.
 */
export function createPhonesService(deps: SelfServiceDeps) {
  const { mfa, audit, pushes } = deps;
  const { clock, usableAccount, mayEnrol, requireStepUp, allowWhenDevicesExist, throttle, requireCapability, audited } = selfService(deps);

  /**
   * (Re)activating a phone hands its push channel to whoever scans the code: when the user has any
   * other device, that needs a fresh step-up, as adding a device does.
   */
  async function requireStepUpForActivation(ctx: RequestContext, deviceId: string, now: Date): Promise<void> {
    const devices = await mfa.listDevices(ctx.upn);
    if (!devices.some((d) => d.id === deviceId)) throw new AppError({ code: 'device.not_found' });
    if (devices.some((d) => d.id !== deviceId)) await requireStepUp(ctx, now);
  }

  return {
    async addPhone(ctx: RequestContext, body: AddPhoneBody): Promise<Device> {
      const now = clock();
      return audited(
        ctx,
        'device.add_phone',
        { kind: 'phone', platform: body.platform },
        async () => {
          requireCapability('phones');
          await usableAccount(ctx, now);
          await mayEnrol(ctx, 'phone');
          return mfa.addPhone(
            ctx.upn,
            { number: body.number, platform: body.platform, ...(body.name ? { name: body.name } : {}) },
            { allowWhenDevicesExist: await allowWhenDevicesExist(ctx, now) },
          );
        },
        (d) => ({ ...deviceDetails(d), phoneNumber: d.phoneNumber }),
      );
    },

    async phoneActivation(ctx: RequestContext, deviceId: string): Promise<PhoneActivationResponse> {
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

    async sendSmsActivation(ctx: RequestContext, deviceId: string): Promise<SmsActivationResponse> {
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

    async startTestPush(ctx: RequestContext, deviceId: string): Promise<StartedPush> {
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
          return pushes.start({
            upn: ctx.upn,
            deviceId,
            purpose: 'device_test',
            actorUpn: ctx.upn,
            session: ctx.session,
            clientAddress: ctx.clientAddress,
            now,
          });
        },
        (r) => ({ txid: r.push.txid }),
      );
      return { ...started.push, verificationCode: started.confirmationCode };
    },

    async testPushStatus(ctx: RequestContext, deviceId: string, txid: string): Promise<PushTransaction> {
      const polled = await pushes.poll({ upn: ctx.upn, txid, purpose: 'device_test', deviceId, session: ctx.session, now: clock() });
      if (polled.justCompleted) await auditPushResult(audit, ctx, 'device.test_push', polled.push, polled.detail);
      return polled.push;
    },
  };
}

export type PhonesService = ReturnType<typeof createPhonesService>;
