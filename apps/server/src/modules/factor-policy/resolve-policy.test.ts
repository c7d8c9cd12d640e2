import { describe, expect, it } from 'vitest';
import { FACTOR_KINDS, type FactorKind, type FactorPolicyRule } from '@mfa-portal/shared';
import {
  enrolRefusal,
  inOrder,
  OPEN_POLICY,
  resolveFactorPolicy,
  splitHolding,
  usableKindsOf,
  type NamedOverride,
} from './resolve-policy.js';

const rule = (r: Partial<FactorPolicyRule>): FactorPolicyRule => ({ ...OPEN_POLICY, ...r });
const group = (name: string, r: Partial<FactorPolicyRule>): NamedOverride => ({ ...rule(r), groupId: `id-${name}`, groupName: name });
const sorted = (s: ReadonlySet<FactorKind>) => inOrder(s);

const contractors = group('Contractors', {
  enrol: ['passkey', 'security_key', 'authenticator_app'],
  use: ['passkey', 'security_key', 'authenticator_app'],
  maxPerKind: { security_key: 2 },
});
const finance = group('Finance', {
  enrol: ['security_key', 'authenticator_app'],
  use: ['security_key', 'authenticator_app'],
  requirePhishingResistant: true,
  maxPerKind: { security_key: 3, authenticator_app: 1 },
});

describe('resolveFactorPolicy', () => {
  it('gives someone in no overridden group the global policy', () => {
    const global = rule({
      enrol: ['passkey', 'bypass_codes'],
      use: ['passkey', 'bypass_codes', 'hardware_token'],
      maxPerKind: { passkey: 4 },
    });
    const p = resolveFactorPolicy(global, []);
    expect(sorted(p.use)).toEqual(['passkey', 'hardware_token', 'bypass_codes']);
    expect(sorted(p.enrol)).toEqual(['passkey', 'bypass_codes']);
    expect(p.maxPerKind).toEqual({ passkey: 4 });
    expect(p.requirePhishingResistant).toBe(false);
    expect(p.groups).toEqual([]);
  });

  it('replaces the global policy with a group override, which may allow more than the global one', () => {
    const global = rule({ enrol: ['passkey'], use: ['passkey'] });
    const factory = group('Factory', { enrol: ['hardware_token'], use: ['hardware_token', 'passkey'] });
    const p = resolveFactorPolicy(global, [factory]);
    expect(sorted(p.use)).toEqual(['passkey', 'hardware_token']);
    // A kind that may be enrolled only where it may be used too: passkeys are usable but not enrollable here.
    expect(sorted(p.enrol)).toEqual(['hardware_token']);
    expect(p.groups).toEqual([{ id: 'id-Factory', name: 'Factory' }]);
  });

  it('combines overlapping groups as the strictest: kinds every one allows, phishing-resistant if any, the smallest maximum', () => {
    // The documented example: a contractor in Finance.
    const p = resolveFactorPolicy(OPEN_POLICY, [finance, contractors]);
    expect(sorted(p.use)).toEqual(['security_key']);
    expect(sorted(p.enrol)).toEqual(['security_key']);
    expect(p.requirePhishingResistant).toBe(true);
    expect(p.maxPerKind).toEqual({ security_key: 2, authenticator_app: 1 });
    // Named in a stable order, whatever order the directory listed them in.
    expect(p.groups.map((g) => g.name)).toEqual(['Contractors', 'Finance']);
    expect(resolveFactorPolicy(OPEN_POLICY, [contractors, finance])).toEqual(p);
  });

  it('keeps a contractor outside Finance on the contractors’ policy', () => {
    const p = resolveFactorPolicy(OPEN_POLICY, [contractors]);
    expect(sorted(p.use)).toEqual(['passkey', 'security_key', 'authenticator_app']);
    expect(p.maxPerKind).toEqual({ security_key: 2 });
  });

  it('leaves only passkeys and security keys usable when phishing-resistant is required', () => {
    const p = resolveFactorPolicy(rule({ requirePhishingResistant: true }), []);
    expect(sorted(p.use)).toEqual(['passkey', 'security_key']);
    expect(sorted(p.enrol)).toEqual(['passkey', 'security_key']);
  });

  it('can leave nothing usable (the API refuses such a policy as bad input)', () => {
    const none = rule({ use: ['authenticator_app'], requirePhishingResistant: true });
    expect(usableKindsOf(none)).toEqual([]);
    expect(sorted(resolveFactorPolicy(none, []).use)).toEqual([]);
    expect(usableKindsOf(rule({ use: [] }))).toEqual([]);
    expect(usableKindsOf(OPEN_POLICY)).toEqual([...FACTOR_KINDS]);
  });
});

describe('enrolRefusal', () => {
  const p = resolveFactorPolicy(OPEN_POLICY, [contractors]);
  it('allows a kind below its maximum, and refuses at it', () => {
    expect(enrolRefusal(p, 'security_key', 1)).toBeNull();
    expect(enrolRefusal(p, 'security_key', 2)).toBe('limit_reached');
    expect(enrolRefusal(p, 'passkey', 50)).toBeNull();
  });
  it('counts what one change adds (bypass codes come several at a time)', () => {
    const codes = resolveFactorPolicy(rule({ maxPerKind: { bypass_codes: 5 } }), []);
    expect(enrolRefusal(codes, 'bypass_codes', 2, 3)).toBeNull();
    expect(enrolRefusal(codes, 'bypass_codes', 2, 4)).toBe('limit_reached');
  });
  it('says why a kind is not allowed', () => {
    expect(enrolRefusal(p, 'hardware_token', 0)).toBe('not_allowed');
    const pr = resolveFactorPolicy(OPEN_POLICY, [finance]);
    expect(enrolRefusal(pr, 'authenticator_app', 0)).toBe('phishing_resistant_required');
  });
});

describe('splitHolding', () => {
  it('sorts what a person holds into what they may use and what they may not', () => {
    const p = resolveFactorPolicy(OPEN_POLICY, [contractors]);
    expect(splitHolding(p, { authenticator_app: 1, hardware_token: 2, bypass_codes: 0 })).toEqual({
      usable: ['authenticator_app'],
      disallowed: ['hardware_token'],
    });
    expect(splitHolding(p, {})).toEqual({ usable: [], disallowed: [] });
  });
});
