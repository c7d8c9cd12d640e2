import { beforeAll, describe, expect, it } from 'vitest';
import { adminSnapshot } from '../../../test/admin-api.js';
import { entraUser, expectScimError, patchOp, useScimTestApp } from '../../../test/scim-api.js';

const s = useScimTestApp();
let ids: string[] = [];
beforeAll(async () => {
  ids = [];
  for (const n of ['gina', 'gus', 'gwen']) {
    const res = await s.scim('POST', '/Users', entraUser(`${n}@groups.example`));
    ids.push(res.json().id);
  }
});

const membersOf = (body: { members?: Array<{ value: string }> }) => (body.members ?? []).map((m) => m.value).sort();
const groupSnapshot = async () =>
  JSON.stringify([
    await s.db.selectFrom('scim_group').selectAll().orderBy('id').execute(),
    await s.db.selectFrom('scim_group_member').selectAll().orderBy('group_id').orderBy('user_id').execute(),
  ]);

describe('/scim/v2/Groups', () => {
  it('creates an empty group and one with members, audited with the token name', async () => {
    const empty = await s.scim('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Empty Group',
      externalId: 'g-0',
    });
    expect(empty.statusCode, empty.body).toBe(201);
    expect(empty.json()).toMatchObject({ displayName: 'Empty Group', externalId: 'g-0', members: [], meta: { resourceType: 'Group' } });
    expect(empty.headers.location).toBe(`https://localhost:8443/scim/v2/Groups/${empty.json().id}`);
    const full = await s.scim('POST', '/Groups', { displayName: 'Full Group', members: [{ value: ids[0] }, { value: ids[1] }] });
    expect(full.statusCode).toBe(201);
    expect(membersOf(full.json())).toEqual([ids[0], ids[1]].sort());
    expect(full.json().members[0]).toMatchObject({ $ref: expect.stringContaining('/scim/v2/Users/') });
    expect((await s.auditOf('scim.group.create')).map((e) => e.actor_upn)).toEqual(['SCIM_TOKEN', 'SCIM_TOKEN']);
  });

  it('refuses a taken displayName (409), a missing displayName and unknown members (400), storing nothing', async () => {
    await s.scim('POST', '/Groups', { displayName: 'Taken' });
    const before = await groupSnapshot();
    expectScimError(await s.scim('POST', '/Groups', { displayName: 'TAKEN' }), 409, 'uniqueness');
    expectScimError(await s.scim('POST', '/Groups', { members: [] }), 400, 'invalidValue');
    expectScimError(
      await s.scim('POST', '/Groups', { displayName: 'Ghosts', members: [{ value: '00000000-0000-4000-8000-000000000000' }] }),
      400,
      'invalidValue',
    );
    expectScimError(await s.scim('POST', '/Groups', { displayName: 'Bad\u0000' }), 400, 'invalidValue');
    expectScimError(await s.scim('POST', '/Groups', undefined, { raw: '{' }), 400, 'invalidSyntax');
    expect(await groupSnapshot()).toBe(before);
  });

  it('reads by id, lists with a displayName filter and excludedAttributes=members', async () => {
    const g = (await s.scim('POST', '/Groups', { displayName: 'Readers', members: [{ value: ids[2] }] })).json();
    expect((await s.scim('GET', `/Groups/${g.id}`)).json()).toMatchObject({ id: g.id, displayName: 'Readers' });
    const list = (
      await s.scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "readers"')}&excludedAttributes=members`)
    ).json();
    expect(list.totalResults).toBe(1);
    expect(list.Resources[0].id).toBe(g.id);
    expect(list.Resources[0].members).toBeUndefined();
    const withMembers = (await s.scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Readers"')}`)).json();
    expect(membersOf(withMembers.Resources[0])).toEqual([ids[2]]);
    expect((await s.scim('GET', `/Groups/${g.id}?attributes=displayName`)).json().members).toBeUndefined();
    expectScimError(await s.scim('GET', '/Groups/00000000-0000-4000-8000-000000000000'), 404);
    expectScimError(await s.scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq')}`), 400, 'invalidFilter');
  });

  it('PATCH adds one and several members, removes one by value filter, several by value, and all with no value', async () => {
    const g = (await s.scim('POST', '/Groups', { displayName: 'Patched' })).json();
    const one = await s.scim('PATCH', `/Groups/${g.id}`, patchOp({ op: 'Add', path: 'members', value: [{ value: ids[0] }] }));
    expect(one.statusCode, one.body).toBe(200);
    expect(membersOf(one.json())).toEqual([ids[0]]);
    const several = await s.scim(
      'PATCH',
      `/Groups/${g.id}`,
      patchOp({ op: 'add', path: 'members', value: [{ value: ids[1] }, { value: ids[2] }, { value: ids[0] }] }),
    );
    expect(membersOf(several.json())).toEqual([...ids].sort());
    const filtered = await s.scim('PATCH', `/Groups/${g.id}`, patchOp({ op: 'remove', path: `members[value eq "${ids[0]}"]` }));
    expect(membersOf(filtered.json())).toEqual([ids[1], ids[2]].sort());
    const byValue = await s.scim('PATCH', `/Groups/${g.id}`, patchOp({ op: 'Remove', path: 'members', value: [{ value: ids[1] }] }));
    expect(membersOf(byValue.json())).toEqual([ids[2]]);
    await s.scim('PATCH', `/Groups/${g.id}`, patchOp({ op: 'add', path: 'members', value: [{ value: ids[0] }] }));
    const emptied = await s.scim('PATCH', `/Groups/${g.id}`, patchOp({ op: 'remove', path: 'members' }));
    expect(membersOf(emptied.json())).toEqual([]);
    const renamed = await s.scim('PATCH', `/Groups/${g.id}`, patchOp({ op: 'Replace', value: { displayName: 'Patched Again' } }));
    expect(renamed.json().displayName).toBe('Patched Again');
    expectScimError(
      await s.scim('PATCH', `/Groups/${g.id}`, patchOp({ op: 'add', path: 'members', value: [{ value: 'nobody' }] })),
      400,
      'invalidValue',
    );
    expectScimError(await s.scim('PATCH', '/Groups/00000000-0000-4000-8000-000000000000', patchOp({ op: 'remove', path: 'members' })), 404);
  });

  it('PUT replaces name and members', async () => {
    const g = (await s.scim('POST', '/Groups', { displayName: 'Put Me', members: [{ value: ids[0] }] })).json();
    const res = await s.scim('PUT', `/Groups/${g.id}`, { displayName: 'Put Done', members: [{ value: ids[1] }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().displayName).toBe('Put Done');
    expect(membersOf(res.json())).toEqual([ids[1]]);
  });

  it("deleting a user removes it from its groups; the user's groups show on the user", async () => {
    const leaver = (await s.scim('POST', '/Users', entraUser('leaver@groups.example'))).json();
    const g = (await s.scim('POST', '/Groups', { displayName: 'Has Leaver', members: [{ value: leaver.id }, { value: ids[0] }] })).json();
    expect((await s.scim('GET', `/Users/${leaver.id}`)).json().groups).toEqual([
      { value: g.id, display: 'Has Leaver', $ref: expect.stringContaining(g.id) },
    ]);
    expect((await s.scim('DELETE', `/Users/${leaver.id}`)).statusCode).toBe(204);
    expect(membersOf((await s.scim('GET', `/Groups/${g.id}`)).json())).toEqual([ids[0]]);
  });

  it('DELETE removes the group (not its users), audited; 404 afterwards', async () => {
    const g = (await s.scim('POST', '/Groups', { displayName: 'Doomed', members: [{ value: ids[0] }] })).json();
    const before = await adminSnapshot(s.db);
    expect((await s.scim('DELETE', `/Groups/${g.id}`)).statusCode).toBe(204);
    expect(await adminSnapshot(s.db)).toBe(before);
    expect((await s.scim('GET', `/Users/${ids[0]}`)).statusCode).toBe(200);
    expectScimError(await s.scim('GET', `/Groups/${g.id}`), 404);
    expect((await s.auditOf('scim.group.delete')).at(-1)).toMatchObject({ actor_upn: 'SCIM_TOKEN', details: { displayName: 'Doomed' } });
  });
});
