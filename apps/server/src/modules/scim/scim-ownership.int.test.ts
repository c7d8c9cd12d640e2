import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import { ADMIN } from '../../../test/admin-api.js';
import { TEST_PASSWORD } from '../../../test/app.js';
import { signIn } from '../../../test/oidc-flow.js';
import { entraUser, expectScimError, patchOp, useScimTestApp } from '../../../test/scim-api.js';
import { byUserName, jitSignIn, revocationOf, stateOf, successes, tokenMadeBy } from '../../../test/scim-ownership.js';
import { loadConfig } from '../../config.js';
import { verifyPassword } from '../../idp/password.js';
import { PASSWORD_REFUSED, TOKEN_CREATOR_REFUSED } from './scim-users.service.js';

/**
 * SCIM manages only what it provisioned, on the embedded default with the demo staff and
 * PROVISIONING=both: accounts it did not create are refused or adopted, never silently taken over.
 */

describe('SCIM and the accounts it did not create (defaults)', () => {
  const s = useScimTestApp({ PROVISIONING: 'both' });

  it('refuses a POST naming the seeded Solution Administrator (409 uniqueness): password, roles and rows unchanged', async () => {
    const before = await stateOf(s, 'admin@example.com');
    const res = await s.scim('POST', '/Users', entraUser('admin@example.com', { password: 'Taken-Over-Pa55word!', roles: [] }));
    expectScimError(res, 409, 'uniqueness');
    expect(await stateOf(s, 'admin@example.com')).toBe(before);
    const account = await s.db
      .selectFrom('idp_account')
      .select('password_hash')
      .where('username', '=', 'admin@example.com')
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(TEST_PASSWORD, account.password_hash)).toBe(true);
    expect(await verifyPassword('Taken-Over-Pa55word!', account.password_hash)).toBe(false);
    const dir = await s.db.selectFrom('directory_user').select('roles').where('upn', '=', 'admin@example.com').executeTakeFirstOrThrow();
    expect(dir.roles).toEqual([ROLE_SOLUTION_ADMIN]);
    expect(await successes(s, 'admin@example.com')).toEqual([]);
    expect((await s.auditOf('scim.user.create')).at(-1)).toMatchObject({ outcome: 'failure', actor_upn: 'SCIM_TOKEN' });
    // The administrator still signs in with their own password, with their role; the other one is refused.
    const tokens = await signIn(s.t.app, s.t.config, 'admin@example.com', TEST_PASSWORD);
    expect((decodeJwt(tokens.access_token) as { roles: string[] }).roles).toContain(ROLE_SOLUTION_ADMIN);
    await expect(signIn(s.t.app, s.t.config, 'admin@example.com', 'Taken-Over-Pa55word!')).rejects.toThrow();
  });

  it('neither returns nor adopts a seeded account on a filtered read, and refuses a POST of an unprotected one', async () => {
    for (const upn of ['bob@example.com', 'admin@example.com', 'nomfa@example.com']) {
      const before = await stateOf(s, upn);
      const res = await s.scim('GET', byUserName(upn));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ totalResults: 0, Resources: [] });
      expect(await stateOf(s, upn)).toBe(before);
    }
    const before = await stateOf(s, 'bob@example.com');
    expectScimError(await s.scim('POST', '/Users', entraUser('Bob@Example.com')), 409, 'uniqueness');
    expect(await stateOf(s, 'bob@example.com')).toBe(before);
    expect(await s.auditOf('scim.user.adopted')).toEqual([]);
    expect(await successes(s, 'bob@example.com')).toEqual([]);
  });

  it('adopts an unprotected just-in-time account on the filtered read Entra makes, audited, then updates it by id', async () => {
    await jitSignIn(s, 'jit.adopt@example.com');
    const provisionedBefore = (
      await s.db.selectFrom('directory_user').select('provisioned_at').where('upn', '=', 'jit.adopt@example.com').executeTakeFirstOrThrow()
    ).provisioned_at;
    const found = await s.scim('GET', byUserName('JIT.Adopt@example.com'));
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toMatchObject({ totalResults: 1 });
    const user = found.json().Resources[0];
    expect(user).toMatchObject({ userName: 'jit.adopt@example.com', active: true });
    const row = await s.db.selectFrom('scim_user').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.adopted_at).not.toBeNull();
    const dir = await s.db.selectFrom('directory_user').selectAll().where('upn', '=', 'jit.adopt@example.com').executeTakeFirstOrThrow();
    expect(dir.provisioned_at).not.toBeNull();
    if (provisionedBefore) expect(new Date(dir.provisioned_at!).getTime()).toBe(new Date(provisionedBefore).getTime());
    expect(dir.roles).toEqual([]);
    expect(await s.auditOf('scim.user.adopted')).toEqual([
      {
        actor_upn: 'SCIM_TOKEN',
        target_upn: 'jit.adopt@example.com',
        outcome: 'success',
        details: expect.objectContaining({ scimId: user.id, via: 'filter', source: 'jit' }),
      },
    ]);

    // Read again: the same resource, adopted once.
    expect((await s.scim('GET', byUserName('jit.adopt@example.com'))).json().Resources[0].id).toBe(user.id);
    expect(await s.auditOf('scim.user.adopted')).toHaveLength(1);

    const patched = await s.scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'Replace', path: 'displayName', value: 'Jit Adopted' }));
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().displayName).toBe('Jit Adopted');
  });

  it('refuses a password on an adopted account (400 mutability) in PATCH and PUT, changing nothing', async () => {
    await jitSignIn(s, 'jit.nopass@example.com');
    const user = (await s.scim('GET', byUserName('jit.nopass@example.com'))).json().Resources[0];
    const before = await stateOf(s, 'jit.nopass@example.com');
    const patch = expectScimError(
      await s.scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', path: 'password', value: 'Sneaky-Pa55word!' })),
      400,
      'mutability',
    );
    expect(patch.detail).toBe(PASSWORD_REFUSED);
    const put = expectScimError(
      await s.scim(
        'PUT',
        `/Users/${user.id}`,
        entraUser('jit.nopass@example.com', { password: 'Sneaky-Pa55word!', displayName: 'Changed' }),
      ),
      400,
      'mutability',
    );
    expect(put.detail).toBe(PASSWORD_REFUSED);
    expect(await stateOf(s, 'jit.nopass@example.com')).toBe(before);
    expect(await s.db.selectFrom('idp_account').select('id').where('username', '=', 'jit.nopass@example.com').execute()).toEqual([]);
    expect((await successes(s, 'jit.nopass@example.com')).map((e) => e.action)).toEqual(['scim.user.adopted']);
  });

  it('adopts an unprotected just-in-time account on POST too (201, audited as adopted, no duplicate), but not with a password', async () => {
    await jitSignIn(s, 'jit.post@example.com');
    const res = await s.scim(
      'POST',
      '/Users',
      entraUser('jit.post@example.com', { displayName: 'Posted Jit', roles: [{ value: 'Staff.Member' }] }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const rows = await s.db.selectFrom('scim_user').selectAll().where('user_name', 'ilike', 'jit.post@example.com').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.adopted_at).not.toBeNull();
    expect(await s.db.selectFrom('directory_user').selectAll().where('upn', '=', 'jit.post@example.com').executeTakeFirst()).toMatchObject({
      display_name: 'Posted Jit',
      roles: ['Staff.Member'],
    });
    expect((await s.auditOf('scim.user.adopted')).at(-1)).toMatchObject({
      target_upn: 'jit.post@example.com',
      details: { scimId: res.json().id, via: 'create', source: 'jit' },
    });

    await jitSignIn(s, 'jit.postpass@example.com');
    const before = await stateOf(s, 'jit.postpass@example.com');
    const refused = expectScimError(
      await s.scim('POST', '/Users', entraUser('jit.postpass@example.com', { password: 'Sneaky-Pa55word!' })),
      400,
      'mutability',
    );
    expect(refused.detail).toBe(PASSWORD_REFUSED);
    expect(await stateOf(s, 'jit.postpass@example.com')).toBe(before);
    expect(await successes(s, 'jit.postpass@example.com')).toEqual([]);
  });

  it('neither returns nor adopts a protected just-in-time account, and refuses its POST', async () => {
    await jitSignIn(s, 'jit.desk@example.com', [ROLE_HELPDESK]);
    const before = await stateOf(s, 'jit.desk@example.com');
    expect((await s.scim('GET', byUserName('jit.desk@example.com'))).json().totalResults).toBe(0);
    expectScimError(await s.scim('POST', '/Users', entraUser('jit.desk@example.com', { roles: [] })), 409, 'uniqueness');
    expect(await stateOf(s, 'jit.desk@example.com')).toBe(before);
    expect(await successes(s, 'jit.desk@example.com')).toEqual([]);
  });

  it('creates a user whose name was only seen at a sign-in, but refuses one the MFA provider already holds', async () => {
    const seen = (upn: string, mfaStatus: string | null) =>
      s.db
        .insertInto('directory_user')
        .values({ upn, display_name: 'Seen Once', email: upn, roles: [], source: 'sign_in', mfa_status: mfaStatus })
        .execute();
    await seen('seen.once@example.com', null);
    const created = await s.scim('POST', '/Users', entraUser('seen.once@example.com', { password: 'Seen-Pa55word!' }));
    expect(created.statusCode, created.body).toBe(201);
    expect(
      (await s.db.selectFrom('scim_user').select('adopted_at').where('id', '=', created.json().id).executeTakeFirstOrThrow()).adopted_at,
    ).toBeNull();
    expect((await s.auditOf('scim.user.create')).at(-1)).toMatchObject({ target_upn: 'seen.once@example.com', outcome: 'success' });

    await seen('imported@example.com', 'active');
    const before = await stateOf(s, 'imported@example.com');
    expect((await s.scim('GET', byUserName('imported@example.com'))).json().totalResults).toBe(0);
    expectScimError(await s.scim('POST', '/Users', entraUser('imported@example.com')), 409, 'uniqueness');
    expect(await stateOf(s, 'imported@example.com')).toBe(before);
    expect(await successes(s, 'imported@example.com')).toEqual([]);
  });

  it('refuses to rename a SCIM user onto an account it does not manage (409), changing nothing', async () => {
    const u = (await s.scim('POST', '/Users', entraUser('renamer@example.com'))).json();
    const before = await stateOf(s, 'bob@example.com');
    expectScimError(
      await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'replace', path: 'userName', value: 'bob@example.com' })),
      409,
      'uniqueness',
    );
    expectScimError(await s.scim('PUT', `/Users/${u.id}`, entraUser('BOB@example.com')), 409, 'uniqueness');
    expect(await stateOf(s, 'bob@example.com')).toBe(before);
    expect((await s.db.selectFrom('scim_user').select('user_name').where('id', '=', u.id).executeTakeFirstOrThrow()).user_name).toBe(
      'renamer@example.com',
    );
  });

  it('sets a password only on accounts SCIM created, and a new password ends their sessions', async () => {
    const u = (await s.scim('POST', '/Users', entraUser('withpass@example.com', { password: 'First-Pa55word!' }))).json();
    expect(await revocationOf(s, 'withpass@example.com')).toBeUndefined();
    const earlier = await s.token('withpass@example.com');
    const me = () => s.t.app.inject({ method: 'GET', url: '/api/me/activity', headers: { authorization: `Bearer ${earlier}` } });
    expect((await me()).statusCode).toBe(200);
    const res = await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'replace', path: 'password', value: 'Second-Pa55word!' }));
    expect(res.statusCode, res.body).toBe(200);
    const account = await s.db
      .selectFrom('idp_account')
      .select('password_hash')
      .where('username', '=', 'withpass@example.com')
      .executeTakeFirstOrThrow();
    expect(await verifyPassword('Second-Pa55word!', account.password_hash)).toBe(true);
    expect(await revocationOf(s, 'withpass@example.com')).toEqual({ reason: 'password_changed' });
    const refused = await me();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('auth.token_expired');
    expect((await s.auditOf('scim.user.update')).at(-1)).toMatchObject({ details: { attributes: ['password'] } });
  });

  it('ends the sessions of a user set inactive, and on DELETE before the identity provider account goes', async () => {
    const u = (await s.scim('POST', '/Users', entraUser('ending@example.com', { password: 'End-Pa55word!' }))).json();
    await s.scim('PATCH', `/Users/${u.id}`, patchOp({ op: 'replace', path: 'active', value: false }));
    expect(await revocationOf(s, 'ending@example.com')).toEqual({ reason: 'account_disabled' });

    const v = (await s.scim('POST', '/Users', entraUser('deleted@example.com', { password: 'Del-Pa55word!' }))).json();
    const account = await s.db
      .selectFrom('idp_account')
      .select('id')
      .where('username', '=', 'deleted@example.com')
      .executeTakeFirstOrThrow();
    // What the embedded identity provider keeps for a signed-in browser.
    await s.db
      .insertInto('oidc_payload')
      .values({ model: 'Session', id: 'scim-delete-session', payload: JSON.stringify({ accountId: account.id }) })
      .execute();
    expect((await s.scim('DELETE', `/Users/${v.id}`)).statusCode).toBe(204);
    expect(await s.db.selectFrom('oidc_payload').select('id').where('id', '=', 'scim-delete-session').execute()).toEqual([]);
    expect(await revocationOf(s, 'deleted@example.com')).toEqual({ reason: 'account_removed' });
  });

  it('sets provisioned_at when SCIM creates a user', async () => {
    await s.scim('POST', '/Users', entraUser('fresh.scim@example.com'));
    const dir = await s.db
      .selectFrom('directory_user')
      .select('provisioned_at')
      .where('upn', '=', 'fresh.scim@example.com')
      .executeTakeFirstOrThrow();
    expect(dir.provisioned_at).not.toBeNull();
  });

  it('keeps a token away from the account of the Solution Administrator who created it (hidden on reads, 403 on writes)', async () => {
    const boss = (
      await s.scim('POST', '/Users', entraUser('boss@example.com', { roles: [{ value: ROLE_SOLUTION_ADMIN }], password: 'Boss-Pa55word!' }))
    ).json();
    const other = (await s.scim('POST', '/Users', entraUser('colleague@example.com'))).json();
    const token = await tokenMadeBy(s, 'boss@example.com', 'Boss token');
    const before = await stateOf(s, 'boss@example.com');
    const failuresBefore = (await s.db.selectFrom('audit_event').select('id').where('outcome', '=', 'failure').execute()).length;

    expectScimError(await s.scim('GET', `/Users/${boss.id}`, undefined, { token }), 404);
    expect((await s.scim('GET', byUserName('boss@example.com'), undefined, { token })).json().totalResults).toBe(0);
    const all = (await s.scim('GET', '/Users?count=500', undefined, { token })).json();
    expect(all.Resources.map((r: { id: string }) => r.id)).not.toContain(boss.id);
    expect(all.Resources.map((r: { id: string }) => r.id)).toContain(other.id);

    for (const res of [
      await s.scim('PATCH', `/Users/${boss.id}`, patchOp({ op: 'replace', path: 'active', value: false }), { token }),
      await s.scim('PATCH', `/Users/${boss.id}`, patchOp({ op: 'remove', path: 'roles' }), { token }),
      await s.scim('PUT', `/Users/${boss.id}`, entraUser('boss@example.com', { password: 'Mine-Now-Pa55word!' }), { token }),
      await s.scim('DELETE', `/Users/${boss.id}`, undefined, { token }),
      await s.scim('POST', '/Users', entraUser('BOSS@example.com'), { token }),
      await s.scim('PUT', `/Users/${other.id}`, entraUser('boss@example.com'), { token }),
    ])
      expect(expectScimError(res, 403).detail).toBe(TOKEN_CREATOR_REFUSED);
    expect(await stateOf(s, 'boss@example.com')).toBe(before);
    const account = await s.db
      .selectFrom('idp_account')
      .select('password_hash')
      .where('username', '=', 'boss@example.com')
      .executeTakeFirstOrThrow();
    expect(await verifyPassword('Boss-Pa55word!', account.password_hash)).toBe(true);
    expect((await s.db.selectFrom('audit_event').select('id').where('outcome', '=', 'failure').execute()).length).toBe(failuresBefore + 6);
    expect((await successes(s, 'boss@example.com')).map((e) => e.action)).toEqual(['scim.user.create']);

    // The same account is within reach of any other token.
    expect((await s.scim('GET', `/Users/${boss.id}`)).statusCode).toBe(200);
    expect((await s.scim('GET', `/Users/${other.id}`, undefined, { token })).statusCode).toBe(200);
  });

  it("keeps the creator's group memberships out of the token's reach: not shown, kept on writes, never added or removed", async () => {
    const chief = (await s.scim('POST', '/Users', entraUser('chief@example.com'))).json();
    const mate = (await s.scim('POST', '/Users', entraUser('mate@example.com'))).json();
    const group = (await s.scim('POST', '/Groups', { displayName: 'Chiefs', members: [{ value: chief.id }, { value: mate.id }] })).json();
    const token = await tokenMadeBy(s, 'chief@example.com', 'Chief token');
    const members = async () =>
      (await s.db.selectFrom('scim_group_member').select('user_id').where('group_id', '=', group.id).execute())
        .map((m) => m.user_id)
        .sort();

    const seen = (await s.scim('GET', `/Groups/${group.id}`, undefined, { token })).json();
    expect(seen.members.map((m: { value: string }) => m.value)).toEqual([mate.id]);
    const listed = (await s.scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Chiefs"')}`, undefined, { token })).json();
    expect(listed.Resources[0].members.map((m: { value: string }) => m.value)).toEqual([mate.id]);

    // Writes of what the token sees keep the creator's membership.
    expect((await s.scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'remove', path: 'members' }), { token })).statusCode).toBe(200);
    expect(await members()).toEqual([chief.id]);
    expect(
      (await s.scim('PUT', `/Groups/${group.id}`, { displayName: 'Chiefs', members: [{ value: mate.id }] }, { token })).statusCode,
    ).toBe(200);
    expect(await members()).toEqual([chief.id, mate.id].sort());

    const before = await stateOf(s, 'chief@example.com');
    const groupsBefore = JSON.stringify(await s.db.selectFrom('scim_group').selectAll().orderBy('id').execute());
    expectScimError(
      await s.scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'add', path: 'members', value: [{ value: chief.id }] }), { token }),
      403,
    );
    expectScimError(await s.scim('POST', '/Groups', { displayName: 'Chief again', members: [{ value: chief.id }] }, { token }), 403);
    expectScimError(await s.scim('DELETE', `/Groups/${group.id}`, undefined, { token }), 403);
    expect(await members()).toEqual([chief.id, mate.id].sort());
    expect(await stateOf(s, 'chief@example.com')).toBe(before);
    expect(JSON.stringify(await s.db.selectFrom('scim_group').selectAll().orderBy('id').execute())).toBe(groupsBefore);
    // Any other token sees the whole group.
    expect((await s.scim('GET', `/Groups/${group.id}`)).json().members).toHaveLength(2);
  });
});

describe('SCIM_ADOPT_EXISTING=true', () => {
  const s = useScimTestApp({ PROVISIONING: 'both', SCIM_ADOPT_EXISTING: 'true' });

  it('adopts an unprotected seeded account (audited) and still refuses protected ones', async () => {
    const found = (await s.scim('GET', byUserName('bob@example.com'))).json();
    expect(found.totalResults).toBe(1);
    expect((await s.auditOf('scim.user.adopted')).at(-1)).toMatchObject({
      target_upn: 'bob@example.com',
      outcome: 'success',
      details: { via: 'filter', source: 'demo' },
    });
    // Adopted, not created: no password over SCIM.
    expectScimError(
      await s.scim('PATCH', `/Users/${found.Resources[0].id}`, patchOp({ op: 'replace', path: 'password', value: 'Bob-Pa55word!' })),
      400,
      'mutability',
    );

    for (const upn of ['admin@example.com', 'helpdesk@example.com']) {
      const before = await stateOf(s, upn);
      expect((await s.scim('GET', byUserName(upn))).json().totalResults).toBe(0);
      expectScimError(await s.scim('POST', '/Users', entraUser(upn, { roles: [] })), 409, 'uniqueness');
      expect(await stateOf(s, upn)).toBe(before);
      expect(await successes(s, upn)).toEqual([]);
    }
  });
});

describe('SCIM_ADOPT_EXISTING=true with SCIM_ADOPT_PROTECTED=true', () => {
  const s = useScimTestApp({ PROVISIONING: 'both', SCIM_ADOPT_EXISTING: 'true', SCIM_ADOPT_PROTECTED: 'true' });

  it('adopts a protected account too, never for the token of that very administrator', async () => {
    const secret = await tokenMadeBy(s, ADMIN.upn, 'Admin token');
    const before = await stateOf(s, 'admin@example.com');
    expect((await s.scim('GET', byUserName('admin@example.com'), undefined, { token: secret })).json().totalResults).toBe(0);
    expectScimError(await s.scim('POST', '/Users', entraUser('admin@example.com', { roles: [] }), { token: secret }), 403);
    expect(await stateOf(s, 'admin@example.com')).toBe(before);

    const found = (await s.scim('GET', byUserName('admin@example.com'))).json();
    expect(found.totalResults).toBe(1);
    expect((await s.auditOf('scim.user.adopted')).at(-1)).toMatchObject({ target_upn: 'admin@example.com', actor_upn: 'SCIM_TOKEN' });
  });

  it('is refused as configuration without SCIM_ADOPT_EXISTING', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', SCIM_ADOPT_PROTECTED: 'true' })).toThrow(/SCIM_ADOPT_PROTECTED/);
  });
});
