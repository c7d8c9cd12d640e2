import type { AdminDirectoryGroupsResponse, AdminUnit, AdminUnitBody, PortalRole } from '@mfa-portal/shared';
import type { Policy } from '../../../auth/policy.js';
import { AppError } from '../../../lib/errors.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { RequestContext } from '../../common/request-context.js';
import { adminAudited } from '../common/admin-audited.js';
import type { UnitDefinition, UnitRow, UnitsRepository } from './units.repository.js';

/**
 * Administrative units, defined by a Solution Administrator: a name, who the unit holds (directory
 * groups and/or people) and the Helpdesk Administrators who serve it (in person, or a directory group
 * of them). Every change and its audit event are one transaction; bad input (an unknown group or
 * person, a person who is not a Helpdesk Administrator, a name in use) is refused naming the field, and
 * nothing is stored.
 */

const GROUP_PAGE = 50;
const iso = (d: Date) => d.toISOString();

/** Lists are sets: a repeat counts once, the first place names it. */
const distinct = (values: readonly string[]) => [...new Set(values)];

function toUnit(r: UnitRow): AdminUnit {
  return {
    id: r.id,
    name: r.name,
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    members: { groups: r.memberGroups, people: r.memberPeople, count: r.memberCount },
    helpdesk: { groups: r.helpdeskGroups, people: r.helpdeskPeople },
  };
}

/** What the audit log keeps of a unit: names, never more than the definition. */
const described = (u: AdminUnit) => ({
  unitId: u.id,
  unit: u.name,
  members: { groups: u.members.groups.map((g) => g.name), people: u.members.people.map((p) => p.upn) },
  helpdesk: { groups: u.helpdesk.groups.map((g) => g.name), people: u.helpdesk.people.map((p) => p.upn) },
});

export function createUnitsService(deps: { repo: UnitsRepository; audit: AuditService; policy: Policy; now?: () => Date }) {
  const { repo, audit, policy } = deps;
  const clock = deps.now ?? (() => new Date());

  const badInput = (code: 'unit.group_unknown' | 'unit.person_unknown' | 'unit.not_helpdesk', field: string, reason: string) =>
    new AppError({ code, details: { field, reason } });

  /**
   * The definition checked against the directory (inside the change's transaction, so a group deleted
   * meanwhile cannot slip in): the first problem in field order is answered.
   */
  async function checked(body: AdminUnitBody, exceptId: string | null): Promise<UnitDefinition> {
    const d: UnitDefinition = {
      name: body.name,
      memberGroups: distinct(body.members?.groups ?? []),
      memberPeople: distinct(body.members?.people ?? []),
      helpdeskGroups: distinct(body.helpdesk?.groups ?? []),
      helpdeskPeople: distinct(body.helpdesk?.people ?? []),
    };
    if (await repo.nameTaken(d.name, exceptId)) {
      throw new AppError({ code: 'unit.name_taken', details: { field: 'name', reason: 'another unit has this name' } });
    }
    const groups = await repo.existingGroups([...d.memberGroups, ...d.helpdeskGroups]);
    for (const [field, ids] of [
      ['members.groups', body.members?.groups ?? []],
      ['helpdesk.groups', body.helpdesk?.groups ?? []],
    ] as const) {
      const i = ids.findIndex((id) => !groups.has(id));
      if (i >= 0) throw badInput('unit.group_unknown', `${field}.${i}`, `no directory group has the id ${ids[i]}`);
    }
    const people = await repo.people([...d.memberPeople, ...d.helpdeskPeople]);
    for (const [field, upns] of [
      ['members.people', body.members?.people ?? []],
      ['helpdesk.people', body.helpdesk?.people ?? []],
    ] as const) {
      const i = upns.findIndex((upn) => !people.has(upn));
      if (i >= 0) throw badInput('unit.person_unknown', `${field}.${i}`, `${upns[i]} is not in the directory`);
    }
    const helpdesk = body.helpdesk?.people ?? [];
    const i = helpdesk.findIndex((upn) => {
      const roles = people.get(upn)?.roles;
      return !roles || policy.roleOf({ upn, roles }) !== 'helpdesk';
    });
    if (i >= 0) {
      const roles = people.get(helpdesk[i]!)?.roles;
      const reason =
        roles && policy.roleOf({ upn: helpdesk[i]!, roles }) === 'solution_admin'
          ? `${helpdesk[i]} is a Solution Administrator, whom units never limit`
          : `${helpdesk[i]} does not hold the Helpdesk Administrator role (as the portal last saw their roles)`;
      throw badInput('unit.not_helpdesk', `helpdesk.people.${i}`, reason);
    }
    return d;
  }

  /** A name taken by a concurrent change (the unique index decides): the same answer as one taken before. */
  async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if ((err as { code?: unknown } | null)?.code === '23505')
        throw new AppError({ code: 'unit.name_taken', details: { field: 'name', reason: 'another unit has this name' } });
      throw err;
    }
  }

  async function loaded(id: string): Promise<AdminUnit> {
    const row = await repo.find(id);
    if (!row) throw new AppError({ code: 'unit.not_found' });
    return toUnit(row);
  }

  return {
    async list(): Promise<AdminUnit[]> {
      return (await repo.list()).map(toUnit);
    },

    get: loaded,

    async create(ctx: RequestContext, role: PortalRole, body: AdminUnitBody): Promise<AdminUnit> {
      return adminAudited(
        audit,
        ctx,
        role,
        'admin.unit.create',
        null,
        {},
        { unit: body.name },
        async () => {
          const d = await checked(body, null);
          const id = await uniqueName(() => repo.insert(d, ctx.upn.toLowerCase(), clock()));
          return loaded(id);
        },
        described,
      );
    },

    async update(ctx: RequestContext, role: PortalRole, id: string, body: AdminUnitBody): Promise<AdminUnit> {
      return adminAudited(
        audit,
        ctx,
        role,
        'admin.unit.update',
        null,
        {},
        { unitId: id, unit: body.name },
        async () => {
          const before = await repo.find(id);
          if (!before) throw new AppError({ code: 'unit.not_found' });
          const d = await checked(body, id);
          await uniqueName(() => repo.replace(id, d, clock()));
          return { unit: await loaded(id), previousName: before.name };
        },
        ({ unit, previousName }) => ({ ...described(unit), ...(previousName !== unit.name ? { previousName } : {}) }),
      ).then((r) => r.unit);
    },

    async remove(ctx: RequestContext, role: PortalRole, id: string): Promise<AdminUnit> {
      return adminAudited(
        audit,
        ctx,
        role,
        'admin.unit.delete',
        null,
        {},
        { unitId: id },
        async () => {
          const unit = await loaded(id);
          await repo.remove(id);
          return unit;
        },
        described,
      );
    },

    /** Directory groups to choose from, by name. */
    async groups(q: string): Promise<AdminDirectoryGroupsResponse> {
      const rows = await repo.searchGroups(q, GROUP_PAGE + 1);
      return { groups: rows.slice(0, GROUP_PAGE), more: rows.length > GROUP_PAGE };
    },
  };
}

export type UnitsService = ReturnType<typeof createUnitsService>;
