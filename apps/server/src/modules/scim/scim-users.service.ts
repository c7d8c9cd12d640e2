import type { Kysely } from 'kysely';
import { isProtectedAccount } from '@mfa-portal/shared';
import type { Database } from '../../db/schema.js';
import type { MfaProvider } from '../../mfa/port.js';
import type { AuditService } from '../audit/audit.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import { auditEntry, inTransaction, type ScimContext } from './scim-context.js';
import { assertIfMatch, badRequest, conflict, forbidden, notFound } from './scim-errors.js';
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
import { scimRepository, type ForeignAccount, type ScimRepository, type UserColumns } from './scim.repository.js';

/**
 * SCIM Users (RFC 7644) and their effects: the directory entry the policy reads (with the user's
 * `roles`, so they are known before the first sign-in), the MFA account (created without devices,
 * disabled while `active` is false, removed with its secrets on DELETE), and in the embedded mode
 * the identity provider's account with the SCIM `password`. Each change is one transaction with its
 * audit event, whose actor is the SCIM token's name.
 *
 * SCIM manages only what it provisioned: an account it did not create (seeded, imported, signed in
 * before) is someone else's, and a SCIM `userName` that names it is taken, unless the account may be
 * adopted (see `ScimAdoption`). Writes read the user's row under its lock, in the write's transaction,
 * so concurrent changes of one user apply one after the other.
 */

export const SCIM_DISABLED_REASON = "Deactivated in the organisation's directory";

/** Which accounts SCIM did not create it may take over. */
export interface ScimAdoption {
  /** Accounts that sign-ins from the same directory created just in time (PROVISIONING=both); never protected ones. */
  jit: boolean;
  /** Any other account (seeded, imported), protected ones excepted. */
  existing: boolean;
  /** Protected accounts too (a restricted role, or roles never known); only with `existing`. */
  protected: boolean;
}

export const NO_ADOPTION: ScimAdoption = { jit: false, existing: false, protected: false };

export const PASSWORD_REFUSED = 'Attribute "password" can be set only on an account SCIM created; nothing was changed.';
export const TOKEN_CREATOR_REFUSED =
  'This account belongs to the administrator who created the SCIM token; it cannot be changed with that token.';

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
  /** Accounts SCIM may take over; none when omitted. */
  adoption?: ScimAdoption;
  /** Whether roles make an account protected (the configured restricted roles). */
  isProtected?: (roles: readonly string[]) => boolean;
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
  const adoption = deps.adoption ?? NO_ADOPTION;
  const isProtected = deps.isProtected ?? ((roles: readonly string[]) => isProtectedAccount(roles));

  /** The token's maker: SCIM neither shows nor changes their account with it. */
  const isTokenCreator = (ctx: ScimContext, userName: string) =>
    ctx.tokenCreatedBy !== null && ctx.tokenCreatedBy === userName.trim().toLowerCase();

  /**
   * The account SCIM would take over by this name, if any. A name the portal has only seen at a sign-in
   * (no account at the embedded identity provider, none known at the MFA provider) is no account: with
   * Entra ID, people often sign in once before the directory provisions them.
   */
  async function accountNamed(r: ScimRepository, userName: string): Promise<ForeignAccount | null> {
    const a = await r.findAccount(userName);
    if (!a || a.idp) return a;
    const d = a.directory;
    if (d && (d.source === 'sign_in' || d.source === null) && d.mfaStatus === null) return null;
    return a;
  }

  function isProtectedForeign(a: ForeignAccount): boolean {
    // Roles never seen keep an account protected, as everywhere else in the portal.
    if (a.directory && a.directory.roles === null) return true;
    return isProtected([...(a.directory?.roles ?? []), ...(a.idp?.roles ?? [])]);
  }

  function mayAdopt(a: ForeignAccount): boolean {
    if (isProtectedForeign(a)) return adoption.existing && adoption.protected;
    if (adoption.jit && a.directory?.source === 'jit') return true;
    return adoption.existing;
  }

  const taken = (userName: string) => conflict(`userName "${userName}" is already taken.`);

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
      { provisioned: before === null },
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
    // A new password ends the sessions signed in with the old one (a new account has none).
    else if (passwordHash !== undefined && before !== null) await deps.sessions?.revokeAll(upn, 'password_changed', { now });
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

  /**
   * Takes over the account a filtered read names, as Entra finds a user before it updates it: the
   * SCIM user is made from what the directory knows, and the account itself is left as it is (the
   * client's next PATCH says what it should be). null: nothing that may be adopted.
   */
  async function adoptOnLookup(ctx: ScimContext, userName: string): Promise<ScimUserRecord | null> {
    if (isTokenCreator(ctx, userName)) return null;
    const now = clock();
    try {
      return await db.transaction().execute(async (trx) => {
        const r = scimRepository(trx);
        const account = await accountNamed(r, userName);
        // Another request may have adopted it meanwhile (the directory row's lock orders them).
        const already = await r.findUserByUserName(userName);
        if (already) return already;
        if (!account || !mayAdopt(account)) return null;
        const email = account.directory?.email || account.idp?.email || account.upn;
        const adopted = await r.insertUser(
          {
            userName: account.upn,
            externalId: null,
            active: true,
            displayName: account.directory?.displayName || null,
            givenName: account.idp?.givenName || null,
            familyName: account.idp?.familyName || null,
            formattedName: null,
            emails: [{ value: email, type: 'work', primary: true }],
            // Roles stay as the directory has them until the client sends some.
            roles: null,
          },
          now,
          { adopted: true },
        );
        await r.markProvisioned(account.upn, now);
        await deps.audit.append(
          auditEntry(ctx, {
            action: 'scim.user.adopted',
            target: account.upn,
            details: { scimId: adopted.id, via: 'filter', source: account.directory?.source ?? null },
          }),
        );
        return adopted;
      });
    } catch (err) {
      // Two lookups raced past the lock (no directory row to hold): the other one adopted it.
      if (typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505')
        return (await read.findUserByUserName(userName)) ?? null;
      throw err;
    }
  }

  /**
   * PUT and PATCH: the row is read under its lock in the write's transaction and `build` computes the
   * new representation from it, so a concurrent change is never written over with a stale copy.
   */
  async function replaceWith(
    ctx: ScimContext,
    id: string,
    build: (before: ScimUserRecord) => ScimUserInput,
    rolesWhenAbsent: 'keep' | 'clear',
    action: string,
    ifMatch: string | undefined,
  ) {
    const now = clock();
    const user = await inTransaction(db, deps.audit, ctx, async (r, trx) => {
      const before = await r.findUser(id, { lock: true });
      if (!before) throw notFound(`User ${id} not found.`);
      if (isTokenCreator(ctx, before.userName)) throw forbidden(TOKEN_CREATOR_REFUSED);
      assertIfMatch(ifMatch, before.updatedAt);
      const input = build(before);
      if (input.password !== undefined && before.adoptedAt !== null) throw badRequest('mutability', PASSWORD_REFUSED);
      if (before.userName.toLowerCase() !== input.userName.toLowerCase()) {
        if (isTokenCreator(ctx, input.userName)) throw forbidden(TOKEN_CREATOR_REFUSED);
        const other = await r.findUserByUserName(input.userName);
        if (other && other.id !== id) throw taken(input.userName);
        // A rename onto an account SCIM does not manage would take it over without asking.
        if (!other && (await accountNamed(r, input.userName))) throw taken(input.userName);
      }
      const passwordHash = await hashIfAccepted(input.password);
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
    /**
     * POST: a new user; or, when the userName names an account SCIM may adopt, that account taken over
     * with this representation (201 as well: the SCIM resource is new). Any other account's name is taken.
     */
    async create(ctx: ScimContext, body: unknown) {
      const input = parseUserInput(body);
      if (isTokenCreator(ctx, input.userName)) throw forbidden(TOKEN_CREATOR_REFUSED);
      const passwordHash = await hashIfAccepted(input.password);
      const now = clock();
      const user = await inTransaction(db, deps.audit, ctx, async (r, trx) => {
        if (await r.findUserByUserName(input.userName)) throw taken(input.userName);
        const account = await accountNamed(r, input.userName);
        if (account && !mayAdopt(account)) throw taken(input.userName);
        if (account && input.password !== undefined) throw badRequest('mutability', PASSWORD_REFUSED);
        const created = await r.insertUser(columnsOf(input, null), now, { adopted: account !== null });
        await applyEffects(r, trx, null, created, account ? undefined : passwordHash, now);
        return {
          result: created,
          audit: account
            ? {
                action: 'scim.user.adopted',
                target: created.userName.toLowerCase(),
                details: { scimId: created.id, via: 'create', source: account.directory?.source ?? null, active: created.active },
              }
            : {
                action: 'scim.user.create',
                target: created.userName.toLowerCase(),
                details: { scimId: created.id, active: created.active, rolesKnown: created.roles !== null },
              },
        };
      });
      return toJson(user);
    },

    async get(ctx: ScimContext, id: string, query: ListQuery) {
      const user = await read.findUser(id);
      if (!user || isTokenCreator(ctx, user.userName)) throw notFound(`User ${id} not found.`);
      return project(await toJson(user), query);
    },

    async list(ctx: ScimContext, query: ListQuery) {
      const p = paging(query);
      const filter = query.filter !== undefined && query.filter.trim() !== '' ? parseFilter(query.filter) : null;
      const eq = filter ? simpleEquality(filter, ['userName', 'externalId', 'id']) : null;
      let users = eq ? await read.findUsersBy(eq.attr as 'userName' | 'externalId' | 'id', eq.value) : await read.listUsers();
      if (eq?.attr === 'userName' && users.length === 0) {
        const adopted = await adoptOnLookup(ctx, eq.value);
        if (adopted) users = [adopted];
      }
      users = users.filter((u) => !isTokenCreator(ctx, u.userName));
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
    async replace(ctx: ScimContext, id: string, body: unknown, ifMatch?: string) {
      const input = parseUserInput(body);
      return replaceWith(ctx, id, () => input, 'keep', 'replace', ifMatch);
    },

    async patch(ctx: ScimContext, id: string, body: unknown, ifMatch?: string) {
      const ops = parsePatchBody(body);
      // Roles removed by the patch are known to be none; roles never sent stay unknown.
      return replaceWith(
        ctx,
        id,
        (current) => parseUserInput(applyPatch(userToJson(current, deps.baseUrl), ops, USER_MULTI_VALUED)),
        'clear',
        'update',
        ifMatch,
      );
    },

    async remove(ctx: ScimContext, id: string, ifMatch?: string) {
      await inTransaction(db, deps.audit, ctx, async (r, trx) => {
        const user = await r.findUser(id, { lock: true });
        if (!user) throw notFound(`User ${id} not found.`);
        if (isTokenCreator(ctx, user.userName)) throw forbidden(TOKEN_CREATOR_REFUSED);
        assertIfMatch(ifMatch, user.updatedAt);
        const upn = user.userName.toLowerCase();
        // First: the identity provider's sessions are found through the account removed below.
        await deps.sessions?.revokeAll(upn, 'account_removed');
        await r.deleteUser(id); // and its group memberships (on delete cascade)
        await r.deleteDirectory(upn);
        await r.deleteIdpAccount(upn);
        await r.deleteEnrolmentPasses(upn);
        const lifecycle = mfa.lifecycle;
        if (lifecycle) await atProvider(() => lifecycle.remove(upn, trx));
        return { result: undefined, audit: { action: 'scim.user.delete', target: upn, details: { scimId: id } } };
      });
    },
  };
}

export type ScimUsersService = ReturnType<typeof createScimUsersService>;
