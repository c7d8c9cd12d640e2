import { afterEach, describe, expect, it } from 'vitest';
import { meTestApp, type MeTestApp } from '../../../test/me-api.js';
import { entraUser, SCIM_TOKEN } from '../../../test/scim-api.js';

let m: MeTestApp | undefined;
afterEach(async () => {
  await m?.close();
  m = undefined;
});

async function userInfo(app: MeTestApp, upn: string, roles: string[] = []) {
  return app.t.app.inject({
    method: 'GET',
    url: `/account/getuserinfo?userid=${encodeURIComponent(upn)}&email=${encodeURIComponent(upn)}&firstname=New&lastname=Person`,
    headers: { authorization: `Bearer ${await app.token(upn, roles)}` },
  });
}
const mfaUser = (app: MeTestApp, upn: string) => app.db.selectFrom('mfa_user').selectAll().where('username', '=', upn).executeTakeFirst();

describe('just-in-time provisioning at the first sign-in', () => {
  it('is off by default: a stranger stays not provisioned (missing two-factor)', async () => {
    m = await meTestApp();
    const res = await userInfo(m, 'stranger@example.com');
    expect(res.json().mfa.status).toBe('not_provisioned');
    expect(await mfaUser(m, 'stranger@example.com')).toBeUndefined();
  });

  it('with PROVISIONING=jit creates the account without devices, audited, with the directory source "jit"', async () => {
    m = await meTestApp({ PROVISIONING: 'jit' });
    const res = await userInfo(m, 'Fresh@Example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json().mfa).toMatchObject({ status: 'active', devices: [] });
    expect(await mfaUser(m, 'fresh@example.com')).toMatchObject({ status: 'active' });
    expect(await m.db.selectFrom('directory_user').select('source').where('upn', '=', 'fresh@example.com').executeTakeFirst()).toEqual({
      source: 'jit',
    });
    const events = await m.db
      .selectFrom('audit_event')
      .select(['actor_upn', 'target_upn'])
      .where('action', '=', 'provisioning.jit.create')
      .execute();
    expect(events).toEqual([{ actor_upn: 'fresh@example.com', target_upn: 'fresh@example.com' }]);
    // Only once.
    await userInfo(m, 'fresh@example.com');
    expect(await m.db.selectFrom('audit_event').select('id').where('action', '=', 'provisioning.jit.create').execute()).toHaveLength(1);
    // With jit alone, SCIM is off.
    const off = await m.t.app.inject({ method: 'GET', url: '/scim/v2/Users', headers: { authorization: `Bearer ${SCIM_TOKEN}` } });
    expect(off.statusCode).toBe(404);
    expect(off.headers['content-type']).toMatch(/^application\/scim\+json/);
  });

  it('limited to JIT_ALLOWED_ROLES: others stay not provisioned', async () => {
    m = await meTestApp({ PROVISIONING: 'jit', JIT_ALLOWED_ROLES: 'MFA.Users' });
    expect((await userInfo(m, 'outsider@example.com', ['Other'])).json().mfa.status).toBe('not_provisioned');
    expect((await userInfo(m, 'insider@example.com', ['MFA.Users'])).json().mfa.status).toBe('active');
  });

  it('limited to JIT_ALLOWED_GROUPS: members of that SCIM group only (PROVISIONING=both)', async () => {
    m = await meTestApp({ PROVISIONING: 'both', JIT_ALLOWED_GROUPS: 'MFA Pilot', SCIM_TOKEN });
    const scim = (method: 'POST', path: string, body: unknown) =>
      m!.t.app.inject({
        method,
        url: `/scim/v2${path}`,
        headers: { authorization: `Bearer ${SCIM_TOKEN}`, 'content-type': 'application/scim+json' },
        payload: JSON.stringify(body),
      });
    const user = (await scim('POST', '/Users', entraUser('pilot@example.com'))).json();
    // A SCIM user has an account already; delete it to see just-in-time creation for a group member.
    await m.db.deleteFrom('mfa_user').where('username', '=', 'pilot@example.com').execute();
    await scim('POST', '/Groups', { displayName: 'MFA Pilot', members: [{ value: user.id }] });
    expect((await userInfo(m, 'pilot@example.com')).json().mfa.status).toBe('active');
    expect((await userInfo(m, 'nonpilot@example.com')).json().mfa.status).toBe('not_provisioned');
  });
});
