import { describe, expect, it } from 'vitest';
import { ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import { ADMIN, adminSnapshot, callAs, HELPDESK } from '../../../test/admin-api.js';
import { entraUser, expectScimError, patchOp, SCIM, useScimTestApp } from '../../../test/scim-api.js';

const s = useScimTestApp();

async function create(userName: string, extra: Record<string, unknown> = {}) {
  const res = await s.scim('POST', '/Users', entraUser(userName, extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Record<string, any>;
}
const mfaUser = (upn: string) => s.db.selectFrom('mfa_user').selectAll().where('username', '=', upn).executeTakeFirst();
const directory = (upn: string) => s.db.selectFrom('directory_user').selectAll().where('upn', '=', upn).executeTakeFirst();

describe('POST /scim/v2/Users', () => {
  it('creates the user, the MFA account without devices and the directory entry, audited with the token name', async () => {
    const res = await s.scim('POST', '/Users', entraUser('Dana.Create@Example.com'));
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
    const body = res.json();
    expect(res.headers.location).toBe(`https://localhost:8443/scim/v2/Users/${body.id}`);
    expect(body).toMatchObject({
      userName: 'Dana.Create@Example.com',
      active: true,
      externalId: 'Dana.Create',
      name: { givenName: 'Dana', familyName: 'Doe' },
      meta: { resourceType: 'User' },
    });
    // The extension attribute is unknown to the portal: ignored, not echoed.
    expect(JSON.stringify(body)).not.toContain('Finance');
    const account = await mfaUser('dana.create@example.com');
    expect(account).toMatchObject({ status: 'active', email: 'Dana.Create@Example.com', real_name: 'Dana Doe' });
    expect(await s.db.selectFrom('mfa_device').select('id').where('user_id', '=', account!.id).execute()).toEqual([]);
    expect(await directory('dana.create@example.com')).toMatchObject({ source: 'scim', roles: null, display_name: 'Dana Doe' });
    const events = await s.auditOf('scim.user.create');
    expect(events.at(-1)).toMatchObject({ actor_upn: 'SCIM_TOKEN', target_upn: 'dana.create@example.com', outcome: 'success' });
  });

  it('accepts application/json too, and ignores a custom attribute without echoing it', async () => {
    const res = await s.scim(
      'POST',
      '/Users',
      { userName: 'json@example.com', favouriteColour: 'teal', 'urn:custom:thing': { x: 1 } },
      { contentType: 'application/json' },
    );
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain('teal');
    expect(res.body).not.toContain('favouriteColour');
  });

  it('refuses a userName taken in another letter case with 409 uniqueness, storing nothing', async () => {
    await create('unique@example.com');
    const before = await adminSnapshot(s.db);
    expectScimError(await s.scim('POST', '/Users', entraUser('UNIQUE@example.com')), 409, 'uniqueness');
    expect(await adminSnapshot(s.db)).toBe(before);
    expect((await s.auditOf('scim.user.create')).at(-1)).toMatchObject({ outcome: 'failure', actor_upn: 'SCIM_TOKEN' });
  });

  it.each([
    ['a missing userName', { ...entraUser('x@example.com'), userName: undefined }, 400, 'invalidValue'],
    ['an empty userName', entraUser('   '), 400, 'invalidValue'],
    ['a NUL byte', entraUser('nul\u0000@example.com'), 400, 'invalidValue'],
    ['a control character in a nested value', entraUser('ctl@example.com', { name: { givenName: 'Bell\u0007' } }), 400, 'invalidValue'],
    ['a lone surrogate', entraUser('sur@example.com', { displayName: 'Broken \ud800' }), 400, 'invalidValue'],
    ['active that is not a boolean', entraUser('act@example.com', { active: 'maybe' }), 400, 'invalidValue'],
    ['emails that are not objects', entraUser('em@example.com', { emails: ['a@b.c'] }), 400, 'invalidValue'],
    ['a body that is not an object', [1, 2], 400, 'invalidSyntax'],
  ])('refuses %s with a SCIM 400, storing nothing', async (_label, body, status, scimType) => {
    const before = await adminSnapshot(s.db);
    const users = await s.db.selectFrom('scim_user').select('id').execute();
    expectScimError(await s.scim('POST', '/Users', body), status, scimType);
    expect(await adminSnapshot(s.db)).toBe(before);
    expect(await s.db.selectFrom('scim_user').select('id').execute()).toEqual(users);
  });

  it('refuses bad JSON, an empty body, an oversize body and an unknown media type', async () => {
    expectScimError(await s.scim('POST', '/Users', undefined, { raw: '{"userName": ' }), 400, 'invalidSyntax');
    expectScimError(await s.scim('POST', '/Users', undefined, { raw: '' }), 400);
    expectScimError(
      await s.scim('POST', '/Users', undefined, {
        raw: JSON.stringify(entraUser('big@example.com', { displayName: 'x'.repeat(600_000) })),
      }),
      413,
    );
    expectScimError(
      await s.scim('POST', '/Users', undefined, { raw: 'userName=x', contentType: 'application/x-www-form-urlencoded' }),
      415,
    );
    expect(await s.db.selectFrom('scim_user').select('id').where('user_name', '=', 'big@example.com').execute()).toEqual([]);
  });
});

describe('authentication', () => {
  it.each([
    ['no token', null],
    ['a wrong token', 'not-the-token-0123456789-0123456789-0123456789'],
    ['a malformed header', 'a b c'],
  ])('answers %s with a SCIM 401 and stores nothing', async (_label, token) => {
    const before = await adminSnapshot(s.db);
    const res = await s.scim('POST', '/Users', entraUser('intruder@example.com'), { token });
    expectScimError(res, 401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(await adminSnapshot(s.db)).toBe(before);
    expectScimError(await s.scim('GET', '/Users', undefined, { token }), 401);
    expectScimError(await s.scim('GET', '/ServiceProviderConfig', undefined, { token }), 401);
  });
});

describe('GET /scim/v2/Users', () => {
  it('reads a user by id (404 for an unknown or malformed id), with attributes and excludedAttributes', async () => {
    const u = await create('reader@example.com');
    const res = await s.scim('GET', `/Users/${u.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: u.id, userName: 'reader@example.com' });
    expect(res.body).not.toContain('password');
    const only = (await s.scim('GET', `/Users/${u.id}?attributes=userName`)).json();
    expect(Object.keys(only).sort()).toEqual(['id', 'schemas', 'userName']);
    const without = (await s.scim('GET', `/Users/${u.id}?excludedAttributes=emails,name.givenName`)).json();
    expect(without.emails).toBeUndefined();
    expect(without.name).toEqual({ formatted: 'Dana Doe', familyName: 'Doe' });
    expectScimError(await s.scim('GET', '/Users/00000000-0000-4000-8000-000000000000'), 404);
    expectScimError(await s.scim('GET', '/Users/not-a-uuid'), 404);
  });

  it('filters by userName (any case), externalId and the work e-mail, and still returns inactive users', async () => {
    const u = await create('Filter.Me@Example.com', {
      externalId: 'ext-filter',
      active: false,
      emails: [{ type: 'work', value: 'fm@work.example' }],
    });
    const byName = (await s.scim('GET', `/Users?filter=${encodeURIComponent('userName eq "filter.me@example.com"')}`)).json();
    expect(byName).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
    });
    expect(byName.Resources[0]).toMatchObject({ id: u.id, active: false });
    expect((await s.scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "ext-filter"')}`)).json().totalResults).toBe(1);
    expect(
      (await s.scim('GET', `/Users?filter=${encodeURIComponent('emails[type eq "work"].value eq "FM@work.example"')}`)).json().Resources[0]
        .id,
    ).toBe(u.id);
    expect((await s.scim('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@example.com"')}`)).json()).toMatchObject({
      totalResults: 0,
      Resources: [],
    });
    const combined = (
      await s.scim(
        'GET',
        `/Users?filter=${encodeURIComponent('(userName sw "filter." or userName eq "x") and active eq false and meta.created gt "2000-01-01T00:00:00Z"')}`,
      )
    ).json();
    expect(combined.Resources.map((r: { id: string }) => r.id)).toEqual([u.id]);
  });

  it('answers lenient clients: endpoints in any letter case, a trailing slash, unquoted filter words and dates', async () => {
    const u = await create('Lenient.One@Example.com');
    const q = (f: string) => `?filter=${encodeURIComponent(f)}`;
    for (const path of [
      `/users${q('userName eq "lenient.one@example.com"')}`,
      `/Users/${q('userName sw Lenient')}`,
      `/USERS/${q('userName sw LENIENT')}`,
    ]) {
      const res = await s.scim('GET', path);
      expect(res.statusCode, path).toBe(200);
      expect(
        res.json().Resources.map((r: { id: string }) => r.id),
        path,
      ).toEqual([u.id]);
    }
    const since = (await s.scim('GET', `/users${q('userName sw lenient and meta.created gt 2015-10-10T14:38:21Z')}`)).json();
    expect(since.totalResults).toBe(1);
    expect((await s.scim('GET', `/users/${u.id}/`)).json().id).toBe(u.id);
    expect((await s.scim('GET', '/serviceproviderconfig')).statusCode).toBe(200);
    const created = await s.scim('POST', '/users/', entraUser('lenient.two@example.com'));
    expect(created.statusCode).toBe(201);
    const patched = await s.scim('PATCH', `/users/${created.json().id}`, patchOp({ op: 'replace', path: 'displayName', value: 'Two' }));
    // PATCH answers 200 with the resource (RFC 7644, section 3.5.2: 200 or 204; the resource helps clients).
    expect(patched.statusCode).toBe(200);
    expect(patched.json().displayName).toBe('Two');
    expectScimError(await s.scim('GET', `/users${q('userName eq and')}`), 400, 'invalidFilter');
  });

  it('keeps addresses (the work address) and returns them; Entra PATCHes them by value path', async () => {
    const work = {
      type: 'work',
      streetAddress: '1 Main St',
      locality: 'Springfield',
      region: 'IL',
      postalCode: '62701',
      country: 'US',
      primary: true,
    };
    const u = await create('addressed@example.com', { addresses: [work] });
    expect(u.addresses).toEqual([work]);
    expect((await s.scim('GET', `/Users/${u.id}`)).json().addresses).toEqual([work]);
    const patched = await s.scim(
      'PATCH',
      `/Users/${u.id}`,
      patchOp(
        { op: 'replace', path: 'addresses[type eq "work"].locality', value: 'Shelbyville' },
        { op: 'add', path: 'addresses[type eq "work"].formatted', value: '1 Main St, Shelbyville' },
      ),
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().addresses).toEqual([{ ...work, locality: 'Shelbyville', formatted: '1 Main St, Shelbyville' }]);
    const replaced = await s.scim('PUT', `/Users/${u.id}`, entraUser('addressed@example.com'));
    expect(replaced.json().addresses).toBeUndefined();
    expectScimError(
      await s.scim('POST', '/Users', entraUser('bad.address@example.com', { addresses: [{ locality: 7 }] })),
      400,
      'invalidValue',
    );
    expect(
      await s.db.selectFrom('scim_user').select('id').where('user_name', '=', 'bad.address@example.com').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('pages with startIndex and count', async () => {
    for (const n of [1, 2, 3]) await create(`page${n}@paging.example`);
    const all = (await s.scim('GET', `/Users?filter=${encodeURIComponent('userName ew "@paging.example"')}`)).json();
    expect(all.totalResults).toBe(3);
    const page = (await s.scim('GET', `/Users?filter=${encodeURIComponent('userName ew "@paging.example"')}&startIndex=2&count=1`)).json();
    expect(page).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(page.Resources[0].userName).toBe('page2@paging.example');
    expect((await s.scim('GET', '/Users?count=0')).json().Resources).toEqual([]);
    expectScimError(await s.scim('GET', '/Users?startIndex=abc'), 400, 'invalidValue');
  });

  it('refuses a bad filter with 400 invalidFilter', async () => {
    expectScimError(await s.scim('GET', `/Users?filter=${encodeURIComponent('userName eq')}`), 400, 'invalidFilter');
    expectScimError(await s.scim('GET', `/Users?filter=${encodeURIComponent('userName zz "a"')}`), 400, 'invalidFilter');
    expectScimError(await s.scim('GET', `/Users?filter=${encodeURIComponent('userName eq "a\u0000"')}`), 400, 'invalidValue');
  });
});

describe('PUT and PATCH /scim/v2/Users/:id', () => {
  it('PUT replaces the attributes (a rename follows through to the directory and the MFA account)', async () => {
    const u = await create('put.before@example.com');
    const res = await s.scim(
      'PUT',
      `/Users/${u.id}`,
      entraUser('put.after@example.com', { displayName: 'Pat After', emails: [{ type: 'work', value: 'pat@example.com', primary: true }] }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ userName: 'put.after@example.com', displayName: 'Pat After' });
    expect(await mfaUser('put.before@example.com')).toBeUndefined();
    expect(await mfaUser('put.after@example.com')).toMatchObject({ email: 'pat@example.com', real_name: 'Pat After' });
    expect(await directory('put.before@example.com')).toBeUndefined();
    expect(await directory('put.after@example.com')).toMatchObject({ display_name: 'Pat After', source: 'scim' });
    expect((await s.auditOf('scim.user.replace')).at(-1)).toMatchObject({
      target_upn: 'put.after@example.com',
      details: { previousUserName: 'put.before@example.com' },
    });
    expectScimError(await s.scim('PUT', `/Users/${u.id}`, entraUser('unique@example.com')), 409, 'uniqueness');
  });

  it('applies Entra\'s PATCH shapes: op in any case, path-less dotted keys, "False"/"True", e-mail value paths', async () => {
    const u = await create('patchy@example.com');
    const res = await s.scim(
      'PATCH',
      `/Users/${u.id}`,
      patchOp(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'patchy.new@example.com' },
        {
          op: 'Replace',
          value: {
            'name.givenName': 'Paddy',
            'name.familyName': 'Patch',
            displayName: 'Paddy Patch',
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department': 'Sales',
          },
        },
        { op: 'Add', path: 'externalId', value: 'pp-1' },
        { op: 'replace', path: 'title', value: 'Not kept' },
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      externalId: 'pp-1',
      displayName: 'Paddy Patch',
      name: { givenName: 'Paddy', familyName: 'Patch' },
      emails: [{ type: 'work', value: 'patchy.new@example.com' }],
    });
    expect(res.body).not.toContain('Not kept');
    expect(res.body).not.toContain('Sales');

    const off = await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    expect(off.json().active).toBe(false);
    expect(await mfaUser('patchy@example.com')).toMatchObject({
      status: 'disabled',
      status_reason: "Deactivated in the organisation's directory",
    });
    expect((await s.auditOf('scim.user.deactivate')).at(-1)).toMatchObject({ target_upn: 'patchy@example.com', actor_upn: 'SCIM_TOKEN' });
    // Inactive users are still read back (Entra checks them).
    expect((await s.scim('GET', `/Users/${u.id}`)).json().active).toBe(false);

    const on = await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'replace', value: { active: 'True' } }));
    expect(on.json().active).toBe(true);
    expect(await mfaUser('patchy@example.com')).toMatchObject({ status: 'active', status_reason: null });

    const add = await s.scim(
      'PATCH',
      `/Users/${u.id}`,
      patchOp({ op: 'add', path: 'emails[type eq "home"].value', value: 'home@example.net' }),
    );
    expect(add.json().emails).toEqual([
      { type: 'work', value: 'patchy.new@example.com', primary: true },
      { type: 'home', value: 'home@example.net' },
    ]);
    const removed = await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'remove', path: 'emails[type eq "home"]' }));
    expect(removed.json().emails).toHaveLength(1);
  });

  it('refuses bad PATCH requests, storing nothing', async () => {
    const u = await create('badpatch@example.com');
    const before = await adminSnapshot(s.db);
    expectScimError(
      await s.scim('PATCH', `/Users/${u.id}`, { Operations: [{ op: 'frobnicate', path: 'active', value: true }] }),
      400,
      'invalidSyntax',
    );
    expectScimError(await s.scim('PATCH', `/Users/${u.id}`, { Operations: [] }), 400, 'invalidSyntax');
    expectScimError(await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'remove' })), 400, 'noTarget');
    expectScimError(await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'replace', path: 'userName', value: '' })), 400, 'invalidValue');
    expectScimError(
      await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'replace', path: 'active', value: 'nope' })),
      400,
      'invalidValue',
    );
    expectScimError(
      await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'replace', path: 'emails[type eq', value: 'x' })),
      400,
      'invalidPath',
    );
    expectScimError(
      await s.scim('PATCH', '/Users/00000000-0000-4000-8000-000000000000', patchOp({ op: 'replace', path: 'active', value: false })),
      404,
    );
    expect(await adminSnapshot(s.db)).toBe(before);
  });
});

describe('roles (app role assignments)', () => {
  it('are stored with the account: a restricted role protects it from the helpdesk before any sign-in', async () => {
    const u = await create('lead@example.com', {
      roles: [{ primary: false, type: 'WindowsAzureActiveDirectoryRole', display: 'Solution Administrator', value: ROLE_SOLUTION_ADMIN }],
    });
    expect(u.roles).toEqual([
      { primary: false, type: 'WindowsAzureActiveDirectoryRole', display: 'Solution Administrator', value: ROLE_SOLUTION_ADMIN },
    ]);
    expect((await directory('lead@example.com'))?.roles).toEqual([ROLE_SOLUTION_ADMIN]);
    const denied = await callAs(s, HELPDESK, 'GET', '/api/admin/users/lead@example.com');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'auth.forbidden', details: { reason: 'protected_account' } });
    const admin = (await callAs(s, ADMIN, 'GET', '/api/admin/users/lead@example.com')).json();
    expect(admin.protection).toEqual({ protected: true, reason: 'restricted_role' });
  });

  it('make an account with no restricted role open to the helpdesk; never-sent roles stay unknown (protected)', async () => {
    await create('plain@example.com', { roles: [{ value: 'Staff.Member' }] });
    await create('unknown@example.com');
    const open = (await callAs(s, HELPDESK, 'GET', '/api/admin/users/plain@example.com')).json();
    expect(open.protection).toEqual({ protected: false, reason: null });
    const unknown = await callAs(s, HELPDESK, 'GET', '/api/admin/users/unknown@example.com');
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json()).toMatchObject({ details: { reason: 'protection_unknown' } });
  });

  it("follow PATCH add/remove, including Entra's JSON-string values, and the latest of SCIM or the user's token", async () => {
    const u = await create('mover@example.com', { roles: [] });
    expect((await directory('mover@example.com'))?.roles).toEqual([]);
    await s.scim(
      'PATCH',
      `/Users/${u.id}`,
      patchOp({
        op: 'Add',
        path: 'roles',
        value: [{ value: JSON.stringify({ id: 'a1', value: ROLE_HELPDESK, displayName: 'Helpdesk Administrator' }) }],
      }),
    );
    expect((await directory('mover@example.com'))?.roles).toEqual([ROLE_HELPDESK]);
    expect((await s.scim('GET', `/Users/${u.id}`)).json().roles).toEqual([{ value: ROLE_HELPDESK, display: 'Helpdesk Administrator' }]);
    // The user signs in: their token's roles are the latest word.
    const info = await s.t.app.inject({
      method: 'GET',
      url: '/account/getuserinfo?userid=mover@example.com&email=mover@example.com&firstname=M&lastname=M',
      headers: { authorization: `Bearer ${await s.token('mover@example.com', [])}` },
    });
    expect(info.statusCode, info.body).toBe(200);
    expect((await directory('mover@example.com'))?.roles).toEqual([]);
    // Then SCIM again.
    await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'Add', path: 'roles', value: [{ value: ROLE_SOLUTION_ADMIN }] }));
    expect((await directory('mover@example.com'))?.roles).toEqual([ROLE_HELPDESK, ROLE_SOLUTION_ADMIN]);
    await s.scim(
      'PATCH',
      `/Users/${u.id}`,
      patchOp({ op: 'Remove', path: 'roles', value: [{ value: ROLE_HELPDESK }, { value: ROLE_SOLUTION_ADMIN }] }),
    );
    expect((await directory('mover@example.com'))?.roles).toEqual([]);
    expect((await callAs(s, ADMIN, 'GET', '/api/admin/users/mover@example.com')).json().protection.protected).toBe(false);
  });
});

describe('DELETE /scim/v2/Users/:id', () => {
  it('removes the account and its secrets, keeps the audit trail, and answers 404 afterwards', async () => {
    const u = await create('leaver@example.com');
    const account = (await mfaUser('leaver@example.com'))!;
    const app = await s.db
      .insertInto('mfa_device')
      .values({ user_id: account.id, kind: 'authenticator', name: 'Phone app', capabilities: ['passcode'] })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.db.insertInto('default_sign_in_method').values({ upn: 'leaver@example.com', device_id: app.id, method: 'passcode' }).execute();
    await s.db
      .insertInto('mfa_bypass_code')
      .values({ user_id: account.id, code_hash: 'h-leaver', uses_left: 1, expires_at: new Date(Date.now() + 3600_000), created_by: 'x' })
      .execute();
    const res = await s.scim('DELETE', `/Users/${u.id}`);
    expect(res.statusCode).toBe(204);
    expect(await mfaUser('leaver@example.com')).toBeUndefined();
    expect(await s.db.selectFrom('mfa_device').select('id').where('user_id', '=', account.id).execute()).toEqual([]);
    expect(await s.db.selectFrom('mfa_bypass_code').select('id').where('user_id', '=', account.id).execute()).toEqual([]);
    expect(await directory('leaver@example.com')).toBeUndefined();
    // Their default sign-in method goes too: a new account of the same name starts without one.
    expect(await s.db.selectFrom('default_sign_in_method').selectAll().where('upn', '=', 'leaver@example.com').execute()).toEqual([]);
    const trail = await s.db
      .selectFrom('audit_event')
      .select('action')
      .where('target_upn', '=', 'leaver@example.com')
      .orderBy('id')
      .execute();
    expect(trail.map((e) => e.action)).toEqual(['scim.user.create', 'scim.user.delete']);
    expectScimError(await s.scim('GET', `/Users/${u.id}`), 404);
    expectScimError(await s.scim('DELETE', `/Users/${u.id}`), 404);
  });
});

describe('discovery', () => {
  it('serves ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const sp = await s.scim('GET', '/ServiceProviderConfig');
    expect(sp.statusCode).toBe(200);
    expect(sp.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(sp.json()).toMatchObject({ patch: { supported: true }, filter: { supported: true }, bulk: { supported: false } });
    const rt = (await s.scim('GET', '/ResourceTypes')).json();
    expect(rt.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group']);
    expect((await s.scim('GET', '/ResourceTypes/User')).json().endpoint).toBe('/Users');
    const schemas = (await s.scim('GET', '/Schemas')).json();
    expect(schemas.totalResults).toBe(2);
    const user = (await s.scim('GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:User')).json();
    expect(user.attributes.find((a: { name: string }) => a.name === 'roles')).toMatchObject({ multiValued: true, type: 'complex' });
    expectScimError(await s.scim('GET', '/Schemas/urn:nope'), 404);
    expectScimError(await s.scim('GET', '/Nothing'), 404);
  });
  it('is the media type Entra asks for', () => {
    expect(SCIM).toBe('application/scim+json');
  });
});
