import type { Kysely } from 'kysely';
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
import { parseUserInput, USER_MULTI_VALUED, userToJson, type ScimUserInput, type ScimUserRecord } from './scim-users.model.js';
import { scimRepository } from './scim.repository.js';
import { scimOwnership, TOKEN_CREATOR_REFUSED, type ScimAdoption } from './scim-ownership.js';
import { changedAttributes, columnsOf, scimUserEffects } from './scim-user-effects.js';

export { NO_ADOPTION, TOKEN_CREATOR_REFUSED, type ScimAdoption } from './scim-ownership.js';
export { SCIM_DISABLED_REASON } from './scim-user-effects.js';

/**
 * SCIM Users (RFC 7644) and their effects: the directory entry the policy reads (with the user's
 * `roles`, so they are known before the first sign-in), the MFA account (created without devices,
 * disabled while `active` is false, removed with its secrets on DELETE), and in the embedded mode
 * the identity provider's account with the SCIM `password`. Each change is one transaction with its
 * audit event, whose actor is the SCIM token's name.
 *
 * SCIM manages only what it provisioned (see `scim-ownership.ts`); what a change means for the
 * directory, the sessions and the MFA account is in `scim-user-effects.ts`. Writes read the user's
 * row under its lock, in the write's transaction, so concurrent changes of one user apply one after
 * the other.
 */

export const PASSWORD_REFUSED = 'Attribute "password" can be set only on an account SCIM created; nothing was changed.';

export interface ScimUsersDeps {
  db: Kysely<Database>;
  mfa: MfaProvider;
  audit: AuditService;
  /** A deactivated or removed user's access tokens are refused at once, not when they expire. */
  sessions?: Pick<SessionsService, 'revokeAll'>;
  /** The modules that hold a removed account's session state (step-ups, pushes) forget it, in the removal's transaction. */
  forgetSessions: readonly ((upn: string) => Promise<void>)[];
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

export function createScimUsersService(deps: ScimUsersDeps) {
  const { db, mfa } = deps;
  const clock = deps.now ?? (() => new Date());
  const read = scimRepository(db);
  const { isTokenCreator, accountNamed, mayAdopt } = scimOwnership(deps);
  const { applyEffects } = scimUserEffects({ mfa, sessions: deps.sessions, embeddedIdp: deps.hashPassword !== null });

  const taken = (userName: string) => conflict(`userName "${userName}" is already taken.`);

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
            addresses: [],
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
    const user = await inTransaction(db, deps.audit, ctx, async (r) => {
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
      await applyEffects(r, before, after, passwordHash, now);
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
      const user = await inTransaction(db, deps.audit, ctx, async (r) => {
        if (await r.findUserByUserName(input.userName)) throw taken(input.userName);
        const account = await accountNamed(r, input.userName);
        if (account && !mayAdopt(account)) throw taken(input.userName);
        if (account && input.password !== undefined) throw badRequest('mutability', PASSWORD_REFUSED);
        const created = await r.insertUser(columnsOf(input, null), now, { adopted: account !== null });
        await applyEffects(r, null, created, account ? undefined : passwordHash, now);
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
      await inTransaction(db, deps.audit, ctx, async (r) => {
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
        if (lifecycle) await atProvider(() => lifecycle.remove(upn));
        for (const forget of deps.forgetSessions) await forget(upn);
        return { result: undefined, audit: { action: 'scim.user.delete', target: upn, details: { scimId: id } } };
      });
    },
  };
}

export type ScimUsersService = ReturnType<typeof createScimUsersService>;
