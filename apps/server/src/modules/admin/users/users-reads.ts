import {
  MFA_STATUSES,
  ADMIN_USER_ACTIONS,
  type AdminUserActionName,
  type AdminUserDetail,
  type AdminUsersResponse,
} from '@mfa-portal/shared';
import type { AdminUserAction } from '../../../auth/policy.js';
import { AppError } from '../../../lib/errors.js';
import { toActivityEvent } from '../../audit/activity-event.js';
import type { RequestContext } from '../../common/request-context.js';
import { EVERYONE, type AdminScope } from '../common/admin-scope.js';
import { actorOf } from '../common/authorization.js';
import type { UsersServiceDeps } from './users-deps.js';

/**
 * What an administrator reads about users: the search, and one user's page (directory entry, MFA
 * data, bypass codes, recent activity, which actions this administrator may take, the identity check).
 * Nothing here changes anything, so nothing here is audited.
 */

const ACTIVITY_ON_DETAIL = 20;

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
type DirectoryRow = Awaited<ReturnType<UsersServiceDeps['directory']['search']>>[number];

/** The policy action behind each user action shown on a user's page. */
const USER_ACTIONS: Record<AdminUserActionName, AdminUserAction> = {
  verify_identity: 'admin.user.verify_identity',
  create_bypass_codes: 'admin.user.create_bypass_codes',
  delete_device: 'admin.user.delete_device',
  resync_token: 'admin.user.resync_token',
  unlock: 'admin.user.unlock',
  send_activation: 'admin.user.send_activation',
  disable_account: 'admin.user.disable',
  revoke_bypass_codes: 'admin.user.revoke_bypass_codes',
  issue_enrolment_pass: 'admin.user.issue_enrolment_pass',
};

export function userReads(deps: UsersServiceDeps) {
  const { mfa, audit, directory, policy, authorization, verifications } = deps;
  const clock = deps.now ?? (() => new Date());

  /**
   * A page of the portal's directory as search results. The status is the provider's as last synced
   * (Duo), or, with `accounts` (the builtin store, read for this page only), the account's now.
   */
  async function directoryPage(rows: DirectoryRow[], limit: number, accounts: boolean): Promise<AdminUsersResponse> {
    const page = rows.slice(0, limit);
    const now = clock();
    const known = accounts ? await Promise.all(page.map((r) => mfa.getAccount(r.upn, now))) : null;
    return {
      users: page.map((r, i) => ({
        upn: r.upn,
        email: r.email,
        realName: r.display_name,
        status: known ? (known[i]?.status ?? 'not_provisioned') : (MFA_STATUSES.find((s) => s === r.mfa_status) ?? 'active'),
        protection: authorization.protectionOf({
          upn: r.upn,
          displayName: r.display_name,
          email: r.email,
          roles: r.roles,
          lastSeenAt: r.last_seen_at,
        }),
      })),
      nextCursor: rows.length > limit ? (page.at(-1)?.upn ?? null) : null,
    };
  }

  return {
    /** Search; for a helpdesk member limited to units, only the people of their units (the directory's). */
    async searchUsers(
      _ctx: RequestContext,
      query: { q: string; cursor?: string; limit: number },
      scope: AdminScope = EVERYONE,
    ): Promise<AdminUsersResponse> {
      if (scope.kind === 'units') {
        const rows = deps.scopes ? await deps.scopes.searchWithin(scope, query.q, query.cursor ?? null, query.limit + 1) : [];
        return directoryPage(rows, query.limit, deps.userSearch !== 'directory');
      }
      if (deps.userSearch === 'directory') {
        // The portal's own directory (trigram index): no call to the provider per keystroke.
        return directoryPage(await directory.search(query.q, query.cursor ?? null, query.limit + 1), query.limit, false);
      }
      const page = await mfa.searchUsers(query.q, { cursor: query.cursor, limit: query.limit });
      const known = await directory.findMany(page.users.map((u) => u.username));
      return {
        users: page.users.map((u) => ({
          upn: u.username.toLowerCase(),
          email: u.email,
          realName: u.realName,
          status: u.status,
          protection: authorization.protectionOf(known.get(u.username.toLowerCase())),
        })),
        nextCursor: page.nextCursor,
      };
    },

    async getUser(ctx: RequestContext, upn: string): Promise<AdminUserDetail> {
      const now = clock();
      const [dir, data] = await Promise.all([directory.find(upn), mfa.getUserData(upn, now)]);
      if (!dir && data.status === 'not_provisioned') throw new AppError({ code: 'admin.user_not_found' });
      const [codes, page] = await Promise.all([
        data.status === 'not_provisioned' ? Promise.resolve([]) : mfa.listBypassCodes(upn, { now }),
        audit.listForUser(upn, { limit: ACTIVITY_ON_DETAIL }),
      ]);
      const role = policy.onUser(actorOf(ctx), { upn, roles: dir?.roles ?? null }, 'admin.user.read').role;
      const actions = Object.fromEntries(
        ADMIN_USER_ACTIONS.map((name) => {
          const d = policy.onUser(actorOf(ctx), { upn, roles: dir?.roles ?? null }, USER_ACTIONS[name]);
          return [name, { allowed: d.allow, reason: d.allow ? null : d.reason }];
        }),
      ) as AdminUserDetail['actions'];
      return {
        user: {
          upn: upn.toLowerCase(),
          displayName: dir?.displayName ?? '',
          email: dir?.email ?? '',
          roles: dir?.roles ?? null,
          lastSeenAt: isoOrNull(dir?.lastSeenAt ?? null),
          source: dir?.source ?? null,
          createdAt: isoOrNull(dir?.createdAt ?? null),
          updatedAt: isoOrNull(dir?.updatedAt ?? null),
          groups: dir?.groups ?? [],
        },
        mfa: data,
        bypassCodes: codes,
        activity: page.events.map((e) => {
          const { clientAddress: _omit, ...rest } = toActivityEvent(e);
          return rest;
        }),
        protection: authorization.protectionOf(dir),
        actions,
        verification: await verifications.state(ctx, role, upn),
      };
    },
  };
}
