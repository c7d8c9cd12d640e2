import {
  ADMIN_USER_ACTIONS,
  ROLE_HELPDESK,
  ROLE_SOLUTION_ADMIN,
  type ActivityEvent,
  type AdminLostDeviceProgress,
  type AdminUserDetail,
  type AdminUsersResponse,
  type UserInfoResponse,
} from '@mfa-portal/shared';
import { phone, profile, token } from '../../test/fixtures';

/** Fixtures of the administration screens' tests (not a test file). */

export function adminProfile(role: 'helpdesk' | 'solution_admin' = 'helpdesk'): UserInfoResponse {
  const base = profile();
  const helpdesk = role === 'helpdesk';
  return {
    ...base,
    user: {
      upn: helpdesk ? 'helpdesk@example.com' : 'admin@example.com',
      email: helpdesk ? 'helpdesk@example.com' : 'admin@example.com',
      firstName: helpdesk ? 'Hana' : 'Ada',
      lastName: helpdesk ? 'Helpdesk' : 'Admin',
      displayName: helpdesk ? 'Hana Helpdesk' : 'Ada Admin',
      roles: [helpdesk ? ROLE_HELPDESK : ROLE_SOLUTION_ADMIN],
      portalRole: role,
      isProtected: true,
    },
  };
}

export const BOB_UPN = 'bob@example.com';
/** The user page's API path for bob (the client encodes the @). */
export const BOB_PATH = '/api/admin/users/bob%40example.com';

export const searchPage = (
  users: Partial<AdminUsersResponse['users'][number]>[],
  nextCursor: string | null = null,
): AdminUsersResponse => ({
  users: users.map((u) => ({
    upn: 'bob@example.com',
    email: 'bob@example.com',
    realName: 'Bob Brown',
    status: 'active',
    protection: { protected: false, reason: null },
    ...u,
  })),
  nextCursor,
});

export const event = (overrides: Partial<ActivityEvent> = {}): ActivityEvent => ({
  id: '101',
  occurredAt: '2025-05-01T10:00:00.000Z',
  actorUpn: 'helpdesk@example.com',
  actorRoles: [ROLE_HELPDESK],
  targetUpn: 'bob@example.com',
  action: 'admin.user.create_bypass_codes',
  outcome: 'success',
  reason: null,
  requestId: 'req-1',
  details: { role: 'helpdesk', reason: 'Left his phone at home', ticket: 'INC-42', count: 1 },
  ...overrides,
});

export const verifiedByPasscode: AdminUserDetail['verification'] = {
  required: true,
  windowSeconds: 900,
  current: { method: 'passcode', ticket: 'INC-42', verifiedAt: '2025-05-01T10:00:00.000Z', expiresAt: '2025-05-01T10:15:00.000Z' },
};
export const verifiedNone: AdminUserDetail['verification'] = { required: true, windowSeconds: 900, current: null };
/** A verification of bob in force, made at 12:00 (until 12:15) by `method`. */
export const verifiedAtNoon = (
  method: NonNullable<AdminUserDetail['verification']['current']>['method'],
  ticket: string | null = null,
): AdminUserDetail['verification'] => ({
  required: true,
  windowSeconds: 900,
  current: { method, ticket, verifiedAt: '2025-05-01T12:00:00.000Z', expiresAt: '2025-05-01T12:15:00.000Z' },
});

export function userDetail(overrides: Partial<AdminUserDetail> = {}, mfa: Partial<AdminUserDetail['mfa']> = {}): AdminUserDetail {
  return {
    user: { upn: 'bob@example.com', displayName: 'Bob Brown', email: 'bob@example.com', roles: [], lastSeenAt: '2025-05-01T08:00:00.000Z' },
    mfa: { ...profile().mfa, devices: [phone, token], ...mfa },
    bypassCodes: [],
    activity: [event()],
    protection: { protected: false, reason: null },
    actions: Object.fromEntries(ADMIN_USER_ACTIONS.map((a) => [a, { allowed: true, reason: null }])) as AdminUserDetail['actions'],
    // Verify, then issue: by default the caller has verified bob (see verifiedNone for the other case).
    verification: verifiedByPasscode,
    ...overrides,
  };
}

export const noProgress: AdminLostDeviceProgress = { identityCheck: null, case: null };
