import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AuditService } from '../audit/audit.service.js';
import { inTransaction, type ScimContext } from './scim-context.js';
import { assertIfMatch, badRequest, conflict, forbidden, notFound, versionOf } from './scim-errors.js';
import { matches, parseFilter, simpleEquality } from './scim-filter.js';
import { getCi, isObject } from './scim-input.js';
import { applyPatch, parsePatchBody } from './scim-patch.js';
import { GROUP_SCHEMA, listResponse, paging, project, type ListQuery } from './scim-resources.js';
import { scimRepository, type ScimGroupRecord, type ScimRepository } from './scim.repository.js';
import { TOKEN_CREATOR_REFUSED } from './scim-users.service.js';

/**
 * SCIM Groups: a display name and members (users provisioned over SCIM). Group membership gives the
 * embedded identity provider's roles (SCIM_GROUP_*), gates just-in-time provisioning and shows on the
 * admin user page. Each change is one transaction with its audit event, and reads the group under its
 * lock first, so concurrent changes of one group's members apply one after the other.
 *
 * The token's creator stays out of the token's reach here too (their roles may come from a group):
 * their memberships are left out of what the token reads and kept as they are by what it writes.
 */

export const MAX_GROUP_NAME_LENGTH = 256;
const GROUP_MULTI_VALUED: ReadonlySet<string> = new Set(['members']);

interface GroupInput {
  displayName: string;
  externalId: string | null;
  memberIds: string[];
}

function parseGroupInput(body: unknown): GroupInput {
  if (!isObject(body)) throw badRequest('invalidSyntax', 'The request body must be a JSON object.');
  const displayName = getCi(body, 'displayName');
  if (typeof displayName !== 'string' || displayName.trim() === '')
    throw badRequest('invalidValue', 'Attribute "displayName" is required.');
  if (displayName.trim().length > MAX_GROUP_NAME_LENGTH)
    throw badRequest('invalidValue', `"displayName" is longer than ${MAX_GROUP_NAME_LENGTH} characters.`);
  const externalId = getCi(body, 'externalId');
  if (externalId !== undefined && externalId !== null && typeof externalId !== 'string')
    throw badRequest('invalidValue', 'Attribute "externalId" must be a string.');
  const members = getCi(body, 'members');
  const list = members === undefined || members === null ? [] : Array.isArray(members) ? members : [members];
  const memberIds = list.map((m) => {
    const v = isObject(m) ? getCi(m, 'value') : undefined;
    if (typeof v !== 'string' || v === '') throw badRequest('invalidValue', 'Each member needs a "value" (the id of a user).');
    return v;
  });
  return {
    displayName: displayName.trim(),
    externalId: typeof externalId === 'string' && externalId !== '' ? externalId : null,
    memberIds: [...new Set(memberIds)],
  };
}

export function createScimGroupsService(deps: { db: Kysely<Database>; audit: AuditService; baseUrl: string; now?: () => Date }) {
  const { db, baseUrl } = deps;
  const clock = deps.now ?? (() => new Date());
  const read = scimRepository(db);

  function toJson(g: ScimGroupRecord, members: ReadonlyArray<{ userId: string; userName: string }>) {
    return {
      schemas: [GROUP_SCHEMA],
      id: g.id,
      ...(g.externalId ? { externalId: g.externalId } : {}),
      displayName: g.displayName,
      members: members.map((m) => ({ value: m.userId, display: m.userName, $ref: `${baseUrl}Users/${m.userId}`, type: 'User' })),
      meta: {
        resourceType: 'Group',
        created: g.createdAt.toISOString(),
        lastModified: g.updatedAt.toISOString(),
        location: `${baseUrl}Groups/${g.id}`,
        version: versionOf(g.updatedAt),
      },
    };
  }

  /** The SCIM user id of the token's creator, when SCIM holds their account. */
  async function hiddenUserId(r: ScimRepository, ctx: ScimContext): Promise<string | null> {
    if (ctx.tokenCreatedBy === null) return null;
    return (await r.findUserByUserName(ctx.tokenCreatedBy))?.id ?? null;
  }

  async function loadJson(r: ScimRepository, ctx: ScimContext, g: ScimGroupRecord) {
    const hidden = await hiddenUserId(r, ctx);
    return toJson(
      g,
      (await r.membersOf([g.id])).filter((m) => m.userId !== hidden),
    );
  }

  /**
   * Writes a group's name and members (users that do not exist are refused: nothing is stored). `build`
   * makes the new representation from the group as it is now, read under its lock (null: a new group).
   */
  async function save(
    ctx: ScimContext,
    id: string | null,
    build: (current: ReturnType<typeof toJson> | null) => GroupInput,
    action: string,
    ifMatch?: string,
  ) {
    const now = clock();
    const group = await inTransaction(db, deps.audit, ctx, async (r) => {
      const before = id ? await r.findGroup(id, { lock: true }) : undefined;
      if (id && !before) throw notFound(`Group ${id} not found.`);
      if (before) assertIfMatch(ifMatch, before.updatedAt);
      const input = build(before ? await loadJson(r, ctx, before) : null);
      const hidden = await hiddenUserId(r, ctx);
      if (hidden !== null && input.memberIds.includes(hidden)) throw forbidden(TOKEN_CREATOR_REFUSED);
      const other = await r.findGroupByName(input.displayName);
      if (other && other.id !== id) throw conflict(`displayName "${input.displayName}" is already taken.`);
      const known = await r.existingUserIds(input.memberIds);
      const unknown = input.memberIds.filter((m) => !known.has(m));
      if (unknown.length > 0)
        throw badRequest('invalidValue', `No user with id ${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? '…' : ''}.`);
      const beforeMembers = before ? (await r.membersOf([before.id])).map((m) => m.userId) : [];
      // The creator's membership, never shown to this token, stays as it was.
      const memberIds = hidden !== null && beforeMembers.includes(hidden) ? [...input.memberIds, hidden] : input.memberIds;
      const saved = before ? await r.updateGroup(before.id, input, now) : await r.insertGroup(input, now);
      await r.setMembers(saved.id, memberIds);
      const added = memberIds.filter((m) => !beforeMembers.includes(m)).length;
      const removed = beforeMembers.filter((m) => !memberIds.includes(m)).length;
      return {
        result: saved,
        audit: {
          action: `scim.group.${action}`,
          target: null,
          details: {
            scimId: saved.id,
            displayName: saved.displayName,
            membersAdded: added,
            membersRemoved: removed,
            ...(before && before.displayName !== saved.displayName ? { previousDisplayName: before.displayName } : {}),
          },
        },
      };
    });
    return loadJson(read, ctx, group);
  }

  return {
    create: (ctx: ScimContext, body: unknown) => {
      const input = parseGroupInput(body);
      return save(ctx, null, () => input, 'create');
    },
    replace: (ctx: ScimContext, id: string, body: unknown, ifMatch?: string) => {
      const input = parseGroupInput(body);
      return save(ctx, id, () => input, 'replace', ifMatch);
    },

    async patch(ctx: ScimContext, id: string, body: unknown, ifMatch?: string) {
      const ops = parsePatchBody(body);
      return save(ctx, id, (current) => parseGroupInput(applyPatch(current!, ops, GROUP_MULTI_VALUED)), 'update', ifMatch);
    },

    async get(ctx: ScimContext, id: string, query: ListQuery) {
      const group = await read.findGroup(id);
      if (!group) throw notFound(`Group ${id} not found.`);
      return project(await loadJson(read, ctx, group), query);
    },

    async list(ctx: ScimContext, query: ListQuery) {
      const p = paging(query);
      const filter = query.filter !== undefined && query.filter.trim() !== '' ? parseFilter(query.filter) : null;
      const eq = filter ? simpleEquality(filter, ['displayName', 'id', 'externalId']) : null;
      let groups = await read.listGroups();
      if (eq) {
        const v = eq.value;
        groups = groups.filter((g) =>
          eq.attr === 'displayName' ? g.displayName.toLowerCase() === v.toLowerCase() : eq.attr === 'id' ? g.id === v : g.externalId === v,
        );
      }
      const excludeMembers = (query.excludedAttributes ?? '')
        .toLowerCase()
        .split(',')
        .map((s) => s.trim())
        .includes('members');
      const hidden = await hiddenUserId(read, ctx);
      const members =
        excludeMembers && (!filter || eq) ? [] : (await read.membersOf(groups.map((g) => g.id))).filter((m) => m.userId !== hidden);
      const all = groups
        .map((g) =>
          toJson(
            g,
            members.filter((m) => m.groupId === g.id),
          ),
        )
        .filter((json) => !filter || eq || matches(filter, json));
      return listResponse(all, p, query);
    },

    async remove(ctx: ScimContext, id: string, ifMatch?: string) {
      await inTransaction(db, deps.audit, ctx, async (r) => {
        const group = await r.findGroup(id, { lock: true });
        if (!group) throw notFound(`Group ${id} not found.`);
        assertIfMatch(ifMatch, group.updatedAt);
        // Deleting the group would take the creator's membership (and the roles it gives) away.
        const hidden = await hiddenUserId(r, ctx);
        if (hidden !== null && (await r.membersOf([id])).some((m) => m.userId === hidden)) throw forbidden(TOKEN_CREATOR_REFUSED);
        await r.deleteGroup(id);
        return {
          result: undefined,
          audit: { action: 'scim.group.delete', target: null, details: { scimId: id, displayName: group.displayName } },
        };
      });
    },
  };
}

export type ScimGroupsService = ReturnType<typeof createScimGroupsService>;
