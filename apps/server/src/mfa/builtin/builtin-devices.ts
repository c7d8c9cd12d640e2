import type { Device } from '@mfa-portal/shared';
import { verifyHotpSequence } from '../common/otp.js';
import { MfaError, type MfaProvider } from '../port.js';
import type { BuiltinContext } from './builtin-context.js';
import { assertUsable, toDevice, tokenSeedAad, RESYNC_LOOK_AHEAD } from './builtin-mapping.js';
import { webauthnCredentialRepository } from './webauthn.repository.js';

export type BuiltinDevices = Pick<
  MfaProvider,
  'listDevices' | 'claimHardwareToken' | 'resyncHardwareToken' | 'releaseHardwareToken' | 'renameDevice' | 'deleteDevice'
>;

/**
 * The user's devices in the portal's own store: listed with their authenticator models, D100 hardware
 * tokens claimed (two consecutive codes) and resynchronised, devices renamed and removed. A removed
 * token goes back to the inventory with its counter, so codes once used stay used.
 */
export function builtinDevices(ctx: BuiltinContext): BuiltinDevices {
  const { db, repo, tx, userOrThrow } = ctx;
  const { box } = ctx.keys;

  async function deleteDeviceOf(username: string, deviceId: string, allowLast: boolean, onlyTokens: boolean, now: Date): Promise<Device> {
    return tx(async (r) => {
      const user = await r.lockUserByUsername(username);
      assertUsable(user, now);
      const device = await r.findDevice(user.id, deviceId);
      if (!device) throw new MfaError('device_not_found');
      if (onlyTokens && !device.hardware_token_id) throw new MfaError('not_hardware_token');
      if (!allowLast && (await r.countDevices(user.id)) <= 1) throw new MfaError('last_device');
      await r.deleteDevice(user.id, deviceId);
      // The token goes back to the inventory with its counter: used codes stay used.
      if (device.hardware_token_id) await r.releaseToken(device.hardware_token_id, now);
      return toDevice(device);
    });
  }

  return {
    async listDevices(username) {
      const user = await userOrThrow(username);
      const [devices, aaguids] = await Promise.all([repo.listDevices(user.id), webauthnCredentialRepository(db).aaguidsOf(user.id)]);
      return devices.map((d) => toDevice(d, aaguids.get(d.id)));
    },

    async claimHardwareToken(username, input, opts) {
      const now = opts.now ?? new Date();
      return tx(async (r) => {
        const user = await r.lockUserByUsername(username);
        assertUsable(user, now);
        if (!opts.allowWhenDevicesExist && (await r.countDevices(user.id)) > 0) throw new MfaError('has_devices');
        const token = await r.lockTokenBySerial(input.serial);
        if (!token) throw new MfaError('token_not_found', { field: 'serial' });
        if (token.status !== 'available') throw new MfaError('token_not_available', { field: 'serial' });
        const seed = box.open(token.seed_sealed, tokenSeedAad(token.id));
        const result = verifyHotpSequence({ secret: seed, codes: input.codes, counter: token.counter });
        if (!result.ok) throw new MfaError('code_invalid', { field: 'codes' });
        if (!(await r.assignToken(token.id, user.id, token.counter, result.newCounter, now)))
          throw new MfaError('token_not_available', { field: 'serial' });
        const device = await r.insertDevice({
          user_id: user.id,
          kind: 'hardware_token',
          name: input.name ?? `${token.token_type} (${token.serial})`,
          capabilities: ['passcode'],
          serial: token.serial,
          token_type: token.token_type,
          hardware_token_id: token.id,
          created_at: now,
        });
        return toDevice(device);
      });
    },

    async resyncHardwareToken(username, deviceId, codes, opts = {}) {
      const now = opts.now ?? new Date();
      return tx(async (r) => {
        const user = await r.lockUserByUsername(username);
        assertUsable(user, now);
        const device = await r.findDevice(user.id, deviceId);
        if (!device) throw new MfaError('device_not_found');
        if (!device.hardware_token_id) throw new MfaError('not_hardware_token');
        const token = await r.lockTokenById(device.hardware_token_id);
        if (!token) throw new MfaError('not_hardware_token');
        const seed = box.open(token.seed_sealed, tokenSeedAad(token.id));
        const result = verifyHotpSequence({ secret: seed, codes, counter: token.counter, lookAhead: RESYNC_LOOK_AHEAD });
        if (!result.ok) throw new MfaError('code_invalid', { field: 'codes' });
        if (!(await r.advanceTokenCounter(token.id, token.counter, result.newCounter, now)))
          throw new MfaError('code_invalid', { field: 'codes' });
        return toDevice(device);
      });
    },

    releaseHardwareToken(username, deviceId, opts) {
      return deleteDeviceOf(username, deviceId, opts.allowLast, true, new Date());
    },

    async renameDevice(username, deviceId, name) {
      const now = new Date();
      const user = await repo.findUserByUsername(username);
      assertUsable(user, now);
      const device = await repo.renameDevice(user.id, deviceId, name);
      if (!device) throw new MfaError('device_not_found');
      return toDevice(device);
    },

    deleteDevice(username, deviceId, opts) {
      return deleteDeviceOf(username, deviceId, opts.allowLast, false, new Date());
    },
  };
}
