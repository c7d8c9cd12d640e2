import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { MfaProvider } from '../../mfa/port.js';
import type { AuditService } from '../audit/audit.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import { inTransaction, type ScimContext } from './scim-context.js';
import { conflict, notFound } from './scim-errors.js';
import { atProvider } from './scim-provider.js';
import { matches, parseFilter, simpleEquality } from './scim-filter.js';
import { applyPatch, parsePatchBody } from './scim-patch.js';
import { listResponse, paging, project, type ListQuery } from './scim-resources.js';
import {
  parseUserInput,
  preferredEmail,
  realNameOf,
  USER_MULTI_VALUED,
  userToJson,
  type ScimUserInput,
  type ScimUserRecord,
} from './scim-users.model.js';
import { scimRepository, type ScimRepository, type UserColumns } from './scim.repository.js';

/**
 * SCIM Users (RFC 7644) and their effects: the directory entry the policy reads (with the user's
 * `roles`, so they are known before the first sign-in), the MFA account (created without devices,
 * disabled while `active` is false, removed with its secrets on DELETE), and in the embedded mode
 * the identity provider's account with the SCIM `password`. Each change is one transaction with its
 * audit event, whose actor is the SCIM token's name.
 */

export const SCIM_DISABLED_REASON = "Deactivated in the organisation's directory";

export interface ScimUsersDeps {
  db: Kysely<Database>;
  mfa: MfaProvider;
  audit: AuditService;
  /** A deactivated or removed user's access tokens are refused at once (issue 14). */
  sessions?: Pick<SessionsService, 'revokeAll'>;
  /** `https://host/base/scim/v2/`. */
  baseUrl: string;
  /**
   * Embedded identity provider: how a SCIM `password` is hashed for it (the user then signs in there
   * with it). null: passwords are ignored (Entra ID).
   */
  hashPassword: ((password: string) => Promise<string>) | null;
  now?: () => Date;
}

function columnsOf(input: ScimUserInput, previousRoles: ScimUserRecord['roles']): UserColumns {
  return {
    userName: input.userName,
    externalId: input.externalId,
    active: input.active,
    displayName: input.displayName,
    givenName: input.name?.givenName ?? null,
    familyName: input.name?.familyName ?? null,
    formattedName: input.name?.formatted ?? null,
    emails: input.emails,
    // Roles not mentioned stay as they were: unknown roles keep an account protected.
    roles: input.roles ?? previousRoles,
  };
}

function changedAttributes(before: ScimUserRecord, after: ScimUserRecord, passwordSet: boolean): string[] {
  const out: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (before.userName !== after.userName) out.push('userName');
  if (before.externalId !== after.externalId) out.push('externalId');
  if (before.active !== after.active) out.push('active');
  if (before.displayName !== after.displayName) out.push('displayName');
  if (before.givenName !== after.givenName || before.familyName !== after.familyName || before.formattedName !== after.formattedName)
    out.push('name');
  if (!same(before.emails, after.emails)) out.push('emails');
  if (!same(before.roles, after.roles)) out.push('roles');
  if (passwordSet) out.push('password');
  return out;
}

export function createScimUsersService(deps: ScimUsersDeps) {
  const { db, mfa } = deps;
  const clock = deps.now ?? (() => new Date());
  const read = scimRepository(db);

  /** Mirrors a user into the directory, the MFA account and the embedded identity provider. */
  async function applyEffects(
    r: ScimRepository,
    trx: Kysely<Database>,
    before: ScimUserRecord | null,
    after: ScimUserRecord,
    passwordHash: string | undefined,
    now: Date,
  ) {
    const upn = after.userName.toLowerCase();
    const email = preferredEmail(after.emails);
    const realName = realNameOf(after);
    const renamed = before !== null && before.userName.toLowerCase() !== upn;
    if (renamed) {
      await r.renameDirectory(before.userName, upn);
      await r.renameIdpAccount(before.userName, upn);
      const lifecycle = mfa.lifecycle;
      if (lifecycle) await atProvider(() => lifecycle.update(before.userName, { newUsername: upn }, trx));
    }
    await r.upsertDirectory(
      { upn, displayName: realName, email, ...(after.roles ? { roles: after.roles.map((x) => x.value) } : {}) },
      'scim',
      now,
    );
    if (deps.hashPassword)
      await r.upsertIdpAccount({
        username: upn,
        passwordHash,
        email,
        givenName: after.givenName ?? '',
        familyName: after.familyName ?? '',
      });
    if (!after.active && (before === null || before.active)) await deps.sessions?.revokeAll(upn, 'account_disabled', { now });
    const lifecycle = mfa.lifecycle;
    if (lifecycle) {
      // A user created inactive is created disabled (at Duo: in the same Create User call).
      const created = before === null && !after.active ? { disabledReason: SCIM_DISABLED_REASON } : {};
      await atProvider(() => lifecycle.provision(upn, { email, realName }, trx, created));
      if (!after.active && (before === null || before.active))
        await atProvider(() => lifecycle.setEnabled(upn, false, SCIM_DISABLED_REASON, trx));
      if (after.active && before !== null && !before.active) await atProvider(() => lifecycle.setEnabled(upn, true, null, trx));
    }
  }

  async function hashIfAccepted(password: string | undefined) {
    return deps.hashPassword && password !== undefined ? deps.hashPassword(password) : undefined;
  }

  async function toJson(u: ScimUserRecord) {
    return userToJson(u, deps.baseUrl, await read.groupsOfUser(u.id));
  }

  async function replaceWith(ctx: ScimContext, id: string, input: ScimUserInput, rolesWhenAbsent: 'keep' | 'clear', action: string) {
    const passwordHash = await hashIfAccepted(input.password);
    const now = clock();
    const user = await inTransaction(db, deps.audit, ctx, async (r, trx) => {
      const before = await r.findUser(id, { lock: true });
      if (!before) throw notFound(`User ${id} not found.`);
      const other = await r.findUserByUserName(input.userName);
      if (other && other.id !== id) throw conflict(`userName "${input.userName}" is already taken.`);
      const roles = input.roles === undefined && rolesWhenAbsent === 'clear' && before.roles !== null ? [] : before.roles;
      const after = await r.updateUser(id, columnsOf(input, roles), now);
      await applyEffects(r, trx, before, after, passwordHash, now);
      const changed = changedAttributes(before, after, passwordHash !== undefined);
      const verb = before.active && !after.active ? 'deactivate' : !before.active && after.active ? 'reactivate' : action;
      return {
        result: after,
        audit: {
          action: `scim.user.${verb}`,
          target: after.userName.toLowerCase(),
          details: { scimId: id, attributes: changed, ...(changed.includes('userName') ? { previousUserName: before.userName } : {}) },
        },
      };
    });
    return toJson(user);
  }

  return {
    async create(ctx: ScimContext, body: unknown) {
      const input = parseUserInput(body);
      const passwordHash = await hashIfAccepted(input.password);
      const now = clock();
      const user = await inTransaction(db, deps.audit, ctx, async (r, trx) => {
        if (await r.findUserByUserName(input.userName)) throw conflict(`userName "${input.userName}" is already taken.`);
        const created = await r.insertUser(columnsOf(input, null), now);
        await applyEffects(r, trx, null, created, passwordHash, now);
        return {
          result: created,
          audit: {
            action: 'scim.user.create',
            target: created.userName.toLowerCase(),
            details: { scimId: created.id, active: created.active, rolesKnown: created.roles !== null },
          },
        };
      });
      return toJson(user);
    },

    async get(id: string, query: ListQuery) {
      const user = await read.findUser(id);
      if (!user) throw notFound(`User ${id} not found.`);
      return project(await toJson(user), query);
    },

    async list(query: ListQuery) {
      const p = paging(query);
      const filter = query.filter !== undefined && query.filter.trim() !== '' ? parseFilter(query.filter) : null;
      const eq = filter ? simpleEquality(filter, ['userName', 'externalId', 'id']) : null;
      const users = eq ? await read.findUsersBy(eq.attr as 'userName' | 'externalId' | 'id', eq.value) : await read.listUsers();
      const members = await read.membersOf();
      const groups = new Map((await read.listGroups()).map((g) => [g.id, g.displayName]));
      const byUser = new Map<string, Array<{ id: string; displayName: string }>>();
      for (const m of members)
        byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), { id: m.groupId, displayName: groups.get(m.groupId) ?? '' }]);
      const all = users
        .map((u) => userToJson(u, deps.baseUrl, byUser.get(u.id) ?? []))
        .filter((json) => !filter || eq || matches(filter, json));
      return listResponse(all, p, query);
    },

    /** PUT: the representation replaces the stored one; roles not sent are kept (unknown roles stay protected). */
    async replace(ctx: ScimContext, id: string, body: unknown) {
      return replaceWith(ctx, id, parseUserInput(body), 'keep', 'replace');
    },

    async patch(ctx: ScimContext, id: string, body: unknown) {
      const ops = parsePatchBody(body);
      const current = await read.findUser(id);
      if (!current) throw notFound(`User ${id} not found.`);
      const patched = applyPatch(userToJson(current, deps.baseUrl), ops, USER_MULTI_VALUED);
      const input = parseUserInput(patched);
      // Roles removed by the patch are known to be none; roles never sent stay unknown.
      return replaceWith(ctx, id, input, 'clear', 'update');
    },

    async remove(ctx: ScimContext, id: string) {
      await inTransaction(db, deps.audit, ctx, async (r, trx) => {
        const user = await r.findUser(id, { lock: true });
        if (!user) throw notFound(`User ${id} not found.`);
        const upn = user.userName.toLowerCase();
        await r.deleteUser(id); // and its group memberships (on delete cascade)
        await r.deleteDirectory(upn);
        await r.deleteIdpAccount(upn);
        await r.deleteEnrolmentPasses(upn);
        const lifecycle = mfa.lifecycle;
        if (lifecycle) await atProvider(() => lifecycle.remove(upn, trx));
        await deps.sessions?.revokeAll(upn, 'account_removed');
        return { result: undefined, audit: { action: 'scim.user.delete', target: upn, details: { scimId: id } } };
      });
    },
  };
}

export type ScimUsersService = ReturnType<typeof createScimUsersService>;
