import { isProtectedAccount, portalRoleOf, type PortalRole, type RoleNames } from '@mfa-portal/shared';

/**
 * The one authorisation module: every /api/me and /api/admin route asks it before acting.
 * Rules (DESIGN.md, "Roles and policy"):
 * - staff manage only their own account (self-service);
 * - a Helpdesk Administrator acts on other users, never on a protected account, never on themself
 *   through the admin screens;
 * - a Solution Administrator acts on protected accounts too (never their own), and alone manages the
 *   token inventory and reads the full audit log;
 * - a protected account (holder of a restricted role) is changed only by a Solution Administrator other
 *   than its holder: its holder cannot change their own MFA, nor mint bypass codes for themselves.
 * The target's roles must be known: an account whose roles the portal has never seen is treated as
 * protected (fail closed), so only a Solution Administrator may act on it.
 * Administrative units narrow a Helpdesk Administrator further, to the people of their units: that
 * needs the directory, so the admin authorisation applies it (modules/admin/common/admin-scope.ts).
 */

export type SelfAction =
  | 'me.read' // devices, bypass-code metadata, activity
  | 'me.verify' // test a device, step-up
  | 'me.change_mfa' // enrol, claim, resync, rename, delete, release
  | 'me.create_bypass_codes'
  | 'me.revoke_bypass_code';

export type AdminUserAction =
  | 'admin.user.read'
  | 'admin.user.verify_identity'
  | 'admin.user.create_bypass_codes'
  | 'admin.user.delete_device'
  | 'admin.user.resync_token'
  | 'admin.user.unlock'
  | 'admin.user.send_activation'
  | 'admin.user.lost_device'
  | 'admin.user.disable'
  | 'admin.user.revoke_bypass_codes'
  | 'admin.user.issue_enrolment_pass';

export type AdminGlobalAction =
  | 'admin.users.search'
  | 'admin.inventory.manage'
  | 'admin.audit.read'
  | 'admin.scim_tokens.manage'
  | 'admin.webauthn.manage'
  | 'admin.reports.read'
  | 'admin.notifications.read'
  | 'admin.units.manage'
  | 'admin.factor_policy.manage'
  | 'admin.campaigns.manage'
  | 'admin.reach.read';

export interface Actor {
  upn: string;
  roles: readonly string[];
}

export interface Target {
  upn: string;
  /** The target's roles as last seen by the portal; null when never seen. */
  roles: readonly string[] | null;
}

export type Decision = { allow: true; role: PortalRole } | { allow: false; role: PortalRole; reason: DenyReason };

export type DenyReason =
  | 'not_an_administrator'
  | 'solution_administrator_only'
  | 'own_account_via_admin'
  | 'protected_account'
  | 'protection_unknown'
  | 'protected_self_service';

const SELF_CHANGES: ReadonlySet<SelfAction> = new Set(['me.change_mfa', 'me.create_bypass_codes']);

export function createPolicy(names: RoleNames) {
  const roleOf = (actor: Actor) => portalRoleOf(actor.roles, names);
  const deny = (role: PortalRole, reason: DenyReason): Decision => ({ allow: false, role, reason });
  const allow = (role: PortalRole): Decision => ({ allow: true, role });

  return {
    roleOf,
    isProtected: (roles: readonly string[]) => isProtectedAccount(roles, names),

    /** Self-service on the caller's own account. */
    self(actor: Actor, action: SelfAction): Decision {
      const role = roleOf(actor);
      if (SELF_CHANGES.has(action) && isProtectedAccount(actor.roles, names)) return deny(role, 'protected_self_service');
      return allow(role);
    },

    /** An administrator acting on another user's account. */
    onUser(actor: Actor, target: Target, _action: AdminUserAction): Decision {
      const role = roleOf(actor);
      if (role === 'staff') return deny(role, 'not_an_administrator');
      if (target.upn.toLowerCase() === actor.upn.toLowerCase()) return deny(role, 'own_account_via_admin');
      if (role === 'solution_admin') return allow(role);
      if (target.roles === null) return deny(role, 'protection_unknown');
      if (isProtectedAccount(target.roles, names)) return deny(role, 'protected_account');
      return allow(role);
    },

    /** Actions not about one user. */
    global(actor: Actor, action: AdminGlobalAction): Decision {
      const role = roleOf(actor);
      if (role === 'staff') return deny(role, 'not_an_administrator');
      // Every administrator searches, and may ask whom they can help (administrative units narrow both).
      if (action === 'admin.users.search' || action === 'admin.reach.read') return allow(role);
      return role === 'solution_admin' ? allow(role) : deny(role, 'solution_administrator_only');
    },
  };
}

export type Policy = ReturnType<typeof createPolicy>;
