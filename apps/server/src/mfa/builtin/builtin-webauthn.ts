import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Device } from '@mfa-portal/shared';
import type { Database, MfaDeviceTable, MfaUserTable } from '../../db/schema.js';
import { MfaError, type MfaProvider } from '../port.js';
import { builtinRepository } from './builtin.repository.js';
import { webauthnCredentialRepository } from './webauthn.repository.js';

type WebauthnMethods = Pick<MfaProvider, 'listWebauthnCredentials' | 'addWebauthnCredential' | 'useWebauthnCredential'>;

export interface BuiltinWebauthnDeps {
  toDevice(device: Selectable<MfaDeviceTable>, aaguid?: string): Device;
  /** Refuses a missing, disabled or locked-out user. */
  assertUsable(user: Selectable<MfaUserTable> | undefined, now: Date): asserts user is Selectable<MfaUserTable>;
}

/**
 * The builtin provider's store of WebAuthn credentials: each one is a `passkey` or
 * `security_key` device with its public key and signature counter. The ceremony (challenges, origin,
 * RP ID, signatures) is checked before these are called, by modules/webauthn.
 */
export function builtinWebauthn(db: Kysely<Database>, deps: BuiltinWebauthnDeps): WebauthnMethods {
  const tx = <T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> => db.transaction().execute(fn);

  return {
    async listWebauthnCredentials(username) {
      const user = await builtinRepository(db).findUserByUsername(username);
      if (!user) throw new MfaError('not_provisioned');
      const rows = await webauthnCredentialRepository(db).listForUser(user.id);
      return rows.map((r) => ({
        deviceId: r.device_id,
        credentialId: r.credential_id,
        publicKey: r.public_key,
        signCount: Number(r.sign_count),
        transports: [...r.transports],
      }));
    },

    async addWebauthnCredential(username, input, opts) {
      const now = opts.now ?? new Date();
      return tx(async (trx) => {
        const r = builtinRepository(trx);
        const creds = webauthnCredentialRepository(trx);
        const user = await r.lockUserByUsername(username);
        deps.assertUsable(user, now);
        if (!opts.allowWhenDevicesExist && (await r.countDevices(user.id)) > 0) throw new MfaError('has_devices');
        if (await creds.findByCredentialId(input.credentialId)) throw new MfaError('credential_exists');
        const device = await r.insertDevice({
          id: randomUUID(),
          user_id: user.id,
          kind: input.kind,
          name: input.name,
          capabilities: ['webauthn'],
          created_at: now,
        });
        await creds.insert({
          device_id: device.id,
          credential_id: input.credentialId,
          public_key: input.publicKey,
          sign_count: input.signCount,
          transports: input.transports,
          aaguid: input.aaguid,
          attachment: input.attachment,
          backup_eligible: input.backupEligible,
          backed_up: input.backedUp,
        });
        return deps.toDevice(device, input.aaguid);
      });
    },

    async useWebauthnCredential(username, deviceId, signCount, opts = {}) {
      const now = opts.now ?? new Date();
      return tx(async (trx) => {
        const r = builtinRepository(trx);
        const creds = webauthnCredentialRepository(trx);
        const user = await r.lockUserByUsername(username);
        deps.assertUsable(user, now);
        const cred = await creds.lockForDevice(user.id, deviceId);
        const device = await r.findDevice(user.id, deviceId);
        if (!cred || !device) throw new MfaError('device_not_found');
        const stored = Number(cred.sign_count);
        // An authenticator without a counter always says 0; one with a counter must move it forward.
        const forward = signCount > stored || (signCount === 0 && stored === 0);
        if (!forward) throw new MfaError('counter_regressed', { reason: `signature counter ${signCount} is not after ${stored}` });
        if (signCount !== stored && !(await creds.advanceCounter(deviceId, stored, signCount)))
          throw new MfaError('counter_regressed', { reason: 'another sign-in used this counter first' });
        await r.touchDevice(deviceId, now);
        return deps.toDevice({ ...device, last_used_at: now }, cred.aaguid);
      });
    },
  };
}
