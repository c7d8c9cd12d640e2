import type { Kysely } from 'kysely';
import type { Device, DeviceCapability, MfaData } from '@mfa-portal/shared';
import type { Database } from '../../db/schema.js';
import type { MfaProvider } from '../port.js';
import { builtinRepository } from './builtin.repository.js';

const CAPABILITIES: readonly DeviceCapability[] = ['push', 'passcode'];

/** Shows only the last digits of a phone number: +1 ••• ••• 0123. */
export function maskPhoneNumber(e164: string | null): string | null {
  if (!e164) return null;
  const digits = e164.replace(/\D/g, '');
  return `+${'•'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** The builtin provider: the portal's own store in the database (embedded default). */
export function createBuiltinProvider(db: Kysely<Database>): MfaProvider {
  const repo = builtinRepository(db);
  return {
    name: 'builtin',
    async getUserData(username, now = new Date()) {
      const user = await repo.findUserByUsername(username);
      if (!user) {
        return { provider: 'builtin', status: 'not_provisioned', statusReason: null, devices: [], bypassCodes: { active: 0, nextExpiresAt: null } };
      }
      const [devices, bypass] = await Promise.all([repo.listDevices(user.id), repo.bypassSummary(user.id, now)]);
      const data: MfaData = {
        provider: 'builtin',
        status: user.status,
        statusReason: user.status_reason,
        devices: devices.map(
          (d): Device => ({
            id: d.id,
            kind: d.kind,
            name: d.name,
            capabilities: d.capabilities.filter((c): c is DeviceCapability => CAPABILITIES.includes(c as DeviceCapability)),
            phoneNumber: maskPhoneNumber(d.phone_number),
            platform: d.platform,
            serial: d.serial,
            tokenType: d.token_type,
            createdAt: iso(d.created_at)!,
            lastUsedAt: iso(d.last_used_at),
          }),
        ),
        bypassCodes: { active: Number(bypass.active), nextExpiresAt: iso(bypass.next_expires_at as Date | null) },
      };
      return data;
    },
  };
}
