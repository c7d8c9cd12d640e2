import { describe, expect, it } from 'vitest';
import { DEMO_STAFF } from '../../src/demo/seed.js';
import { demoTokenSeed } from '../../src/demo/demo-tokens.js';
import { hotpCode } from '../../src/mfa/common/otp.js';
import { DuoStandin } from './duo-standin.js';
import { seedDuoDemoStaff } from './portal-on-standin.js';

/** The Duo organisation the end-to-end journeys on Duo start from (e2e/playwright.duo.config.ts). */
describe('seedDuoDemoStaff', () => {
  const standin = new DuoStandin();
  seedDuoDemoStaff(standin);
  const devicesOf = (username: string) => {
    const id = standin.user(username).user_id;
    return {
      phones: [...standin.phones.values()].filter((p) => p.userIds.includes(id)).map((p) => p.name),
      tokens: [...standin.tokens.values()].filter((t) => t.userIds.includes(id)).map((t) => t.serial),
    };
  };

  it('holds every provisioned demo member with their status and devices; nomfa is absent', () => {
    for (const member of DEMO_STAFF) {
      if (!member.mfa) {
        expect(() => standin.user(member.email)).toThrow();
        continue;
      }
      expect(standin.user(member.email).status).toBe(member.mfa.status);
      if (member.email === 'dave@example.com') continue; // below
      expect(devicesOf(member.email)).toEqual({
        phones: member.mfa.devices.filter((d) => d.kind === 'phone').map((d) => d.name),
        tokens: member.mfa.devices.filter((d) => d.kind === 'hardware_token').map((d) => d.serial),
      });
    }
    expect(standin.user('disabled@example.com').status).toBe('disabled');
    expect(devicesOf('alice@example.com')).toEqual({ phones: [], tokens: [] });
    expect(devicesOf('dave@example.com')).toEqual({ phones: ['Work mobile'], tokens: ['D100-0010'] });
  });

  it('gives every token and every phone number to one user only', () => {
    const serials = [...standin.tokens.values()].map((t) => t.serial);
    expect(new Set(serials).size).toBe(serials.length);
    const numbers = [...standin.phones.values()].map((p) => p.number);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('gives the demo tokens their published seeds, so the journeys compute the same codes as on builtin', () => {
    for (const serial of [
      'D100-0001',
      'D100-0002',
      'D100-0003',
      'D100-0004',
      'D100-0005',
      'D100-0006',
      'D100-0007',
      'D100-0008',
      'D100-0009',
      'D100-0010',
    ]) {
      expect(standin.tokenCodes(serial, 2)).toEqual([hotpCode(demoTokenSeed(serial), 0), hotpCode(demoTokenSeed(serial), 1)]);
    }
    expect([...standin.tokens.values()].filter((t) => t.userIds.length === 0).map((t) => t.serial)).toEqual([
      'D100-0002',
      'D100-0003',
      'D100-0008',
      'D100-0009',
    ]);
  });
});
