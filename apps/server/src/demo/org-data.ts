import { ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import type { MfaUserStatus } from '../db/schema.js';
import { COMMON_SURNAMES, GIVEN_NAMES, RARE_SYLLABLES } from './org-names.js';

/**
 * The shape of a realistic organisation for `npm run seed:org`: names drawn the way
 * surnames are distributed (a few very common, a long tail of rare ones), a mix of devices, tokens and
 * bypass codes, a few administrators, and a small number of very active users who make a large share
 * of the audit events. Deterministic for a given seed: reruns with another seed grow the data set.
 */

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same organisation. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const zipfWeights = (n: number) => Array.from({ length: n }, (_, i) => 1 / (i + 1));
function weightedPicker<T>(items: readonly T[], weights: readonly number[]): (r: number) => T {
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w / total));
  return (r) => {
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return items[lo]!;
  };
}
const pickSurname = weightedPicker(COMMON_SURNAMES, zipfWeights(COMMON_SURNAMES.length));
const pickGiven = weightedPicker(
  GIVEN_NAMES,
  zipfWeights(GIVEN_NAMES.length).map((w) => Math.sqrt(w)),
);
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export type OrgDevice =
  | { kind: 'phone'; name: string; platform: 'iOS' | 'Android'; phoneNumber: string }
  | { kind: 'authenticator'; name: string }
  | { kind: 'hardware_token'; serial: string };

export interface OrgUser {
  username: string;
  givenName: string;
  familyName: string;
  roles: string[];
  /** null: the portal never saw this user sign in. */
  seenRoles: boolean;
  lastSeenAt: Date | null;
  status: MfaUserStatus;
  statusReason: string | null;
  devices: OrgDevice[];
  bypassCodes: number;
}

export const ORG_DOMAIN = 'org.example';

/** The user number `index` (global: a rerun continues the numbering) of the organisation. */
export function orgUser(index: number, rand: () => number, now: Date): OrgUser {
  // One in five has a rare surname (made of syllables: mostly unique), the others a common one.
  const familyName =
    rand() < 0.2
      ? Array.from({ length: 2 + Math.floor(rand() * 2) }, () => RARE_SYLLABLES[Math.floor(rand() * RARE_SYLLABLES.length)]!).join('')
      : pickSurname(rand());
  const givenName = pickGiven(rand());
  const username = `${givenName}.${familyName}${index}@${ORG_DOMAIN}`;
  const r = rand();
  const roles = r < 0.0005 ? [ROLE_SOLUTION_ADMIN] : r < 0.0025 ? [ROLE_HELPDESK] : [];
  const s = rand();
  const status: MfaUserStatus = s < 0.96 ? 'active' : s < 0.975 ? 'disabled' : s < 0.985 ? 'locked_out' : 'bypass';
  const statusReason = status === 'disabled' ? 'Left the organisation' : status === 'locked_out' ? 'Too many failed attempts' : null;
  const phone = (): OrgDevice => {
    const ios = rand() < 0.55;
    return {
      kind: 'phone',
      name: ios ? `iPhone ${12 + Math.floor(rand() * 5)}` : `Pixel ${5 + Math.floor(rand() * 5)}`,
      platform: ios ? 'iOS' : 'Android',
      phoneNumber: `+1555${String(Math.floor(rand() * 1e7)).padStart(7, '0')}`,
    };
  };
  const token = (): OrgDevice => ({ kind: 'hardware_token', serial: `ORG-${String(index).padStart(7, '0')}` });
  const app = (): OrgDevice => ({ kind: 'authenticator', name: rand() < 0.5 ? 'Authenticator app' : 'Work authenticator' });
  const d = rand();
  const devices: OrgDevice[] =
    d < 0.08 ? [] : d < 0.63 ? [phone()] : d < 0.78 ? [phone(), app()] : d < 0.88 ? [app()] : d < 0.95 ? [phone(), token()] : [token()];
  const seen = rand() < 0.85;
  return {
    username,
    givenName: capital(givenName),
    familyName: capital(familyName),
    roles,
    seenRoles: seen || roles.length > 0,
    lastSeenAt: seen ? new Date(now.getTime() - Math.floor(rand() * 90 * 86_400_000)) : null,
    status,
    statusReason,
    devices,
    bypassCodes: rand() < 0.03 ? 1 + Math.floor(rand() * 3) : 0,
  };
}

export interface OrgEventTemplate {
  action: string;
  outcome: 'success' | 'failure';
  reason: string | null;
  /** The actor is an administrator acting on the user (else the user acts on themselves). */
  byAdmin: boolean;
  details: Record<string, unknown> | null;
}

/** What staff and administrators do, with how often (relative weights). */
const EVENT_MIX: readonly [OrgEventTemplate, number][] = [
  [{ action: 'idp.login.password_ok', outcome: 'success', reason: null, byAdmin: false, details: null }, 25],
  [{ action: 'idp.login.password_failed', outcome: 'failure', reason: 'idp.invalid_credentials', byAdmin: false, details: null }, 4],
  [{ action: 'idp.login.second_factor_ok', outcome: 'success', reason: null, byAdmin: false, details: { method: 'passcode' } }, 15],
  [{ action: 'mfa.verify', outcome: 'success', reason: null, byAdmin: false, details: { purpose: 'sign_in' } }, 25],
  [{ action: 'mfa.verify', outcome: 'failure', reason: 'mfa.invalid_passcode', byAdmin: false, details: { purpose: 'sign_in' } }, 3],
  [{ action: 'device.rename', outcome: 'success', reason: null, byAdmin: false, details: { name: 'My phone' } }, 2],
  [{ action: 'device.delete', outcome: 'success', reason: null, byAdmin: false, details: { kind: 'phone' } }, 2],
  [{ action: 'device.enrol_confirm', outcome: 'success', reason: null, byAdmin: false, details: { kind: 'authenticator' } }, 3],
  [{ action: 'device.claim_token', outcome: 'success', reason: null, byAdmin: false, details: { serial: 'D100' } }, 1],
  [{ action: 'bypass.create', outcome: 'success', reason: null, byAdmin: false, details: { count: 5, validityHours: 24 } }, 2],
  [{ action: 'admin.user.verify_identity', outcome: 'success', reason: null, byAdmin: true, details: { ticket: 'INC-1' } }, 3],
  [
    { action: 'admin.user.create_bypass_codes', outcome: 'success', reason: null, byAdmin: true, details: { count: 1, ticket: 'INC-2' } },
    1,
  ],
  [{ action: 'admin.user.unlock', outcome: 'success', reason: null, byAdmin: true, details: { ticket: 'INC-3' } }, 1],
  [{ action: 'admin.user.delete_device', outcome: 'failure', reason: 'admin.protected_account', byAdmin: true, details: null }, 0.2],
];
export const pickEvent = weightedPicker(
  EVENT_MIX.map(([e]) => e),
  EVENT_MIX.map(([, w]) => w),
);
