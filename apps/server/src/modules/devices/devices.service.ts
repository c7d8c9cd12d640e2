import type {
  ClaimHardwareTokenBody,
  ConfirmTotpBody,
  Device,
  DevicesResponse,
  TestDeviceResponse,
  TotpEnrolmentResponse,
} from '@mfa-portal/shared';
import { AppError } from '../../lib/errors.js';
import type { RequestContext } from '../common/request-context.js';
import { deviceDetails, iso, selfService, verificationError, type SelfServiceDeps } from '../common/self-service.js';

/**
 * The caller's own devices (`/api/me/devices`): list, add an authenticator app or a hardware token,
 * resynchronise, rename, remove and test one. Adding a device when one exists, and removing one,
 * need a fresh step-up (without one, a device is added only as the first, as the first-device guard
 * allows); every change is audited.
 */
export function createDevicesService(deps: SelfServiceDeps) {
  const { mfa, verification } = deps;
  const { clock, usableAccount, mayEnrol, requireStepUp, allowWhenDevicesExist, throttle, audited } = selfService(deps);

  return {
    async listDevices(ctx: RequestContext): Promise<DevicesResponse> {
      await usableAccount(ctx, clock());
      return { devices: await mfa.listDevices(ctx.upn) };
    },

    async startTotpEnrolment(ctx: RequestContext): Promise<TotpEnrolmentResponse> {
      const now = clock();
      const enrolment = await audited(
        ctx,
        'device.enrol_start',
        { kind: 'authenticator' },
        async () => {
          await usableAccount(ctx, now);
          await mayEnrol(ctx, 'authenticator_app');
          return mfa.startTotpEnrolment(ctx.upn, {
            allowWhenDevicesExist: await allowWhenDevicesExist(ctx, now),
            issuer: deps.totpIssuer,
            now,
          });
        },
        (e) => ({ enrolmentId: e.enrolmentId, expiresAt: iso(e.expiresAt) }),
      );
      return { ...enrolment, expiresAt: iso(enrolment.expiresAt) };
    },

    async confirmTotpEnrolment(ctx: RequestContext, enrolmentId: string, body: ConfirmTotpBody): Promise<Device> {
      const now = clock();
      await throttle(ctx, 'device.enrol_confirm', { enrolmentId });
      return audited(
        ctx,
        'device.enrol_confirm',
        { enrolmentId, kind: 'authenticator' },
        async () => {
          await usableAccount(ctx, now);
          await mayEnrol(ctx, 'authenticator_app');
          return mfa.confirmTotpEnrolment(ctx.upn, enrolmentId, body, {
            allowWhenDevicesExist: await allowWhenDevicesExist(ctx, now),
            now,
          });
        },
        deviceDetails,
      );
    },

    async claimHardwareToken(ctx: RequestContext, body: ClaimHardwareTokenBody): Promise<Device> {
      const now = clock();
      await throttle(ctx, 'device.claim_token', { serial: body.serial });
      return audited(
        ctx,
        'device.claim_token',
        { serial: body.serial, kind: 'hardware_token' },
        async () => {
          await usableAccount(ctx, now);
          await mayEnrol(ctx, 'hardware_token');
          return mfa.claimHardwareToken(ctx.upn, body, { allowWhenDevicesExist: await allowWhenDevicesExist(ctx, now), now });
        },
        deviceDetails,
      );
    },

    async resyncHardwareToken(ctx: RequestContext, deviceId: string, codes: readonly string[]): Promise<Device> {
      const now = clock();
      await throttle(ctx, 'device.resync', { deviceId });
      return audited(ctx, 'device.resync', { deviceId }, async () => {
        await usableAccount(ctx, now);
        return mfa.resyncHardwareToken(ctx.upn, deviceId, codes, { now });
      });
    },

    async renameDevice(ctx: RequestContext, deviceId: string, name: string): Promise<Device> {
      return audited(ctx, 'device.rename', { deviceId, deviceName: name }, async () => {
        await usableAccount(ctx, clock());
        return mfa.renameDevice(ctx.upn, deviceId, name);
      });
    },

    async deleteDevice(ctx: RequestContext, deviceId: string, confirmLastDevice: boolean): Promise<Device> {
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

    async testDevice(ctx: RequestContext, deviceId: string, code: string): Promise<TestDeviceResponse> {
      const now = clock();
      await usableAccount(ctx, now);
      const result = await verification.verify({
        upn: ctx.upn,
        code,
        purpose: 'device_test',
        deviceId,
        methods: ['passcode'],
        actor: { upn: ctx.upn, roles: ctx.roles },
        requestId: ctx.requestId,
        clientAddress: ctx.clientAddress,
        now,
      });
      if (!result.ok) throw verificationError(result);
      const device = (await mfa.listDevices(ctx.upn)).find((d) => d.id === deviceId);
      if (!device) throw new AppError({ code: 'device.not_found' });
      return { verified: true, device, verifiedAt: iso(now) };
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
