import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AuditService } from '../audit/audit.service.js';
import { inTransaction, type ScimContext } from './scim-context.js';
import { badRequest, conflict, notFound } from './scim-errors.js';
import { matches, parseFilter, simpleEquality } from './scim-filter.js';
import { getCi, isObject } from './scim-input.js';
import { applyPatch, parsePatchBody } from './scim-patch.js';
import { GROUP_SCHEMA, listResponse, paging, project, type ListQuery } from './scim-resources.js';
import { scimRepository, type ScimGroupRecord } from './scim.repository.js';

/**
 * SCIM Groups: a display name and members (users provisioned over SCIM). Group membership gives the
 * embedded identity provider's roles (SCIM_GROUP_*), gates just-in-time provisioning and shows on the
 * admin user page. Each change is one transaction with its audit event.
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
        version: `W/"${g.updatedAt.getTime()}"`,
      },
    };
  }

  async function loadJson(g: ScimGroupRecord) {
    return toJson(g, await read.membersOf([g.id]));
  }

  /** Writes a group's name and members (users that do not exist are refused: nothing is stored). */
  async function save(ctx: ScimContext, id: string | null, input: GroupInput, action: string) {
    const now = clock();
    const group = await inTransaction(db, deps.audit, ctx, async (r) => {
      const before = id ? await r.findGroup(id, { lock: true }) : undefined;
      if (id && !before) throw notFound(`Group ${id} not found.`);
      const other = await r.findGroupByName(input.displayName);
      if (other && other.id !== id) throw conflict(`displayName "${input.displayName}" is already taken.`);
      const known = await r.existingUserIds(input.memberIds);
      const unknown = input.memberIds.filter((m) => !known.has(m));
      if (unknown.length > 0)
        throw badRequest('invalidValue', `No user with id ${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? '…' : ''}.`);
      const beforeMembers = before ? (await r.membersOf([before.id])).map((m) => m.userId) : [];
      const saved = before ? await r.updateGroup(before.id, input, now) : await r.insertGroup(input, now);
      await r.setMembers(saved.id, input.memberIds);
      const added = input.memberIds.filter((m) => !beforeMembers.includes(m)).length;
      const removed = beforeMembers.filter((m) => !input.memberIds.includes(m)).length;
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
    return loadJson(group);
  }

  return {
    create: (ctx: ScimContext, body: unknown) => save(ctx, null, parseGroupInput(body), 'create'),
    replace: (ctx: ScimContext, id: string, body: unknown) => save(ctx, id, parseGroupInput(body), 'replace'),

    async patch(ctx: ScimContext, id: string, body: unknown) {
      const ops = parsePatchBody(body);
      const current = await read.findGroup(id);
      if (!current) throw notFound(`Group ${id} not found.`);
      const patched = applyPatch(await loadJson(current), ops, GROUP_MULTI_VALUED);
      return save(ctx, id, parseGroupInput(patched), 'update');
    },

    async get(id: string, query: ListQuery) {
      const group = await read.findGroup(id);
      if (!group) throw notFound(`Group ${id} not found.`);
      return project(await loadJson(group), query);
    },

    async list(query: ListQuery) {
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
      const members = excludeMembers && (!filter || eq) ? [] : await read.membersOf(groups.map((g) => g.id));
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

    async remove(ctx: ScimContext, id: string) {
      await inTransaction(db, deps.audit, ctx, async (r) => {
        const group = await r.findGroup(id, { lock: true });
        if (!group) throw notFound(`Group ${id} not found.`);
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
