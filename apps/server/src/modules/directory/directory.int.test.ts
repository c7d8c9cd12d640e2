import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import { meTestApp, type MeTestApp } from '../../../test/me-api.js';
import { callAs } from '../../../test/admin-api.js';

/** directory_user: each user's roles as last seen, which decide whether their account is protected. */

let m: MeTestApp;
beforeAll(async () => {
  m = await meTestApp();
});
afterAll(async () => m?.close());

const row = (upn: string) => m.db.selectFrom('directory_user').selectAll().where('upn', '=', upn).executeTakeFirst();

describe('directory_user', () => {
  it('holds the demo staff with their roles from the seed', async () => {
    expect(await row('admin@example.com')).toMatchObject({ roles: [ROLE_SOLUTION_ADMIN], display_name: 'Ada Admin' });
    expect(await row('bob@example.com')).toMatchObject({ roles: [] });
  });

  it('is written on every successful /account/getuserinfo with the roles of the token', async () => {
    const res = await callAs(
      m,
      { upn: 'alice@example.com', roles: [ROLE_HELPDESK] },
      'GET',
      '/account/getuserinfo?userid=alice@example.com',
    );
    expect(res.statusCode, res.body).toBe(200);
    const seen = await row('alice@example.com');
    expect(seen).toMatchObject({ roles: [ROLE_HELPDESK] });
    expect(seen?.last_seen_at).toBeInstanceOf(Date);
    // alice is now a protected account: a Helpdesk Administrator may no longer act on her.
    const denied = await callAs(m, { upn: 'helpdesk@example.com', roles: [ROLE_HELPDESK] }, 'GET', '/api/admin/users/alice@example.com');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'auth.forbidden', details: { reason: 'protected_account' } });
  });

  it('is not written when getuserinfo refuses the call', async () => {
    const before = await row('bob@example.com');
    const res = await callAs(
      m,
      { upn: 'bob@example.com', roles: [ROLE_SOLUTION_ADMIN] },
      'GET',
      '/account/getuserinfo?userid=alice@example.com',
    );
    expect(res.statusCode).toBe(403);
    expect(await row('bob@example.com')).toEqual(before);
  });

  it('treats an account never seen as protected: only a Solution Administrator acts on it', async () => {
    await m.db
      .insertInto('mfa_user')
      .values({ username: 'ghost@example.com', email: 'ghost@example.com', real_name: 'Ghost', status: 'active', status_reason: null })
      .execute();
    const hd = await callAs(m, { upn: 'helpdesk@example.com', roles: [ROLE_HELPDESK] }, 'GET', '/api/admin/users/ghost@example.com');
    expect(hd.json()).toMatchObject({ code: 'auth.forbidden', details: { reason: 'protection_unknown' } });
    const sa = await callAs(m, { upn: 'admin@example.com', roles: [ROLE_SOLUTION_ADMIN] }, 'GET', '/api/admin/users/ghost@example.com');
    expect(sa.statusCode).toBe(200);
    expect(sa.json()).toMatchObject({ user: { roles: null }, protection: { protected: true, reason: 'roles_unknown' } });
  });
});

describe('/api/me for a protected-account holder', () => {
  it('refuses their own MFA changes and bypass codes with auth.protected_account, audited, nothing changed', async () => {
    const admin = { upn: 'admin@example.com', roles: [ROLE_SOLUTION_ADMIN] };
    const res = await callAs(m, admin, 'POST', '/api/me/bypass-codes', { count: 1, validitySeconds: 3600 });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'auth.protected_account', details: { reason: 'protected_self_service' } });
    const last = await m.db.selectFrom('audit_event').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(last).toMatchObject({
      actor_upn: 'admin@example.com',
      action: 'me.create_bypass_codes',
      outcome: 'failure',
      reason: 'auth.protected_account',
    });
    // Reading stays open to them.
    expect((await callAs(m, admin, 'GET', '/api/me/devices')).statusCode).toBe(200);
  });
});
