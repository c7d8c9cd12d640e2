import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, adminSnapshot, callAs, HELPDESK, JUSTIFY } from '../admin-api.js';
import { errorOf, meTestApp } from '../me-api.js';
import { entraUser, expectScimError, patchOp, scimTestApp, type ScimTestApp } from '../scim-api.js';
import type { DuoStandin } from './duo-standin.js';
import { duoEnv, seedDemoStaff, startStandin } from './support.js';

/**
 * Provisioning effects at Duo, MFA_PROVIDER=duo against the stand-in: SCIM create, patch,
 * put and delete, and the admin screens' disable/enable, become Create/Modify/Delete User calls of the
 * Admin API; a refusal by Duo answers a clear error and leaves the portal's records as they were.
 */

let standin: DuoStandin;
let s: ScimTestApp;

beforeAll(async () => {
  standin = await startStandin();
  seedDemoStaff(standin);
  s = await scimTestApp(duoEnv(standin));
});
afterAll(async () => {
  await s?.close();
  await standin?.close();
});
beforeEach(() => standin.clearFaults());

/** What the portal records about users (SCIM resources, directory, MFA store); the audit log apart. */
async function portalSnapshot() {
  const scimUsers = await s.db.selectFrom('scim_user').selectAll().orderBy('id').execute();
  return JSON.stringify({ scimUsers, admin: await adminSnapshot(s.db) });
}

async function create(userName: string, extra: Record<string, unknown> = {}) {
  const res = await s.scim('POST', '/Users', entraUser(userName, extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

const duoUser = (username: string) => [...standin.users.values()].find((u) => u.username === username);
const lastCall = (method: string, path: RegExp) => standin.requestsTo(method, path).at(-1);

describe('SCIM with MFA_PROVIDER=duo', () => {
  it('POST /Users creates the user at Duo (Create User: username, realname, email, status), signed', async () => {
    await create('Pat.Create@Example.com');
    const call = lastCall('POST', /^\/admin\/v1\/users$/);
    expect(call).toMatchObject({
      status: 200,
      api: 'admin',
      signatureVersion: 2,
      params: { username: 'pat.create@example.com', realname: 'Dana Doe', email: 'Pat.Create@Example.com', status: 'active' },
    });
    expect(duoUser('pat.create@example.com')).toMatchObject({ realname: 'Dana Doe', email: 'Pat.Create@Example.com', status: 'active' });
    const info = await callAs(s, ADMIN, 'GET', '/api/admin/users/pat.create@example.com');
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().mfa).toMatchObject({ provider: 'duo', status: 'active', devices: [] });
  });

  it('POST /Users with active false creates the Duo user disabled, in the one Create User call', async () => {
    const modifies = standin.requestsTo('POST', /^\/admin\/v1\/users\/[A-Z0-9]+$/).length;
    await create('inactive.create@example.com', { active: false });
    expect(lastCall('POST', /^\/admin\/v1\/users$/)?.params).toMatchObject({ username: 'inactive.create@example.com', status: 'disabled' });
    expect(standin.requestsTo('POST', /^\/admin\/v1\/users\/[A-Z0-9]+$/).length).toBe(modifies);
    expect(duoUser('inactive.create@example.com')?.status).toBe('disabled');
  });

  it('PATCH active False / True disables and re-enables the Duo user (Modify User status)', async () => {
    const { id } = await create('patch.active@example.com');
    const off = await s.scim('PATCH', `/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    expect(off.statusCode, off.body).toBe(200);
    expect(lastCall('POST', /^\/admin\/v1\/users\/[A-Z0-9]+$/)?.params).toEqual({ status: 'disabled' });
    expect(duoUser('patch.active@example.com')?.status).toBe('disabled');
    const info = await callAs(s, ADMIN, 'GET', '/api/admin/users/patch.active@example.com');
    expect(info.json().mfa).toMatchObject({ status: 'disabled' });
    const on = await s.scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: true }));
    expect(on.statusCode, on.body).toBe(200);
    expect(lastCall('POST', /^\/admin\/v1\/users\/[A-Z0-9]+$/)?.params).toEqual({ status: 'active' });
    expect(duoUser('patch.active@example.com')?.status).toBe('active');
  });

  it('PATCH of the name and e-mail applies them at Duo (Modify User realname, email)', async () => {
    const { id } = await create('patch.name@example.com');
    const res = await s.scim(
      'PATCH',
      `/Users/${id}`,
      patchOp(
        { op: 'Replace', value: { displayName: 'Patricia Named', 'name.givenName': 'Patricia', 'name.familyName': 'Named' } },
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'p.named@example.com' },
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(lastCall('POST', /^\/admin\/v1\/users\/[A-Z0-9]+$/)?.params).toEqual({
      realname: 'Patricia Named',
      email: 'p.named@example.com',
    });
    expect(duoUser('patch.name@example.com')).toMatchObject({ realname: 'Patricia Named', email: 'p.named@example.com' });
  });

  it('PUT with another userName renames the Duo user (Modify User username); its devices stay', async () => {
    const { id } = await create('put.before@example.com');
    const before = duoUser('put.before@example.com')!;
    standin.addPhone({ userId: before.user_id, number: '+15555550888', name: 'Kept phone', activated: true });
    const res = await s.scim('PUT', `/Users/${id}`, entraUser('Put.After@example.com', { displayName: 'Put After' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(standin.requestsTo('POST', new RegExp(`^/admin/v1/users/${before.user_id}$`)).some((r) => r.params.username)).toBe(true);
    expect(standin.users.get(before.user_id)).toMatchObject({ username: 'put.after@example.com' });
    const devices = await callAs(s, ADMIN, 'GET', '/api/admin/users/put.after@example.com');
    expect(devices.json().mfa.devices.map((d: { name: string }) => d.name)).toEqual(['Kept phone']);
  });

  it('DELETE removes the Duo user (Delete User); the audit trail stays', async () => {
    const { id } = await create('delete.me@example.com');
    const userId = duoUser('delete.me@example.com')!.user_id;
    const res = await s.scim('DELETE', `/Users/${id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(lastCall('DELETE', /^\/admin\/v1\/users\/[A-Z0-9]+$/)).toMatchObject({ path: `/admin/v1/users/${userId}`, status: 200 });
    expect(standin.users.has(userId)).toBe(false);
    expect((await s.auditOf('scim.user.delete')).at(-1)).toMatchObject({ target_upn: 'delete.me@example.com', outcome: 'success' });
  });
});

describe('Admin disable / enable with MFA_PROVIDER=duo', () => {
  it('helpdesk disables a Duo user (status disabled at Duo, audited) and re-enables them', async () => {
    const res = await callAs(s, HELPDESK, 'POST', '/api/admin/users/alice@example.com/disable', JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ provider: 'duo', status: 'disabled' });
    expect(standin.user('alice@example.com').status).toBe('disabled');
    expect(lastCall('POST', /^\/admin\/v1\/users\/[A-Z0-9]+$/)?.params).toEqual({ status: 'disabled' });
    const enabled = await callAs(s, HELPDESK, 'POST', '/api/admin/users/alice@example.com/enable', JUSTIFY);
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({ status: 'active' });
    expect(standin.user('alice@example.com').status).toBe('active');
    const events = await s.db
      .selectFrom('audit_event')
      .select(['action', 'outcome'])
      .where('target_upn', '=', 'alice@example.com')
      .where('action', 'in', ['admin.user.disable', 'admin.user.enable'])
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { action: 'admin.user.disable', outcome: 'success' },
      { action: 'admin.user.enable', outcome: 'success' },
    ]);
  });

  it('keeps Duo’s lockout and bypass apart from disabled: enable leaves them as they are; disable disables', async () => {
    standin.addUser({ username: 'locked.duo@example.com', status: 'locked out', lockoutReason: 'Failed Attempts' });
    standin.addUser({ username: 'bypass.duo@example.com', status: 'bypass' });
    await create('locked.duo@example.com');
    await create('bypass.duo@example.com');
    for (const [upn, status] of [
      ['locked.duo@example.com', 'locked out'],
      ['bypass.duo@example.com', 'bypass'],
    ] as const) {
      const before = standin.snapshot();
      const res = await callAs(s, ADMIN, 'POST', `/api/admin/users/${upn}/enable`, JUSTIFY);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe(status === 'locked out' ? 'locked_out' : 'bypass');
      expect(standin.snapshot()).toBe(before);
      expect((await callAs(s, ADMIN, 'POST', `/api/admin/users/${upn}/disable`, JUSTIFY)).json()).toMatchObject({ status: 'disabled' });
      expect(standin.user(upn).status).toBe('disabled');
    }
  });

  it('a user pending deletion at Duo (in its Trash) is not re-enabled here: 409, nothing changed at Duo', async () => {
    standin.addUser({ username: 'trash.duo@example.com', status: 'pending deletion' });
    await create('trash.duo@example.com');
    const before = standin.snapshot();
    const res = await callAs(s, ADMIN, 'POST', '/api/admin/users/trash.duo@example.com/enable', JUSTIFY);
    expect(res.statusCode, res.body).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: 'mfa.not_supported_by_provider' });
    expect(errorOf(res).details?.reason).toMatch(/Trash|Admin Panel/);
    expect(standin.snapshot()).toBe(before);
  });

  it('a user Duo does not know: 404 mfa.user_not_provisioned, nothing changed', async () => {
    const before = await portalSnapshot();
    const res = await callAs(s, ADMIN, 'POST', '/api/admin/users/carol@example.com/disable', JUSTIFY);
    expect(res.statusCode, res.body).toBe(404);
    expect(errorOf(res).code).toBe('mfa.user_not_provisioned');
    expect(await portalSnapshot()).toBe(before);
  });
});

describe('a refusal by Duo: a clear error, the portal unchanged', () => {
  it('SCIM POST while Duo fails: 503 SCIM error, no SCIM user, no directory entry', async () => {
    standin.failNext({ times: 1, status: 500, method: 'POST', path: /^\/admin\/v1\/users$/ });
    const [before, duoBefore] = [await portalSnapshot(), standin.snapshot()];
    const body = expectScimError(await s.scim('POST', '/Users', entraUser('fails.create@example.com')), 503);
    expect(body.detail).toMatch(/MFA provider \(duo\).*Nothing was changed/);
    expect(await portalSnapshot()).toBe(before);
    expect(standin.snapshot()).toBe(duoBefore);
    expect((await s.auditOf('scim.user.create')).at(-1)).toMatchObject({ outcome: 'failure' });
  });

  it('SCIM PATCH active False while Duo refuses: 502, the SCIM user still active, Duo unchanged', async () => {
    const { id } = await create('fails.patch@example.com');
    standin.failNext({ times: 1, status: 403, method: 'POST', path: /^\/admin\/v1\/users\/[A-Z0-9]+$/ });
    const [before, duoBefore] = [await portalSnapshot(), standin.snapshot()];
    const body = expectScimError(await s.scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: false })), 502);
    expect(body.detail).toMatch(/refused the change/);
    expect(await portalSnapshot()).toBe(before);
    expect(standin.snapshot()).toBe(duoBefore);
    expect((await s.scim('GET', `/Users/${id}`)).json()).toMatchObject({ active: true });
  });

  it('SCIM PUT to a username Duo holds for someone else: 409 uniqueness, nothing renamed', async () => {
    standin.addUser({ username: 'holder@example.com', aliases: ['wanted@example.com'] });
    const { id } = await create('rename.refused@example.com');
    const [before, duoBefore] = [await portalSnapshot(), standin.snapshot()];
    expectScimError(await s.scim('PUT', `/Users/${id}`, entraUser('wanted@example.com')), 409, 'uniqueness');
    expect(await portalSnapshot()).toBe(before);
    expect(standin.snapshot()).toBe(duoBefore);
  });

  it('SCIM DELETE while Duo refuses: 502, the SCIM user and its directory entry stay', async () => {
    const { id } = await create('fails.delete@example.com');
    standin.failNext({ times: 1, status: 403, method: 'DELETE', path: /^\/admin\/v1\/users\/[A-Z0-9]+$/ });
    const [before, duoBefore] = [await portalSnapshot(), standin.snapshot()];
    expectScimError(await s.scim('DELETE', `/Users/${id}`), 502);
    expect(await portalSnapshot()).toBe(before);
    expect(standin.snapshot()).toBe(duoBefore);
    expect((await s.scim('GET', `/Users/${id}`)).statusCode).toBe(200);
  });

  it('admin disable while Duo fails: 503 mfa.provider_unavailable, no success audited, nothing changed', async () => {
    standin.failNext({ times: 1, status: 500, method: 'POST', path: /^\/admin\/v1\/users\/[A-Z0-9]+$/ });
    const [before, duoBefore] = [await portalSnapshot(), standin.snapshot()];
    const successes = async () =>
      (
        await s.db
          .selectFrom('audit_event')
          .select('id')
          .where('action', '=', 'admin.user.disable')
          .where('outcome', '=', 'success')
          .execute()
      ).length;
    const audited = await successes();
    const res = await callAs(s, HELPDESK, 'POST', '/api/admin/users/bob@example.com/disable', JUSTIFY);
    expect(res.statusCode, res.body).toBe(503);
    expect(errorOf(res)).toMatchObject({ code: 'mfa.provider_unavailable', details: { provider: 'duo' } });
    expect(await portalSnapshot()).toBe(before);
    expect(standin.snapshot()).toBe(duoBefore);
    expect(await successes()).toBe(audited);
    expect(standin.user('bob@example.com').status).toBe('active');
  });
});

describe('just-in-time provisioning with MFA_PROVIDER=duo', () => {
  it('the first sign-in creates the Duo user (Create User); a Duo failure answers 503 and records nothing', async () => {
    const jit = await meTestApp(duoEnv(standin, { PROVISIONING: 'jit' }));
    try {
      const userInfo = async (upn: string) =>
        jit.t.app.inject({
          method: 'GET',
          url: `/account/getuserinfo?userid=${encodeURIComponent(upn)}&email=${encodeURIComponent(upn)}&firstname=New&lastname=Person`,
          headers: { authorization: `Bearer ${await jit.token(upn)}` },
        });
      standin.failNext({ times: 1, status: 500, method: 'POST', path: /^\/admin\/v1\/users$/ });
      const failed = await userInfo('jit.fails@example.com');
      expect(failed.statusCode, failed.body).toBe(503);
      expect(errorOf(failed).code).toBe('mfa.provider_unavailable');
      expect(duoUser('jit.fails@example.com')).toBeUndefined();
      const directory = (upn: string) => jit.db.selectFrom('directory_user').select('source').where('upn', '=', upn).executeTakeFirst();
      expect(await directory('jit.fails@example.com')).toBeUndefined();

      const res = await userInfo('jit.fresh@example.com');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().mfa).toMatchObject({ provider: 'duo', status: 'active', devices: [] });
      expect(lastCall('POST', /^\/admin\/v1\/users$/)?.params).toMatchObject({ username: 'jit.fresh@example.com', status: 'active' });
      expect(await directory('jit.fresh@example.com')).toEqual({ source: 'jit' });
    } finally {
      await jit.close();
    }
  });
});
