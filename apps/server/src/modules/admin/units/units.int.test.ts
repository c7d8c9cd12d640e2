import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminReachSchema,
  adminUnitSchema,
  adminUnitsResponseSchema,
  adminUsersResponseSchema,
  reportCoverageResponseSchema,
  reportWithoutFactorPageSchema,
  ROLE_HELPDESK,
  type AdminUnitBody,
} from '@mfa-portal/shared';
import { ADMIN, adminSnapshot, callAs, HELPDESK, JUSTIFY } from '../../../../test/admin-api.js';
import { errorOf } from '../../../../test/me-api.js';
import { entraUser, patchOp, scimTestApp, type ScimTestApp } from '../../../../test/scim-api.js';

/**
 * Administrative units, from outside: a Solution Administrator defines them (bad input refused with
 * its field, nothing stored), and a Helpdesk Administrator assigned to one (in person or through a
 * directory group) finds, sees, acts on and reports on only its people; anyone else answers exactly
 * as a person who does not exist, and the attempt is audited. Membership is the directory's as it is
 * on each request. The authorisation matrix runs every admin route under every scope.
 */

const HELPDESK_ROLE = [{ value: ROLE_HELPDESK }];
/** Assigned through the group "Ledger desk". */
const HANK = { upn: 'hank@units.example', roles: [ROLE_HELPDESK] };
/** Assigned in person. */
const SAM = { upn: 'sam@units.example', roles: [ROLE_HELPDESK] };
const TINA = 'tina@units.example';
const FINN = 'finn@units.example';
const UMA = 'uma@units.example';
const NOBODY = 'nobody@units.example';

let m: ScimTestApp;
const scimIds: Record<string, string> = {};
const groupIds: Record<string, string> = {};
let finance: string;

const unitTables = async () =>
  JSON.stringify(
    await Promise.all(
      (['admin_unit', 'admin_unit_group', 'admin_unit_person', 'admin_unit_helpdesk_group', 'admin_unit_helpdesk_person'] as const).map(
        (t) => m.db.selectFrom(t).selectAll().execute(),
      ),
    ),
  );
const lastAudit = (action: string) =>
  m.db.selectFrom('audit_event').selectAll().where('action', '=', action).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

async function createUnit(body: AdminUnitBody) {
  const res = await callAs(m, ADMIN, 'POST', '/api/admin/units', body);
  expect(res.statusCode, res.body).toBe(201);
  return adminUnitSchema.parse(res.json());
}

beforeAll(async () => {
  m = await scimTestApp();
  for (const [upn, roles] of [
    [TINA, []],
    [FINN, []],
    [UMA, []],
    [HANK.upn, HELPDESK_ROLE],
    [SAM.upn, HELPDESK_ROLE],
  ] as const) {
    const res = await m.scim('POST', '/Users', entraUser(upn, { roles, displayName: upn.split('@')[0] }));
    expect(res.statusCode, res.body).toBe(201);
    scimIds[upn] = res.json().id;
  }
  for (const [name, members] of [
    ['Ledger', [FINN]],
    ['Ledger desk', [HANK.upn]],
    ['Retail', [UMA]],
  ] as const) {
    const res = await m.scim('POST', '/Groups', { displayName: name, members: members.map((u) => ({ value: scimIds[u] })) });
    expect(res.statusCode, res.body).toBe(201);
    groupIds[name] = res.json().id;
  }
});
afterAll(async () => m?.close());

describe('POST /api/admin/units', () => {
  it('creates a unit of groups and people with its helpdesk, audited in the same transaction', async () => {
    const unit = await createUnit({
      name: 'Finance',
      members: { groups: [groupIds.Ledger!], people: [TINA] },
      helpdesk: { groups: [groupIds['Ledger desk']!], people: [SAM.upn] },
    });
    finance = unit.id;
    expect(unit).toMatchObject({
      name: 'Finance',
      createdBy: ADMIN.upn,
      members: { groups: [{ name: 'Ledger', memberCount: 1 }], people: [{ upn: TINA }], count: 2 },
      helpdesk: { groups: [{ name: 'Ledger desk' }], people: [{ upn: SAM.upn }] },
    });
    const event = await lastAudit('admin.unit.create');
    expect(event).toMatchObject({ actor_upn: ADMIN.upn, outcome: 'success', target_upn: null });
    expect(event.details).toMatchObject({
      unitId: unit.id,
      unit: 'Finance',
      members: { groups: ['Ledger'], people: [TINA] },
      helpdesk: { groups: ['Ledger desk'], people: [SAM.upn] },
    });
    const list = adminUnitsResponseSchema.parse((await callAs(m, ADMIN, 'GET', '/api/admin/units')).json());
    expect(list.units.map((u) => u.name)).toEqual(['Finance']);
  });

  it.each([
    ['an empty name', { name: '   ' }, 400, 'request.invalid', 'name'],
    ['a name in use (whatever its case)', { name: 'FINANCE' }, 409, 'unit.name_taken', 'name'],
    [
      'an unknown group',
      { name: 'X', members: { groups: ['00000000-0000-4000-8000-000000000000'] } },
      400,
      'unit.group_unknown',
      'members.groups.0',
    ],
    [
      'an unknown helpdesk group',
      { name: 'X', helpdesk: { groups: ['00000000-0000-4000-8000-000000000000'] } },
      400,
      'unit.group_unknown',
      'helpdesk.groups.0',
    ],
    ['an unknown person', { name: 'X', members: { people: [TINA, NOBODY] } }, 400, 'unit.person_unknown', 'members.people.1'],
    [
      'a person who is not a Helpdesk Administrator',
      { name: 'X', helpdesk: { people: [TINA] } },
      400,
      'unit.not_helpdesk',
      'helpdesk.people.0',
    ],
    [
      'a Solution Administrator as its helpdesk',
      { name: 'X', helpdesk: { people: [ADMIN.upn] } },
      400,
      'unit.not_helpdesk',
      'helpdesk.people.0',
    ],
    ['a name with a NUL', { name: 'Fin\u0000' }, 400, 'request.invalid', 'name'],
    ['a sign-in name that is not one', { name: 'X', members: { people: ['tina'] } }, 400, 'request.invalid', 'members.people.0'],
  ])('refuses %s with its code and field, storing nothing', async (_name, body, status, code, field) => {
    const [units, data] = [await unitTables(), await adminSnapshot(m.db)];
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/units', body);
    expect(res.statusCode, res.body).toBe(status);
    expect(errorOf(res)).toMatchObject({ code, details: { field } });
    expect(await unitTables()).toBe(units);
    expect(await adminSnapshot(m.db)).toBe(data);
  });

  it('is for Solution Administrators only (a refusal is audited, nothing stored)', async () => {
    const before = await unitTables();
    for (const who of [HELPDESK, HANK]) {
      const res = await callAs(m, who, 'POST', '/api/admin/units', { name: 'Mine' });
      expect(res.statusCode).toBe(403);
      expect((await callAs(m, who, 'GET', '/api/admin/units')).statusCode).toBe(403);
      expect((await callAs(m, who, 'GET', '/api/admin/directory-groups')).statusCode).toBe(403);
    }
    expect(await unitTables()).toBe(before);
    expect(await lastAudit('admin.units.manage')).toMatchObject({ actor_upn: HANK.upn, outcome: 'failure', reason: 'auth.forbidden' });
  });
});

describe('a helpdesk member limited to units', () => {
  const search = async (who: { upn: string; roles: string[] }, q: string) => {
    const res = await callAs(m, who, 'GET', `/api/admin/users?q=${encodeURIComponent(q)}`);
    expect(res.statusCode, res.body).toBe(200);
    return adminUsersResponseSchema.parse(res.json()).users.map((u) => u.upn);
  };

  it('finds only the people of their units, in person or through a group, and says whom they can help', async () => {
    for (const who of [HANK, SAM]) {
      expect(await search(who, '')).toEqual([FINN, TINA]);
      expect(await search(who, 'units.example')).toEqual([FINN, TINA]);
      expect(await search(who, 'uma')).toEqual([]);
      expect(await search(who, 'bob')).toEqual([]);
      const reach = adminReachSchema.parse((await callAs(m, who, 'GET', '/api/admin/units/mine')).json());
      expect(reach).toEqual({ reach: 'units', units: [{ id: finance, name: 'Finance' }] });
    }
    // Everyone else keeps their reach: an unassigned helpdesk member and a Solution Administrator.
    expect(await search(HELPDESK, 'uma@units')).toEqual([UMA]);
    expect(await search(ADMIN, 'uma@units')).toEqual([UMA]);
    expect(adminReachSchema.parse((await callAs(m, HELPDESK, 'GET', '/api/admin/units/mine')).json()).reach).toBe('everyone');
  });

  it('answers a person outside their units exactly as one who does not exist, and audits the attempt', async () => {
    for (const path of ['', '/lost-device', '/enrolment-passes']) {
      const outside = await callAs(m, HANK, 'GET', `/api/admin/users/${UMA}${path}`);
      const missing = await callAs(m, HANK, 'GET', `/api/admin/users/${NOBODY}${path}`);
      expect(outside.statusCode).toBe(404);
      expect(outside.body).toBe(missing.body);
      expect(outside.headers['content-type']).toBe(missing.headers['content-type']);
      expect(errorOf(outside)).toEqual({ code: 'admin.user_not_found', message: expect.any(String) });
    }
    const before = await adminSnapshot(m.db);
    const unlock = await callAs(m, HANK, 'POST', `/api/admin/users/${UMA}/unlock`, JUSTIFY);
    expect(unlock.statusCode).toBe(404);
    expect(unlock.body).toBe((await callAs(m, HANK, 'POST', `/api/admin/users/${NOBODY}/unlock`, JUSTIFY)).body);
    expect(await adminSnapshot(m.db)).toBe(before);
    const attempts = await m.db
      .selectFrom('audit_event')
      .selectAll()
      .where('actor_upn', '=', HANK.upn)
      .where('target_upn', 'in', [UMA, NOBODY])
      .where('action', '=', 'admin.user.unlock')
      .execute();
    expect(attempts).toHaveLength(2);
    for (const e of attempts) {
      expect(e).toMatchObject({ outcome: 'failure', reason: 'admin.user_not_found' });
      expect(e.details).toMatchObject({ denyReason: 'outside_units', units: ['Finance'], ticket: JUSTIFY.ticket });
    }
  });

  it('acts on a person of their unit, and the audit event names the unit that allowed it', async () => {
    const page = await callAs(m, SAM, 'GET', `/api/admin/users/${TINA}`);
    expect(page.statusCode, page.body).toBe(200);
    const res = await callAs(m, SAM, 'POST', `/api/admin/users/${TINA}/unlock`, JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    const event = await lastAudit('admin.user.unlock');
    expect(event).toMatchObject({ actor_upn: SAM.upn, target_upn: TINA, outcome: 'success' });
    expect(event.details).toMatchObject({ role: 'helpdesk', unit: { id: finance, name: 'Finance' }, ticket: JUSTIFY.ticket });
    // A Solution Administrator's and an unassigned helpdesk member's actions name no unit: none allowed them.
    await callAs(m, HELPDESK, 'POST', `/api/admin/users/${TINA}/unlock`, JUSTIFY);
    expect((await lastAudit('admin.user.unlock')).details).not.toHaveProperty('unit');
  });

  it('follows the directory on the next request: out of the group, out of the unit', async () => {
    expect((await callAs(m, HANK, 'GET', `/api/admin/users/${FINN}`)).statusCode).toBe(200);
    const removed = await m.scim(
      'PATCH',
      `/Groups/${groupIds.Ledger}`,
      patchOp({ op: 'remove', path: `members[value eq "${scimIds[FINN]}"]` }),
    );
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect((await callAs(m, HANK, 'GET', `/api/admin/users/${FINN}`)).statusCode).toBe(404);
    expect(await search(HANK, '')).toEqual([TINA]);
    // And the helpdesk member leaving the helpdesk group is no longer limited to the unit.
    await m.scim(
      'PATCH',
      `/Groups/${groupIds['Ledger desk']}`,
      patchOp({ op: 'remove', path: `members[value eq "${scimIds[HANK.upn]}"]` }),
    );
    expect(adminReachSchema.parse((await callAs(m, HANK, 'GET', '/api/admin/units/mine')).json()).reach).toBe('everyone');
    expect((await callAs(m, HANK, 'GET', `/api/admin/users/${FINN}`)).statusCode).toBe(200);
    // Back as it was, for the tests below.
    await m.scim('PATCH', `/Groups/${groupIds.Ledger}`, patchOp({ op: 'add', path: 'members', value: [{ value: scimIds[FINN] }] }));
    await m.scim(
      'PATCH',
      `/Groups/${groupIds['Ledger desk']}`,
      patchOp({ op: 'add', path: 'members', value: [{ value: scimIds[HANK.upn] }] }),
    );
    expect((await callAs(m, HANK, 'GET', `/api/admin/users/${FINN}`)).statusCode).toBe(200);
  });

  it("reads its units' reports, counted now, and never the organisation's", async () => {
    const coverage = reportCoverageResponseSchema.parse((await callAs(m, SAM, 'GET', '/api/admin/reports/coverage')).json());
    expect(coverage).toMatchObject({ source: 'live', current: { staff: 2, covered: 0 }, historySince: null });
    expect(coverage.totals?.['without-factor']).toBe(2);
    const list = reportWithoutFactorPageSchema.parse((await callAs(m, SAM, 'GET', '/api/admin/reports/without-factor?limit=50')).json());
    expect(list.rows.map((r) => r.upn)).toEqual([FINN, TINA]);
    const csv = await callAs(m, SAM, 'GET', '/api/admin/reports/without-factor.csv');
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(3);
    // The organisation's figures are the Solution Administrator's: larger, with history.
    const org = reportCoverageResponseSchema.parse((await callAs(m, ADMIN, 'GET', '/api/admin/reports/coverage')).json());
    expect(org.current!.staff).toBeGreaterThan(2);
    // Not the SIEM's state; not for a helpdesk member assigned to no unit.
    expect((await callAs(m, SAM, 'GET', '/api/admin/reports/audit-streams')).statusCode).toBe(403);
    expect((await callAs(m, HELPDESK, 'GET', '/api/admin/reports/coverage')).statusCode).toBe(403);
  });
});

describe('PUT and DELETE /api/admin/units/:id', () => {
  it('replaces a unit (the same checks, nothing stored on a refusal) and deletes it, each audited', async () => {
    const sales = await createUnit({ name: 'Sales', members: { groups: [groupIds.Retail!] } });
    const before = await unitTables();
    const taken = await callAs(m, ADMIN, 'PUT', `/api/admin/units/${sales.id}`, { name: 'finance' });
    expect(taken.statusCode).toBe(409);
    const bad = await callAs(m, ADMIN, 'PUT', `/api/admin/units/${sales.id}`, { name: 'Sales', helpdesk: { people: [UMA] } });
    expect(errorOf(bad)).toMatchObject({ code: 'unit.not_helpdesk', details: { field: 'helpdesk.people.0' } });
    expect(await unitTables()).toBe(before);

    const res = await callAs(m, ADMIN, 'PUT', `/api/admin/units/${sales.id}`, {
      name: 'Sales and marketing',
      members: { groups: [groupIds.Retail!], people: [TINA] },
      helpdesk: { people: [HANK.upn] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(adminUnitSchema.parse(res.json())).toMatchObject({ name: 'Sales and marketing', members: { count: 2 } });
    expect((await lastAudit('admin.unit.update')).details).toMatchObject({ previousName: 'Sales', unit: 'Sales and marketing' });
    // Hank now serves both units: uma is his to help.
    expect((await callAs(m, HANK, 'GET', `/api/admin/users/${UMA}`)).statusCode).toBe(200);

    expect((await callAs(m, ADMIN, 'DELETE', `/api/admin/units/${sales.id}`)).statusCode).toBe(200);
    expect((await lastAudit('admin.unit.delete')).details).toMatchObject({ unitId: sales.id, unit: 'Sales and marketing' });
    expect((await callAs(m, HANK, 'GET', `/api/admin/users/${UMA}`)).statusCode).toBe(404);
    expect(errorOf(await callAs(m, ADMIN, 'GET', `/api/admin/units/${sales.id}`)).code).toBe('unit.not_found');
    expect(errorOf(await callAs(m, ADMIN, 'DELETE', `/api/admin/units/${sales.id}`)).code).toBe('unit.not_found');
  });

  it('lists directory groups to choose from', async () => {
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/directory-groups?q=ledger');
    expect(res.json()).toMatchObject({ groups: [{ name: 'Ledger' }, { name: 'Ledger desk' }], more: false });
  });
});

describe('HELPDESK_SCOPE_REQUIRED=true', () => {
  let r: ScimTestApp;
  beforeAll(async () => {
    r = await scimTestApp({ HELPDESK_SCOPE_REQUIRED: 'true' });
  });
  afterAll(async () => r?.close());

  it('lets a helpdesk member assigned to no unit reach nobody, and says so; a Solution Administrator everyone', async () => {
    expect(adminReachSchema.parse((await callAs(r, HELPDESK, 'GET', '/api/admin/units/mine')).json())).toEqual({
      reach: 'nobody',
      units: [],
    });
    expect(adminUsersResponseSchema.parse((await callAs(r, HELPDESK, 'GET', '/api/admin/users?q=')).json()).users).toEqual([]);
    const bob = await callAs(r, HELPDESK, 'GET', '/api/admin/users/bob@example.com');
    expect(bob.statusCode).toBe(404);
    expect(bob.body).toBe((await callAs(r, HELPDESK, 'GET', `/api/admin/users/${NOBODY}`)).body);
    expect((await callAs(r, HELPDESK, 'GET', '/api/admin/reports/coverage')).statusCode).toBe(403);
    expect((await callAs(r, ADMIN, 'GET', '/api/admin/users/bob@example.com')).statusCode).toBe(200);
  });
});
