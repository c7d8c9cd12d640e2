import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meTestApp, nextSecond, type MeTestApp } from '../../../../test/me-api.js';
import { ADMIN, BOB, callAs, HELPDESK, JUSTIFY } from '../../../../test/admin-api.js';

/** Disable/enable with a reason, source and dates on the user page, and revoking a user's bypass codes. */

let m: MeTestApp;
beforeAll(async () => {
  m = await meTestApp();
});
afterAll(() => m.close());

const status = async (upn: string) =>
  await m.db.selectFrom('mfa_user').select(['status', 'status_reason']).where('username', '=', upn).executeTakeFirstOrThrow();

describe('POST /api/admin/users/:upn/disable and /enable', () => {
  it('helpdesk disables a non-protected account with a reason (audited) and re-enables it; the user then sees account disabled', async () => {
    const res = await callAs(m, HELPDESK, 'POST', '/api/admin/users/alice@example.com/disable', {
      reason: 'Left the company',
      ticket: 'INC-7',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'disabled', statusReason: 'Left the company' });
    expect(await status('alice@example.com')).toEqual({ status: 'disabled', status_reason: 'Left the company' });
    // Disabling revoked alice's earlier tokens: this is a sign-in after it.
    await nextSecond();
    const info = await m.t.app.inject({
      method: 'GET',
      url: '/account/getuserinfo?userid=alice@example.com&email=alice@example.com&firstname=A&lastname=A',
      headers: { authorization: `Bearer ${await m.token('alice@example.com')}` },
    });
    expect(info.json().mfa).toMatchObject({ status: 'disabled', statusReason: 'Left the company' });
    const events = await m.db
      .selectFrom('audit_event')
      .select(['action', 'actor_upn', 'details'])
      .where('target_upn', '=', 'alice@example.com')
      .where('action', 'like', 'admin.user.%able')
      .orderBy('id')
      .execute();
    expect(events.at(-1)).toMatchObject({
      action: 'admin.user.disable',
      actor_upn: HELPDESK.upn,
      details: { reason: 'Left the company', ticket: 'INC-7', role: 'helpdesk' },
    });
    const again = await callAs(m, HELPDESK, 'POST', '/api/admin/users/alice@example.com/enable', { reason: 'Rehired' });
    expect(again.json().status).toBe('active');
    expect(await status('alice@example.com')).toEqual({ status: 'active', status_reason: null });
  });

  it('helpdesk may not disable a protected account; a Solution Administrator may; nobody disables themself', async () => {
    const denied = await callAs(m, HELPDESK, 'POST', '/api/admin/users/admin@example.com/disable', JUSTIFY);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'auth.forbidden', details: { reason: 'protected_account' } });
    expect((await status('admin@example.com')).status).toBe('active');
    expect((await callAs(m, ADMIN, 'POST', '/api/admin/users/helpdesk@example.com/disable', JUSTIFY)).statusCode).toBe(200);
    await callAs(m, ADMIN, 'POST', '/api/admin/users/helpdesk@example.com/enable', JUSTIFY);
    await nextSecond(); // the helpdesk member signs in again after being disabled
    const self = await callAs(m, ADMIN, 'POST', '/api/admin/users/admin@example.com/disable', JUSTIFY);
    expect(self.json().details.reason).toBe('own_account_via_admin');
    expect((await callAs(m, BOB, 'POST', '/api/admin/users/alice@example.com/disable', JUSTIFY)).statusCode).toBe(403);
  });

  it('refuses a missing or oversize reason (400) and an unknown user (404), changing nothing', async () => {
    const before = await status('carol@example.com').catch(() => null);
    for (const body of [{}, { reason: '' }, { reason: 'x'.repeat(501) }, { reason: 'ok\u0000' }]) {
      const res = await callAs(m, ADMIN, 'POST', '/api/admin/users/carol@example.com/disable', body);
      expect(res.statusCode).toBe(400);
    }
    expect(await status('carol@example.com').catch(() => null)).toEqual(before);
    expect((await callAs(m, ADMIN, 'POST', '/api/admin/users/nobody@example.com/disable', JUSTIFY)).statusCode).toBe(404);
  });
});

describe('the user page', () => {
  it('shows where the account came from, when it was created and last changed, and its groups', async () => {
    const detail = (await callAs(m, ADMIN, 'GET', '/api/admin/users/bob@example.com')).json();
    expect(detail.user).toMatchObject({ source: 'demo', groups: [] });
    expect(Date.parse(detail.user.createdAt)).not.toBeNaN();
    expect(Date.parse(detail.user.updatedAt)).not.toBeNaN();
    expect(detail.actions.disable_account).toEqual({ allowed: true, reason: null });
  });
});

describe('POST /api/admin/users/:upn/bypass-codes/revoke', () => {
  it("helpdesk revokes a user's unused bypass codes (one, then all), audited with their ids", async () => {
    const made = await m.t.app.mfa.createBypassCodes('bob@example.com', {
      count: 3,
      validitySeconds: 3600,
      reuseCount: 1,
      replaceExisting: false,
      createdBy: 'test',
    });
    const one = await callAs(m, HELPDESK, 'POST', '/api/admin/users/bob@example.com/bypass-codes/revoke', {
      reason: 'Issued by mistake',
      ids: [made.codes[0]!.id],
    });
    expect(one.json()).toEqual({ revoked: 1 });
    expect(await m.t.app.mfa.listBypassCodes('bob@example.com')).toHaveLength(2);
    const all = await callAs(m, HELPDESK, 'POST', '/api/admin/users/bob@example.com/bypass-codes/revoke', { reason: 'Phone found' });
    expect(all.json()).toEqual({ revoked: 2 });
    expect(await m.t.app.mfa.listBypassCodes('bob@example.com')).toEqual([]);
    const audit = await m.db
      .selectFrom('audit_event')
      .select(['outcome', 'details'])
      .where('action', '=', 'admin.user.revoke_bypass_codes')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.outcome)).toEqual(['success', 'success']);
    expect(audit[0]!.details).toMatchObject({ bypassIds: [made.codes[0]!.id], reason: 'Issued by mistake' });
    expect(JSON.stringify(audit)).not.toContain(made.codes[1]!.code);
    const unknown = await callAs(m, HELPDESK, 'POST', '/api/admin/users/bob@example.com/bypass-codes/revoke', {
      reason: 'Not needed',
      ids: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      (await callAs(m, HELPDESK, 'POST', '/api/admin/users/admin@example.com/bypass-codes/revoke', { reason: 'Not needed' })).statusCode,
    ).toBe(403);
  });
});
