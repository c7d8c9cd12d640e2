import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACTOR_KINDS, ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import { loadIdpSecrets } from '../../idp/secrets.js';
import { meTestApp, type MeTestApp } from '../../../test/me-api.js';
import { adminSnapshot, deviceIdOf, JUSTIFY, type Method } from '../../../test/admin-api.js';

/**
 * The authorisation matrix (issue 5): every /api/admin and /api/me route × every kind of caller ×
 * {own, other, protected account}, with the expected status (and error code where it says why), and
 * for every refused call (400, 401, 403, 404, 409) proof that the stored data did not change.
 *
 * Callers: no token, an expired token, a forged one (right kid, another key), one for another audience,
 * and valid tokens of staff (bob), a Helpdesk Administrator and a Solution Administrator. The invalid
 * tokens carry the Solution Administrator's identity and roles: claims of an unverified token count for nothing.
 * Targets: the caller's own account, another staff member's (alice, erin), and a protected account
 * (prot@example.com, a Solution Administrator known to the portal). On /api/me the target is whose
 * ids are in the path (another user's ids are "not found"), and helpdesk and admin callers are
 * themselves protected-account holders (their own MFA changes are refused).
 *
 * Tokens without a second factor: the Helpdesk and Solution Administrators signed in with a password
 * alone (`amr: ['pwd']`, as the embedded provider writes for an account without a device). Every
 * /api/admin route refuses them (403 `auth.mfa_required`, nothing read or changed); /api/me answers them
 * as it answers the same person with a second factor (self-service stays open, to enrol a first device).
 */

const CALLERS = [
  'none',
  'expired',
  'forged',
  'wrong_audience',
  'staff',
  'helpdesk',
  'solution_admin',
  'helpdesk_password_only',
  'solution_admin_password_only',
] as const;
type Caller = (typeof CALLERS)[number];
const TARGETS = ['own', 'other', 'protected'] as const;
type TargetKind = (typeof TARGETS)[number];

const IDENTITY: Record<Exclude<Caller, 'none'>, { upn: string; roles: string[] }> = {
  expired: { upn: 'admin@example.com', roles: [ROLE_SOLUTION_ADMIN] },
  forged: { upn: 'admin@example.com', roles: [ROLE_SOLUTION_ADMIN] },
  wrong_audience: { upn: 'admin@example.com', roles: [ROLE_SOLUTION_ADMIN] },
  staff: { upn: 'bob@example.com', roles: [] },
  helpdesk: { upn: 'helpdesk@example.com', roles: [ROLE_HELPDESK] },
  solution_admin: { upn: 'admin@example.com', roles: [ROLE_SOLUTION_ADMIN] },
  helpdesk_password_only: { upn: 'helpdesk@example.com', roles: [ROLE_HELPDESK] },
  solution_admin_password_only: { upn: 'admin@example.com', roles: [ROLE_SOLUTION_ADMIN] },
};
const PASSWORD_ONLY: ReadonlyMap<Caller, Caller> = new Map([
  ['helpdesk_password_only', 'helpdesk'],
  ['solution_admin_password_only', 'solution_admin'],
]);
const MFA_REQUIRED: Expect = { status: 403, code: 'auth.mfa_required' };
const OTHER = 'erin@example.com';
const PROTECTED = 'prot@example.com';
const REFUSED: ReadonlySet<number> = new Set([400, 401, 403, 404, 409]);
const INVALID: ReadonlySet<Caller> = new Set(['none', 'expired', 'forged', 'wrong_audience']);

interface Fixture {
  /** Per account: a device id, a hardware-token device id and serial, a bypass-code id. */
  ids: Record<string, { device: string; token: string; serial: string; bypass: string }>;
}
interface Ctx {
  caller: Caller;
  target: TargetKind;
  /** UPN the call is about (own = the caller's). */
  upn: string;
  ids: Fixture['ids'][string];
}
interface Expect {
  status: number;
  code?: string;
}
interface RouteCase {
  method: Method;
  route: string;
  path(c: Ctx): string;
  body?(c: Ctx): unknown;
  /** Outcome for a valid token. */
  expect(c: Ctx): Expect;
  /** Undoes what an allowed call did that would change the next rows (a sign-out revokes the caller's tokens). */
  cleanup?(): Promise<void>;
}

const ok = (status = 200): Expect => ({ status });
const clearRevocations = async () => void (await m.db.deleteFrom('session_revocation').execute());
const err = (status: number, code: string): Expect => ({ status, code });
const FORBIDDEN = err(403, 'auth.forbidden');
const PROTECTED_SELF = err(403, 'auth.protected_account');
const STEP_UP = err(403, 'auth.step_up_required');
const NOT_SUPPORTED = err(409, 'mfa.not_supported_by_provider');
/** Well-formed (not genuine) WebAuthn answers: the challenge is refused before they are read. */
const REGISTRATION_SHAPE = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
};
const ASSERTION_SHAPE = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
};
const isProtectedCaller = (c: Ctx) => c.caller === 'helpdesk' || c.caller === 'solution_admin';

/** Self-service: the caller's own resources, or another user's ids (not found). */
const meRoutes: RouteCase[] = [
  { method: 'GET', route: 'GET /api/me/devices', path: () => '/api/me/devices', expect: () => ok() },
  {
    method: 'POST',
    route: 'POST /api/me/devices/authenticator',
    path: () => '/api/me/devices/authenticator',
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : STEP_UP),
  },
  {
    method: 'POST',
    route: 'POST /api/me/devices/authenticator/:enrolmentId/confirm',
    path: () => `/api/me/devices/authenticator/${randomUUID()}/confirm`,
    body: () => ({ code: '123456', name: 'Matrix' }),
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : err(404, 'enrolment.not_found')),
  },
  {
    method: 'POST',
    route: 'POST /api/me/devices/hardware-token',
    path: () => '/api/me/devices/hardware-token',
    body: (c) => ({ serial: c.ids.serial, codes: ['123456', '234567'] }),
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : STEP_UP),
  },
  {
    method: 'POST',
    route: 'POST /api/me/devices/:id/resync',
    path: (c) => `/api/me/devices/${c.ids.token}/resync`,
    body: () => ({ codes: ['111111', '222222', '333333'] }),
    expect: (c) =>
      isProtectedCaller(c) ? PROTECTED_SELF : c.target === 'own' ? err(422, 'mfa.code_invalid') : err(404, 'device.not_found'),
  },
  {
    method: 'PATCH',
    route: 'PATCH /api/me/devices/:id',
    path: (c) => `/api/me/devices/${c.ids.device}`,
    body: () => ({ name: 'Matrix phone' }),
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : c.target === 'own' ? ok() : err(404, 'device.not_found')),
  },
  {
    method: 'DELETE',
    route: 'DELETE /api/me/devices/:id',
    path: (c) => `/api/me/devices/${c.ids.device}`,
    // Step-up is checked before the device is looked up.
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : STEP_UP),
  },
  {
    method: 'POST',
    route: 'POST /api/me/devices/:id/test',
    path: (c) => `/api/me/devices/${c.ids.token}/test`,
    body: () => ({ code: '000000' }),
    expect: (c) => (c.target === 'own' ? err(422, 'mfa.code_invalid') : err(404, 'device.not_found')),
  },
  { method: 'GET', route: 'GET /api/me/bypass-codes', path: () => '/api/me/bypass-codes', expect: () => ok() },
  {
    method: 'POST',
    route: 'POST /api/me/bypass-codes',
    path: () => '/api/me/bypass-codes',
    body: () => ({ count: 1, validitySeconds: 3600 }),
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : STEP_UP),
  },
  {
    method: 'DELETE',
    route: 'DELETE /api/me/bypass-codes/:id',
    path: (c) => `/api/me/bypass-codes/${c.ids.bypass}`,
    expect: (c) => (c.target === 'own' ? ok() : err(404, 'bypass.not_found')),
  },
  { method: 'GET', route: 'GET /api/me/step-up', path: () => '/api/me/step-up', expect: () => ok() },
  {
    method: 'POST',
    route: 'POST /api/me/step-up',
    path: () => '/api/me/step-up',
    body: () => ({ method: 'passcode', code: '000000' }),
    expect: () => err(422, 'mfa.code_invalid'),
  },
  { method: 'GET', route: 'GET /api/me/activity', path: () => '/api/me/activity', expect: () => ok() },
  // "This wasn't me" (issue 19): only on one's own events; an event that is not the caller's is not found.
  {
    method: 'POST',
    route: 'POST /api/me/activity/:id/report',
    path: () => '/api/me/activity/999999999/report',
    body: () => ({ signOutEverywhere: false, revokeBypassCodes: false, lockAccount: false }),
    expect: () => err(404, 'activity.event_not_found'),
  },
  // Phones and push (issue 6): the matrix runs on the builtin provider, which has no phone channel.
  { method: 'GET', route: 'GET /api/me/capabilities', path: () => '/api/me/capabilities', expect: () => ok() },
  // The default sign-in method: anyone chooses among their own devices (a preference, not a change of
  // factors: protected accounts too); another person's device is not found.
  { method: 'GET', route: 'GET /api/me/default-method', path: () => '/api/me/default-method', expect: () => ok() },
  // The factor policy: what anyone may add and use now (protected accounts too: it is read, not a change).
  { method: 'GET', route: 'GET /api/me/factor-policy', path: () => '/api/me/factor-policy', expect: () => ok() },
  // The enrolment campaign banner: only the caller's own (no person in the path); a campaign not open
  // for the caller cannot be snoozed, whoever asks.
  { method: 'GET', route: 'GET /api/me/campaign', path: () => '/api/me/campaign', expect: () => ok() },
  {
    method: 'POST',
    route: 'POST /api/me/campaign/:id/snooze',
    path: () => `/api/me/campaign/${randomUUID()}/snooze`,
    expect: () => err(404, 'campaign.not_found'),
  },
  {
    method: 'PUT',
    route: 'PUT /api/me/default-method',
    path: () => '/api/me/default-method',
    body: (c) => ({ deviceId: c.ids.token, method: 'passcode' }),
    expect: (c) => (c.target === 'own' ? ok() : err(404, 'device.not_found')),
  },
  // First-device policy (issue 15): what it asks of the caller, and redeeming an enrolment pass.
  { method: 'GET', route: 'GET /api/me/enrolment-policy', path: () => '/api/me/enrolment-policy', expect: () => ok() },
  {
    method: 'POST',
    route: 'POST /api/me/enrolment-pass',
    path: () => '/api/me/enrolment-pass',
    body: () => ({ pass: 'not-a-pass' }),
    expect: () => err(400, 'enrolment_pass.invalid'),
  },
  // Sign-out revokes (issue 14): the caller's own tokens; undone after each call so the next rows still sign in.
  {
    method: 'POST',
    route: 'POST /api/me/sign-out',
    path: () => '/api/me/sign-out',
    expect: () => ok(204),
    cleanup: clearRevocations,
  },
  {
    method: 'POST',
    route: 'POST /api/me/devices/phone',
    path: () => '/api/me/devices/phone',
    body: () => ({ number: '+15555550199', platform: 'android' }),
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : NOT_SUPPORTED),
  },
  {
    method: 'GET',
    route: 'GET /api/me/devices/:id/activation',
    path: (c) => `/api/me/devices/${c.ids.device}/activation`,
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : NOT_SUPPORTED),
  },
  {
    method: 'POST',
    route: 'POST /api/me/devices/:id/activation/sms',
    path: (c) => `/api/me/devices/${c.ids.device}/activation/sms`,
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : NOT_SUPPORTED),
  },
  {
    method: 'POST',
    route: 'POST /api/me/devices/:id/push',
    path: (c) => `/api/me/devices/${c.ids.device}/push`,
    expect: () => NOT_SUPPORTED,
  },
  {
    method: 'GET',
    route: 'GET /api/me/devices/:id/push/:txid',
    path: (c) => `/api/me/devices/${c.ids.device}/push/${randomUUID()}`,
    expect: () => err(404, 'push.not_found'),
  },
  {
    method: 'POST',
    route: 'POST /api/me/step-up/push',
    path: () => '/api/me/step-up/push',
    body: (c) => ({ deviceId: c.ids.device }),
    expect: () => NOT_SUPPORTED,
  },
  {
    method: 'GET',
    route: 'GET /api/me/step-up/push/:txid',
    path: () => `/api/me/step-up/push/${randomUUID()}`,
    expect: () => err(404, 'push.not_found'),
  },
  // The portal's own authenticator app: activation needs a step-up (everyone here has a device).
  {
    method: 'POST',
    route: 'POST /api/me/devices/authenticator-app',
    path: () => '/api/me/devices/authenticator-app',
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : STEP_UP),
  },
  {
    method: 'GET',
    route: 'GET /api/me/devices/authenticator-app/:activationId',
    path: () => `/api/me/devices/authenticator-app/${randomUUID()}`,
    expect: () => err(404, 'authenticator.activation_invalid'),
  },
  {
    method: 'GET',
    route: 'GET /api/me/push/:txid/events',
    path: () => `/api/me/push/${randomUUID()}/events`,
    expect: () => err(404, 'push.not_found'),
  },
  // Passkeys and security keys (issue 18): nobody in the matrix has one yet.
  {
    method: 'POST',
    route: 'POST /api/me/webauthn/registration',
    path: () => '/api/me/webauthn/registration',
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : STEP_UP),
  },
  {
    method: 'POST',
    route: 'POST /api/me/webauthn/registration/verify',
    path: () => '/api/me/webauthn/registration/verify',
    body: () => ({ challengeId: randomUUID(), name: 'Matrix key', response: REGISTRATION_SHAPE }),
    expect: (c) => (isProtectedCaller(c) ? PROTECTED_SELF : err(404, 'webauthn.challenge_not_found')),
  },
  {
    method: 'POST',
    route: 'POST /api/me/step-up/webauthn/options',
    path: () => '/api/me/step-up/webauthn/options',
    expect: () => err(409, 'webauthn.no_credentials'),
  },
  {
    method: 'POST',
    route: 'POST /api/me/step-up/webauthn',
    path: () => '/api/me/step-up/webauthn',
    body: () => ({ challengeId: randomUUID(), response: ASSERTION_SHAPE }),
    expect: () => err(404, 'webauthn.challenge_not_found'),
  },
  {
    method: 'POST',
    route: 'POST /api/me/devices/:id/webauthn-test/options',
    path: (c) => `/api/me/devices/${c.ids.device}/webauthn-test/options`,
    expect: (c) => (c.target === 'own' ? err(409, 'device.verification_unsupported') : err(404, 'device.not_found')),
  },
  {
    method: 'POST',
    route: 'POST /api/me/devices/:id/webauthn-test',
    path: (c) => `/api/me/devices/${c.ids.device}/webauthn-test`,
    body: () => ({ challengeId: randomUUID(), response: ASSERTION_SHAPE }),
    expect: () => err(404, 'webauthn.challenge_not_found'),
  },
];

/** Acting on one user: staff never; never on one's own account; helpdesk never on a protected one. */
function onUser(allowed: Expect) {
  return (c: Ctx): Expect => {
    if (c.caller === 'staff' || c.target === 'own') return FORBIDDEN;
    if (c.caller === 'helpdesk' && c.target === 'protected') return FORBIDDEN;
    return allowed;
  };
}
/**
 * Verify, then issue (issue 14): the issuing actions need the caller's recent verification of the user.
 * The helpdesk has recorded none in this matrix (the manual verification row runs last), so it is refused;
 * the Solution Administrator acts without one (audited as skipped).
 */
const VERIFY_FIRST = err(403, 'admin.verification_required');
const verifiedFirst = (allowed: Expect) => (c: Ctx) =>
  c.caller === 'helpdesk' && onUser(allowed)(c) === allowed ? VERIFY_FIRST : onUser(allowed)(c);
const solutionAdminOnly = (allowed: (c: Ctx) => Expect) => (c: Ctx) => (c.caller === 'solution_admin' ? allowed(c) : FORBIDDEN);
/** Every kind, enrolled and used, no limit: what the factor policy is before anyone changes it. */
const OPEN_FACTOR_POLICY = { enrol: [...FACTOR_KINDS], use: [...FACTOR_KINDS], requirePhishingResistant: false, maxPerKind: {} };

const adminRoutes: RouteCase[] = [
  {
    method: 'GET',
    route: 'GET /api/admin/users',
    path: (c) => `/api/admin/users?q=${encodeURIComponent(c.upn)}`,
    expect: (c) => (c.caller === 'staff' ? FORBIDDEN : ok()),
  },
  { method: 'GET', route: 'GET /api/admin/users/:upn', path: (c) => `/api/admin/users/${c.upn}`, expect: onUser(ok()) },
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/verify-identity',
    path: (c) => `/api/admin/users/${c.upn}/verify-identity`,
    body: () => ({ deviceId: randomUUID(), code: '123456' }),
    expect: onUser(err(404, 'device.not_found')),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/verify-identity/push',
    path: (c) => `/api/admin/users/${c.upn}/verify-identity/push`,
    body: (c) => ({ deviceId: c.ids.device }),
    expect: onUser(NOT_SUPPORTED),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/users/:upn/verify-identity/push/:txid',
    path: (c) => `/api/admin/users/${c.upn}/verify-identity/push/${randomUUID()}`,
    expect: onUser(err(404, 'push.not_found')),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/bypass-codes',
    path: (c) => `/api/admin/users/${c.upn}/bypass-codes`,
    body: () => ({ count: 1, validitySeconds: 3600, ...JUSTIFY }),
    expect: verifiedFirst(ok(201)),
  },
  {
    method: 'DELETE',
    route: 'DELETE /api/admin/users/:upn/devices/:id',
    path: (c) => `/api/admin/users/${c.upn}/devices/${randomUUID()}`,
    body: () => JUSTIFY,
    expect: verifiedFirst(err(404, 'device.not_found')),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/devices/:id/resync',
    path: (c) => `/api/admin/users/${c.upn}/devices/${c.ids.token}/resync`,
    body: () => ({ codes: ['111111', '222222', '333333'], ...JUSTIFY }),
    expect: verifiedFirst(err(422, 'mfa.code_invalid')),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/lost-device',
    path: (c) => `/api/admin/users/${c.upn}/lost-device`,
    body: () => ({ deviceId: randomUUID(), ...JUSTIFY }),
    expect: verifiedFirst(err(404, 'device.not_found')),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/sign-out-everywhere',
    path: (c) => `/api/admin/users/${c.upn}/sign-out-everywhere`,
    body: () => JUSTIFY,
    expect: onUser(ok()),
    cleanup: clearRevocations,
  },
  {
    method: 'GET',
    route: 'GET /api/admin/users/:upn/lost-device',
    path: (c) => `/api/admin/users/${c.upn}/lost-device`,
    expect: onUser(ok()),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/unlock',
    path: (c) => `/api/admin/users/${c.upn}/unlock`,
    body: () => JUSTIFY,
    expect: onUser(ok()),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/activation',
    path: (c) => `/api/admin/users/${c.upn}/activation`,
    body: () => JUSTIFY,
    expect: onUser(ok()),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/tokens',
    path: (c) => `/api/admin/tokens?q=${encodeURIComponent(c.upn)}`,
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/tokens/import',
    path: () => '/api/admin/tokens/import',
    body: () => 'serial,seed\n',
    expect: solutionAdminOnly(() => ok()),
  },
  // Retire before unassign: every token here is assigned, so retiring is refused (409) and changes nothing.
  {
    method: 'POST',
    route: 'POST /api/admin/tokens/:serial/retire',
    path: (c) => `/api/admin/tokens/${c.ids.serial}/retire`,
    body: () => JUSTIFY,
    expect: solutionAdminOnly(() => err(409, 'token.assigned')),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/tokens/:serial/unassign',
    path: (c) => `/api/admin/tokens/${c.ids.serial}/unassign`,
    body: () => JUSTIFY,
    // Taking a token from its holder is acting on them: never one's own.
    expect: solutionAdminOnly((c) => (c.target === 'own' ? FORBIDDEN : ok())),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/audit',
    path: (c) => `/api/admin/audit?target=${encodeURIComponent(c.upn)}`,
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/audit.csv',
    path: (c) => `/api/admin/audit.csv?actor=${encodeURIComponent(c.upn)}`,
    expect: solutionAdminOnly(() => ok()),
  },
  { method: 'GET', route: 'GET /api/admin/audit/verify', path: () => '/api/admin/audit/verify', expect: solutionAdminOnly(() => ok()) },
  {
    method: 'POST',
    route: 'POST /api/admin/audit/verifications',
    path: () => '/api/admin/audit/verifications',
    body: () => ({ mode: 'incremental' }),
    expect: solutionAdminOnly(() => ok(202)),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/audit/verifications/:id',
    path: () => '/api/admin/audit/verifications/00000000-0000-4000-8000-000000000000',
    expect: solutionAdminOnly(() => err(404, 'audit.verification_not_found')),
  },
  // Reports (issue 19): organisation-wide, protected accounts included: Solution Administrators only.
  {
    method: 'GET',
    route: 'GET /api/admin/reports/coverage',
    path: () => '/api/admin/reports/coverage',
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/reports/without-factor',
    path: () => '/api/admin/reports/without-factor?limit=5',
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/reports/without-factor.csv',
    path: () => '/api/admin/reports/without-factor.csv',
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/reports/locked',
    path: () => '/api/admin/reports/locked?limit=5',
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/reports/locked.csv',
    path: () => '/api/admin/reports/locked.csv',
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/reports/stale-devices',
    path: () => '/api/admin/reports/stale-devices?limit=5',
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/reports/stale-devices.csv',
    path: () => '/api/admin/reports/stale-devices.csv',
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/reports/bypass-codes',
    path: () => '/api/admin/reports/bypass-codes?limit=5',
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/reports/bypass-codes.csv',
    path: () => '/api/admin/reports/bypass-codes.csv',
    expect: solutionAdminOnly(() => ok()),
  },
  // Audit to a SIEM: each stream's state, beside the reports.
  {
    method: 'GET',
    route: 'GET /api/admin/reports/audit-streams',
    path: () => '/api/admin/reports/audit-streams',
    expect: solutionAdminOnly(() => ok()),
  },
  // Passkeys and security keys (issue 18): the Solution Administrator's policy.
  {
    method: 'GET',
    route: 'GET /api/admin/webauthn/policy',
    path: () => '/api/admin/webauthn/policy',
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'PUT',
    route: 'PUT /api/admin/webauthn/policy',
    path: () => '/api/admin/webauthn/policy',
    body: () => ({ aaguidAllowList: [], requirePhishingResistantForProtected: false }),
    expect: solutionAdminOnly(() => ok()),
  },
  // Account lifecycle and enrolment passes (issue 15): acting on one user.
  {
    method: 'GET',
    route: 'GET /api/admin/users/:upn/enrolment-passes',
    path: (c) => `/api/admin/users/${c.upn}/enrolment-passes`,
    expect: onUser(ok()),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/enrolment-passes',
    path: (c) => `/api/admin/users/${c.upn}/enrolment-passes`,
    body: () => JUSTIFY,
    expect: verifiedFirst(ok(201)),
  },
  {
    method: 'DELETE',
    route: 'DELETE /api/admin/users/:upn/enrolment-passes/:id',
    path: (c) => `/api/admin/users/${c.upn}/enrolment-passes/${randomUUID()}`,
    expect: onUser(err(404, 'enrolment_pass.not_found')),
  },
  // Disable before enable, so every account ends where it started.
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/disable',
    path: (c) => `/api/admin/users/${c.upn}/disable`,
    body: () => JUSTIFY,
    expect: onUser(ok()),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/enable',
    path: (c) => `/api/admin/users/${c.upn}/enable`,
    body: () => JUSTIFY,
    expect: onUser(ok()),
  },
  // Last: revoking bypass codes removes the fixture's codes.
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/bypass-codes/revoke',
    path: (c) => `/api/admin/users/${c.upn}/bypass-codes/revoke`,
    body: () => JUSTIFY,
    expect: onUser(ok()),
  },
  // The security notification outbox (issue 19): the Solution Administrator only.
  { method: 'GET', route: 'GET /api/admin/notifications', path: () => '/api/admin/notifications', expect: solutionAdminOnly(() => ok()) },
  // SCIM tokens: the Solution Administrator only.
  { method: 'GET', route: 'GET /api/admin/scim-tokens', path: () => '/api/admin/scim-tokens', expect: solutionAdminOnly(() => ok()) },
  {
    method: 'POST',
    route: 'POST /api/admin/scim-tokens',
    path: () => '/api/admin/scim-tokens',
    body: () => ({ name: `Matrix ${randomUUID().slice(0, 8)}` }),
    expect: solutionAdminOnly(() => ok(201)),
  },
  {
    method: 'DELETE',
    route: 'DELETE /api/admin/scim-tokens/:id',
    path: () => `/api/admin/scim-tokens/${randomUUID()}`,
    expect: solutionAdminOnly(() => err(404, 'scim_token.not_found')),
  },
  // Administrative units: the Solution Administrator defines them; every administrator may ask whom they can help.
  {
    method: 'GET',
    route: 'GET /api/admin/units/mine',
    path: () => '/api/admin/units/mine',
    expect: (c) => (c.caller === 'staff' ? FORBIDDEN : ok()),
  },
  { method: 'GET', route: 'GET /api/admin/units', path: () => '/api/admin/units', expect: solutionAdminOnly(() => ok()) },
  {
    method: 'POST',
    route: 'POST /api/admin/units',
    path: () => '/api/admin/units',
    body: () => ({ name: `Matrix ${randomUUID().slice(0, 8)}`, members: { people: [OTHER] } }),
    expect: solutionAdminOnly(() => ok(201)),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/units/:id',
    path: () => `/api/admin/units/${units.matrix}`,
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'PUT',
    route: 'PUT /api/admin/units/:id',
    path: () => `/api/admin/units/${units.spare}`,
    body: () => ({ name: 'Matrix spare', members: { people: [OTHER] } }),
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'DELETE',
    route: 'DELETE /api/admin/units/:id',
    path: () => `/api/admin/units/${randomUUID()}`,
    expect: solutionAdminOnly(() => err(404, 'unit.not_found')),
  },
  // The factor policy: the Solution Administrator only (unknown groups and overrides are refused, naming them).
  { method: 'GET', route: 'GET /api/admin/factor-policy', path: () => '/api/admin/factor-policy', expect: solutionAdminOnly(() => ok()) },
  {
    method: 'PUT',
    route: 'PUT /api/admin/factor-policy/global',
    path: () => '/api/admin/factor-policy/global',
    body: () => OPEN_FACTOR_POLICY,
    expect: solutionAdminOnly(() => ok()),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/factor-policy/groups',
    path: () => '/api/admin/factor-policy/groups',
    body: () => ({ ...OPEN_FACTOR_POLICY, groupId: randomUUID() }),
    expect: solutionAdminOnly(() => err(400, 'factor_policy.group_unknown')),
  },
  {
    method: 'PUT',
    route: 'PUT /api/admin/factor-policy/groups/:groupId',
    path: () => `/api/admin/factor-policy/groups/${randomUUID()}`,
    body: () => OPEN_FACTOR_POLICY,
    expect: solutionAdminOnly(() => err(404, 'factor_policy.override_not_found')),
  },
  {
    method: 'DELETE',
    route: 'DELETE /api/admin/factor-policy/groups/:groupId',
    path: () => `/api/admin/factor-policy/groups/${randomUUID()}`,
    expect: solutionAdminOnly(() => err(404, 'factor_policy.override_not_found')),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/factor-policy/preview',
    path: () => '/api/admin/factor-policy/preview',
    body: () => ({ scope: { kind: 'global' }, policy: OPEN_FACTOR_POLICY }),
    expect: solutionAdminOnly(() => ok()),
  },
  // Enrolment campaigns: the Solution Administrator only (an unknown group is refused, naming it).
  { method: 'GET', route: 'GET /api/admin/campaigns', path: () => '/api/admin/campaigns', expect: solutionAdminOnly(() => ok()) },
  {
    method: 'POST',
    route: 'POST /api/admin/campaigns',
    path: () => '/api/admin/campaigns',
    body: () => ({
      target: { kind: 'group', id: randomUUID() },
      requirement: 'device',
      deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      reminderIntervalDays: 2,
      maxReminders: 2,
      maxSnoozes: 2,
      snoozeDays: 1,
    }),
    expect: solutionAdminOnly(() => err(400, 'campaign.target_unknown')),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/campaigns/:id',
    path: () => `/api/admin/campaigns/${randomUUID()}`,
    expect: solutionAdminOnly(() => err(404, 'campaign.not_found')),
  },
  {
    method: 'POST',
    route: 'POST /api/admin/campaigns/:id/end',
    path: () => `/api/admin/campaigns/${randomUUID()}/end`,
    expect: solutionAdminOnly(() => err(404, 'campaign.not_found')),
  },
  {
    method: 'GET',
    route: 'GET /api/admin/directory-groups',
    path: () => '/api/admin/directory-groups?q=matrix',
    expect: solutionAdminOnly(() => ok()),
  },
  // Last: it records a verification, which would let the helpdesk pass the rows above.
  {
    method: 'POST',
    route: 'POST /api/admin/users/:upn/verify-identity/manual',
    path: (c) => `/api/admin/users/${c.upn}/verify-identity/manual`,
    body: () => ({ method: 'photo_id_video_call', ticket: 'INC-1' }),
    expect: onUser(ok(201)),
  },
];

let m: MeTestApp;
let fixture: Fixture;
/** The unit the scoped callers serve (it holds erin and the protected account), and one nobody depends on. */
const units = { matrix: '', spare: '' };
let mint: (caller: Exclude<Caller, 'none'>) => Promise<string>;

async function addProtectedAccount() {
  await m.db
    .insertInto('directory_user')
    .values({ upn: PROTECTED, display_name: 'Pat Protected', email: PROTECTED, roles: [ROLE_SOLUTION_ADMIN], last_seen_at: new Date() })
    .execute();
  const user = await m.db
    .insertInto('mfa_user')
    .values({ username: PROTECTED, email: PROTECTED, real_name: 'Pat Protected', status: 'active', status_reason: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await m.db
    .insertInto('mfa_device')
    .values({ user_id: user.id, kind: 'phone', name: 'Phone', capabilities: ['push', 'passcode'] })
    .execute();
  // Give them the available demo token D100-0003.
  const token = await m.db.selectFrom('mfa_hardware_token').select('id').where('serial', '=', 'D100-0003').executeTakeFirstOrThrow();
  await m.db
    .updateTable('mfa_hardware_token')
    .set({ status: 'assigned', user_id: user.id, assigned_at: new Date() })
    .where('id', '=', token.id)
    .execute();
  await m.db
    .insertInto('mfa_device')
    .values({
      user_id: user.id,
      kind: 'hardware_token',
      name: 'D100',
      capabilities: ['passcode'],
      serial: 'D100-0003',
      token_type: 'Duo D100',
      hardware_token_id: token.id,
      created_at: new Date(Date.now() + 1),
    })
    .execute();
}

async function idsOf(upn: string, serial: string) {
  const bypass = await m.t.app.mfa.createBypassCodes(upn, {
    count: 1,
    validitySeconds: 86_400,
    reuseCount: 1,
    replaceExisting: false,
    createdBy: 'setup',
  });
  return {
    device: await deviceIdOf(m.db, upn),
    token: await deviceIdOf(m.db, upn, 'hardware_token'),
    serial,
    bypass: bypass.codes[0]!.id,
  };
}

beforeAll(async () => {
  m = await meTestApp({ MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000', MFA_LOCKOUT_MAX_FAILURES: '100' });
  await addProtectedAccount();
  fixture = {
    ids: {
      'bob@example.com': await idsOf('bob@example.com', 'D100-0001'),
      'helpdesk@example.com': await idsOf('helpdesk@example.com', 'D100-0005'),
      'admin@example.com': await idsOf('admin@example.com', 'D100-0006'),
      [OTHER]: await idsOf(OTHER, 'D100-0004'),
      [PROTECTED]: await idsOf(PROTECTED, 'D100-0003'),
    },
  };

  const { signingKeys } = await loadIdpSecrets(m.db);
  const jwk = signingKeys[0]!;
  const realKey = await importJWK(jwk, 'RS256');
  const forgedKey = (await generateKeyPair('RS256', { extractable: true })).privateKey;
  await exportJWK(forgedKey);
  if (m.t.config.idp.mode !== 'embedded') throw new Error('embedded mode expected');
  const { issuer, audience } = m.t.config.idp;
  mint = async (caller) => {
    const who = IDENTITY[caller];
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({
      upn: who.upn,
      preferred_username: who.upn,
      email: who.upn,
      roles: who.roles,
      amr: PASSWORD_ONLY.has(caller) ? ['pwd'] : ['pwd', 'mfa'],
      sid: `matrix-${who.upn}`,
      scp: 'access_as_user',
    })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(caller === 'wrong_audience' ? 'api://another-application' : audience)
      .setSubject(`sub-${who.upn}`)
      .setIssuedAt(caller === 'expired' ? now - 7200 : now)
      .setExpirationTime(caller === 'expired' ? now - 3600 : now + 3600);
    return jwt.sign(caller === 'forged' ? forgedKey : realKey);
  };
});
afterAll(async () => m?.close());

/**
 * The administrative unit of the scope rows below: it holds erin (OTHER) and the protected account;
 * scoped@ serves it in person, grouped@ through the directory group "Matrix desk". Made through the
 * API, before every row, so the rows above also show that units leave everyone else's reach as it was.
 */
beforeAll(async () => {
  const matrixDesk = await m.db
    .insertInto('scim_group')
    .values({ display_name: 'Matrix desk', external_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const grouped = await m.db
    .insertInto('scim_user')
    .values({
      user_name: SCOPED.group.upn,
      external_id: null,
      display_name: 'Grouped Desk',
      given_name: null,
      family_name: null,
      formatted_name: null,
      emails: '[]',
      roles: JSON.stringify([{ value: ROLE_HELPDESK }]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await m.db.insertInto('scim_group_member').values({ group_id: matrixDesk.id, user_id: grouped.id }).execute();
  await m.db
    .insertInto('directory_user')
    .values({ upn: SCOPED.person.upn, display_name: 'Scoped Desk', email: SCOPED.person.upn, roles: [ROLE_HELPDESK] })
    .execute();
  const create = async (body: unknown) => {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/api/admin/units',
      headers: { authorization: `Bearer ${await mint('solution_admin')}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    if (res.statusCode !== 201) throw new Error(`creating a unit answered ${res.statusCode}: ${res.body}`);
    return (res.json() as { id: string }).id;
  };
  units.matrix = await create({
    name: 'Matrix unit',
    members: { people: [OTHER, PROTECTED] },
    helpdesk: { people: [SCOPED.person.upn], groups: [matrixDesk.id] },
  });
  units.spare = await create({ name: 'Matrix spare' });
});

function contextOf(caller: Caller, target: TargetKind): Ctx {
  const self = caller === 'none' ? IDENTITY.solution_admin.upn : IDENTITY[caller].upn;
  const upn = target === 'own' ? self : target === 'other' ? OTHER : PROTECTED;
  return { caller, target, upn, ids: fixture.ids[upn]! };
}

async function send(caller: Caller, route: RouteCase, c: Ctx): Promise<LightMyRequestResponse> {
  const body = route.body?.(c);
  const isText = typeof body === 'string';
  return m.t.app.inject({
    method: route.method,
    url: route.path(c),
    headers: {
      ...(caller === 'none' ? {} : { authorization: `Bearer ${await mint(caller)}` }),
      ...(body === undefined ? {} : { 'content-type': isText ? 'text/csv' : 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: isText ? body : JSON.stringify(body) }),
  });
}

const ROUTES = [...meRoutes, ...adminRoutes];

describe('authorisation matrix', () => {
  it('has a row for every /api/me and /api/admin route of the app (from the OpenAPI document)', async () => {
    // Every route the app answers under /api/me and /api/admin has a row here (HEAD routes aside).
    const known = new Set(ROUTES.map((r) => r.route));
    const docs = (await m.t.app.inject({ method: 'GET', url: '/api/docs' })).json() as { paths: Record<string, Record<string, unknown>> };
    const fromSwagger = Object.entries(docs.paths)
      .filter(([p]) => p.startsWith('/api/me') || p.startsWith('/api/admin'))
      .flatMap(([p, methods]) => Object.keys(methods).map((verb) => `${verb.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`));
    expect(fromSwagger.sort()).toEqual([...known].sort());
  });

  for (const route of ROUTES) {
    describe(route.route, () => {
      for (const caller of CALLERS) {
        for (const target of TARGETS) {
          // Without a second factor, one target is enough: the refusal comes before the target is read.
          if (PASSWORD_ONLY.has(caller) && target !== 'other') continue;
          it(`${caller} on ${target} account`, async () => {
            const c = contextOf(caller, target);
            const sameWithMfa = PASSWORD_ONLY.get(caller);
            const expected: Expect = INVALID.has(caller)
              ? { status: 401 }
              : sameWithMfa
                ? route.route.includes('/api/admin')
                  ? MFA_REQUIRED
                  : route.expect({ ...c, caller: sameWithMfa })
                : route.expect(c);
            const before = await adminSnapshot(m.db);
            const res = await send(caller, route, c);
            expect(
              { status: res.statusCode, ...(expected.code ? { code: (res.json() as { code?: string }).code } : {}) },
              res.body,
            ).toEqual(expected);
            // A refused call changes nothing (a wrong passcode, 422, counts toward the lockout by design).
            if (REFUSED.has(res.statusCode)) expect(await adminSnapshot(m.db), 'a refused call changed stored data').toBe(before);
            if (res.statusCode === 403 && expected.code === 'auth.forbidden') {
              const { details } = res.json() as { details?: { reason?: string } };
              expect(details?.reason).toBeTruthy();
              const last = await m.db.selectFrom('audit_event').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
              expect(last).toMatchObject({ actor_upn: IDENTITY[caller as 'staff'].upn, outcome: 'failure', reason: 'auth.forbidden' });
              expect(last.details).toMatchObject({ denyReason: details?.reason });
            }
            if (expected.code === 'auth.mfa_required') {
              const last = await m.db.selectFrom('audit_event').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
              expect(last).toMatchObject({
                actor_upn: IDENTITY[caller as 'helpdesk'].upn,
                outcome: 'failure',
                reason: 'auth.mfa_required',
              });
            }
            await route.cleanup?.();
          });
        }
      }
    });
  }
});

/**
 * Administrative units: every /api/admin route under every scope a helpdesk member can have, beside
 * the Solution Administrator and the unassigned helpdesk member above (whose answers units leave as
 * they were). Scoped callers: scoped@ (assigned to "Matrix unit" in person), grouped@ (through the
 * directory group "Matrix desk"), and helpdesk@ on a portal with HELPDESK_SCOPE_REQUIRED=true and no
 * assignment. Targets: their own account, erin and the protected account (both in the unit), alice
 * (in no unit) and nobody@ (who does not exist).
 *
 * - In the unit, a scoped member is answered as any helpdesk member (protected accounts refused as ever);
 *   every audit event the allowed request appends names the unit.
 * - Outside it, and for a person who does not exist, every route on one user answers the same 404
 *   `admin.user_not_found`, byte for byte, nothing changes, and the attempt is audited.
 * - Search finds only the unit's people; the reports are the unit's; everything else is as for helpdesk.
 * - Required but unassigned: nobody is reachable, search finds no one, and no report is readable.
 */
const SCOPED = {
  person: { upn: 'scoped@example.com', roles: [ROLE_HELPDESK] },
  group: { upn: 'grouped@example.com', roles: [ROLE_HELPDESK] },
  required: { upn: 'helpdesk@example.com', roles: [ROLE_HELPDESK] },
} as const;
type ScopedCaller = keyof typeof SCOPED;
const SCOPE_TARGETS = ['own', 'other', 'protected', 'outside', 'missing'] as const;
type ScopeTarget = (typeof SCOPE_TARGETS)[number];
const SCOPE_UPN: Record<Exclude<ScopeTarget, 'own'>, string> = {
  other: OTHER,
  protected: PROTECTED,
  outside: 'alice@example.com',
  missing: 'nobody@example.com',
};
const NOT_FOUND = err(404, 'admin.user_not_found');
const isUnitReport = (r: RouteCase) => r.route.startsWith('GET /api/admin/reports/') && r.route !== 'GET /api/admin/reports/audit-streams';

function scopedExpect(route: RouteCase, caller: ScopedCaller, target: ScopeTarget, c: Ctx): Expect {
  const asHelpdesk = { ...c, caller: 'helpdesk' as const };
  if (route.route.includes(':upn')) {
    if (target === 'own') return FORBIDDEN;
    if (caller === 'required' || target === 'outside' || target === 'missing') return NOT_FOUND;
    return route.expect(asHelpdesk);
  }
  if (isUnitReport(route)) return caller === 'required' ? FORBIDDEN : route.expect({ ...asHelpdesk, caller: 'solution_admin' });
  return route.expect(asHelpdesk);
}

describe('authorisation matrix: administrative units', () => {
  let required: MeTestApp;
  beforeAll(async () => {
    required = await meTestApp({ HELPDESK_SCOPE_REQUIRED: 'true' });
  });
  afterAll(async () => required?.close());

  const dummyIds = { device: randomUUID(), token: randomUUID(), serial: 'D100-9999', bypass: randomUUID() };
  async function sendScoped(app: MeTestApp, caller: ScopedCaller, route: RouteCase, c: Ctx) {
    const who = SCOPED[caller];
    const body = route.body?.(c);
    const isText = typeof body === 'string';
    return app.t.app.inject({
      method: route.method,
      url: route.path(c),
      headers: {
        authorization: `Bearer ${await app.token(who.upn, [...who.roles])}`,
        ...(body === undefined ? {} : { 'content-type': isText ? 'text/csv' : 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: isText ? body : JSON.stringify(body) }),
    });
  }
  const lastEventId = async (app: MeTestApp) =>
    (await app.db.selectFrom('audit_event').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst())?.id ?? 0;

  for (const route of adminRoutes) {
    describe(route.route, () => {
      for (const caller of Object.keys(SCOPED) as ScopedCaller[]) {
        for (const target of SCOPE_TARGETS) {
          it(`${caller === 'required' ? 'required, unassigned' : `scoped (${caller})`} on ${target}`, async () => {
            const app = caller === 'required' ? required : m;
            const upn = target === 'own' ? SCOPED[caller].upn : SCOPE_UPN[target];
            const ids = (caller !== 'required' && fixture.ids[upn]) || dummyIds;
            // The rows' own expectations read `other` and `protected` only (both in the unit).
            const c: Ctx = {
              caller: 'helpdesk',
              target: target === 'protected' ? 'protected' : target === 'own' ? 'own' : 'other',
              upn,
              ids,
            };
            const expected = scopedExpect(route, caller, target, c);
            const before = await adminSnapshot(app.db);
            const lastId = await lastEventId(app);
            const res = await sendScoped(app, caller, route, c);
            expect(
              { status: res.statusCode, ...(expected.code ? { code: (res.json() as { code?: string }).code } : {}) },
              res.body,
            ).toEqual(expected);
            if (REFUSED.has(res.statusCode)) expect(await adminSnapshot(app.db), 'a refused call changed stored data').toBe(before);
            const appended = await app.db
              .selectFrom('audit_event')
              .selectAll()
              .where('id', '>', lastId)
              .where('actor_upn', '=', SCOPED[caller].upn)
              .orderBy('id')
              .execute();
            if (expected === NOT_FOUND) {
              // Exactly what a person who does not exist gets, and the attempt is audited.
              const missing = await sendScoped(app, caller, route, { ...c, upn: SCOPE_UPN.missing, ids: dummyIds });
              expect({ status: missing.statusCode, body: missing.body, type: missing.headers['content-type'] }).toEqual({
                status: res.statusCode,
                body: res.body,
                type: res.headers['content-type'],
              });
              expect(res.json()).toEqual({ code: 'admin.user_not_found', message: expect.any(String) });
              expect(appended.at(-1)).toMatchObject({ target_upn: upn, outcome: 'failure', reason: 'admin.user_not_found' });
              expect(appended.at(-1)?.details).toMatchObject({ denyReason: 'outside_units' });
            } else if (res.statusCode === 403 && expected.code === 'auth.forbidden') {
              expect(appended.at(-1)).toMatchObject({ outcome: 'failure', reason: 'auth.forbidden' });
              expect(appended.at(-1)?.details).not.toHaveProperty('unit');
            } else if (route.route.includes(':upn') && caller !== 'required') {
              // Allowed by the unit: every event the request appended names it.
              for (const event of appended)
                expect(event.details, event.action).toMatchObject({ unit: { id: units.matrix, name: 'Matrix unit' } });
            }
            if (route.route === 'GET /api/admin/users' && res.statusCode === 200) {
              const found = (res.json() as { users: { upn: string }[] }).users.map((u) => u.upn);
              expect(found).toEqual(caller !== 'required' && (target === 'other' || target === 'protected') ? [upn] : []);
            }
            if (route.route === 'GET /api/admin/units/mine') {
              expect(res.json()).toEqual(
                caller === 'required'
                  ? { reach: 'nobody', units: [] }
                  : { reach: 'units', units: [{ id: units.matrix, name: 'Matrix unit' }] },
              );
            }
            if (route.route === 'GET /api/admin/reports/coverage' && res.statusCode === 200) {
              // The unit's two people, counted now.
              expect(res.json()).toMatchObject({ source: 'live', current: { staff: 2 } });
            }
            await route.cleanup?.();
          });
        }
      }
    });
  }
});
