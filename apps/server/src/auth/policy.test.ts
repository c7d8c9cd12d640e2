import { describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_NAMES } from '@mfa-portal/shared';
import { createPolicy, type AdminUserAction } from './policy.js';

const policy = createPolicy(DEFAULT_ROLE_NAMES);
const staff = { upn: 'bob@example.com', roles: [] };
const helpdesk = { upn: 'helpdesk@example.com', roles: ['Helpdesk Administrator'] };
const admin = { upn: 'admin@example.com', roles: ['Solution Administrator'] };
const admin2 = { upn: 'admin2@example.com', roles: ['Solution Administrator'] };
const USER_ACTIONS: AdminUserAction[] = [
  'admin.user.read',
  'admin.user.verify_identity',
  'admin.user.create_bypass_codes',
  'admin.user.delete_device',
  'admin.user.resync_token',
  'admin.user.unlock',
  'admin.user.send_activation',
  'admin.user.lost_device',
];

describe('policy.onUser', () => {
  it.each(USER_ACTIONS)('%s: staff are never administrators', (action) => {
    expect(policy.onUser(staff, { upn: 'alice@example.com', roles: [] }, action)).toEqual({
      allow: false,
      role: 'staff',
      reason: 'not_an_administrator',
    });
  });

  it.each(USER_ACTIONS)('%s: helpdesk may act on ordinary staff', (action) => {
    expect(policy.onUser(helpdesk, { upn: 'bob@example.com', roles: [] }, action)).toEqual({ allow: true, role: 'helpdesk' });
  });

  it.each(USER_ACTIONS)('%s: helpdesk may not act on a protected account', (action) => {
    expect(policy.onUser(helpdesk, { upn: 'admin@example.com', roles: ['Solution Administrator'] }, action)).toMatchObject({
      allow: false,
      reason: 'protected_account',
    });
    expect(policy.onUser(helpdesk, { upn: 'hd2@example.com', roles: ['Helpdesk Administrator'] }, action)).toMatchObject({
      allow: false,
      reason: 'protected_account',
    });
  });

  it.each(USER_ACTIONS)('%s: helpdesk may not act on an account whose roles are unknown', (action) => {
    expect(policy.onUser(helpdesk, { upn: 'new@example.com', roles: null }, action)).toMatchObject({
      allow: false,
      reason: 'protection_unknown',
    });
  });

  it.each(USER_ACTIONS)('%s: nobody acts on themself through the admin screens', (action) => {
    expect(policy.onUser(helpdesk, { upn: 'HELPDESK@example.com', roles: helpdesk.roles }, action)).toMatchObject({
      allow: false,
      reason: 'own_account_via_admin',
    });
    expect(policy.onUser(admin, { upn: 'admin@example.com', roles: admin.roles }, action)).toMatchObject({
      allow: false,
      reason: 'own_account_via_admin',
    });
  });

  it.each(USER_ACTIONS)('%s: a solution administrator acts on protected and unknown accounts of others', (action) => {
    expect(policy.onUser(admin, { upn: 'admin2@example.com', roles: admin2.roles }, action)).toEqual({
      allow: true,
      role: 'solution_admin',
    });
    expect(policy.onUser(admin, { upn: 'helpdesk@example.com', roles: helpdesk.roles }, action)).toEqual({
      allow: true,
      role: 'solution_admin',
    });
    expect(policy.onUser(admin, { upn: 'new@example.com', roles: null }, action)).toEqual({ allow: true, role: 'solution_admin' });
  });
});

describe('policy.global', () => {
  it('search is for both administrator roles', () => {
    expect(policy.global(helpdesk, 'admin.users.search').allow).toBe(true);
    expect(policy.global(admin, 'admin.users.search').allow).toBe(true);
    expect(policy.global(staff, 'admin.users.search').allow).toBe(false);
  });

  it.each(['admin.inventory.manage', 'admin.audit.read'] as const)('%s is for solution administrators only', (action) => {
    expect(policy.global(admin, action).allow).toBe(true);
    expect(policy.global(helpdesk, action)).toMatchObject({ allow: false, reason: 'solution_administrator_only' });
    expect(policy.global(staff, action)).toMatchObject({ allow: false, reason: 'not_an_administrator' });
  });
});

describe('policy.self', () => {
  it('staff manage their own MFA', () => {
    for (const a of ['me.read', 'me.verify', 'me.change_mfa', 'me.create_bypass_codes', 'me.revoke_bypass_code'] as const) {
      expect(policy.self(staff, a).allow).toBe(true);
    }
  });

  it('holders of a protected account read and verify, but do not change their MFA or mint bypass codes', () => {
    for (const who of [helpdesk, admin]) {
      expect(policy.self(who, 'me.read').allow).toBe(true);
      expect(policy.self(who, 'me.verify').allow).toBe(true);
      expect(policy.self(who, 'me.revoke_bypass_code').allow).toBe(true);
      expect(policy.self(who, 'me.change_mfa')).toMatchObject({ allow: false, reason: 'protected_self_service' });
      expect(policy.self(who, 'me.create_bypass_codes')).toMatchObject({ allow: false, reason: 'protected_self_service' });
    }
  });

  it('follows configured role names', () => {
    const custom = createPolicy({ helpdesk: 'MFA.Helpdesk', solutionAdmin: 'MFA.Admin', restricted: ['MFA.Admin'] });
    const hd = { upn: 'h@example.com', roles: ['MFA.Helpdesk'] };
    expect(custom.onUser(hd, { upn: 'x@example.com', roles: ['Solution Administrator'] }, 'admin.user.read').allow).toBe(true);
    expect(custom.onUser(hd, { upn: 'x@example.com', roles: ['MFA.Admin'] }, 'admin.user.read').allow).toBe(false);
    expect(custom.self(hd, 'me.change_mfa').allow).toBe(true);
  });
});
