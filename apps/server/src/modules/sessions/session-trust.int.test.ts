import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROLE_HELPDESK, ROLE_SOLUTION_ADMIN } from '@mfa-portal/shared';
import { signIn, type Tokens } from '../../../test/oidc-flow.js';
import { meTestApp, TEST_PASSWORD, type MeTestApp } from '../../../test/me-api.js';
import { adminSnapshot } from '../../../test/admin-api.js';
import { entraUser, patchOp, SCIM_TOKEN, scimTestApp } from '../../../test/scim-api.js';

/**
 * Trust follows the session, not the account: each attack below is tried as an attacker would, with
 * real tokens from the embedded provider (two sign-ins of the same person are two sessions, as a token
 * copied from another sign-in would be), and each must be refused with nothing changed.
 */

// Real sign-ins through the provider's pages: slower than minted tokens on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const BOB = 'bob@example.com';
const ALICE = 'alice@example.com';
let m: MeTestApp;
afterEach(async () => m?.close());

const bearer = (tokens: Tokens) => ({ authorization: `Bearer ${tokens.access_token}` });
async function api(tokens: Tokens, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return m.t.app.inject({
    method,
    url,
    headers: { ...bearer(tokens), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}
const signInAs = (upn: string) => signIn(m.t.app, m.t.config, upn, TEST_PASSWORD);
async function bypassCode(upn: string): Promise<string> {
  const minted = await m.t.app.mfa.createBypassCodes(upn, {
    count: 1,
    validitySeconds: 600,
    reuseCount: 1,
    replaceExisting: false,
    createdBy: 'test',
  });
  return minted.codes[0]!.code;
}
const liveCodes = async (upn: string) => (await m.t.app.mfa.listBypassCodes(upn)).length;
async function refresh(tokens: Tokens): Promise<LightMyRequestResponse> {
  if (m.t.config.idp.mode !== 'embedded') throw new Error('embedded mode expected');
  const base = new URL(m.t.config.publicUrl);
  return m.t.app.inject({
    method: 'POST',
    url: '/idp/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https', host: base.host },
    payload: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: m.t.config.idp.clientId,
    }).toString(),
  });
}

describe('a step-up belongs to the session that earned it', () => {
  it('another sign-in of the same person cannot mint bypass codes with it, before or after a token refresh', async () => {
    m = await meTestApp();
    const first = await signInAs(BOB);
    const second = await signInAs(BOB);
    const stepUp = await api(first, 'POST', '/api/me/step-up', { method: 'bypass', code: await bypassCode(BOB) });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    expect((await api(first, 'GET', '/api/me/step-up')).json()).toMatchObject({ active: true });
    expect((await api(second, 'GET', '/api/me/step-up')).json()).toMatchObject({ active: false });

    const before = await liveCodes(BOB);
    const refused = await api(second, 'POST', '/api/me/bypass-codes', { count: 2, validitySeconds: 3600 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('auth.step_up_required');
    expect(await liveCodes(BOB)).toBe(before);

    // The session that stepped up keeps it across a refresh of its own tokens (same sign-in).
    const renewed = await refresh(first);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const created = await api(renewed.json() as Tokens, 'POST', '/api/me/bypass-codes', { count: 2, validitySeconds: 3600 });
    expect(created.statusCode, created.body).toBe(201);
    // The other session's fresh tokens still have nothing.
    const secondRenewed = (await refresh(second)).json() as Tokens;
    expect((await api(secondRenewed, 'POST', '/api/me/bypass-codes', { count: 1, validitySeconds: 3600 })).statusCode).toBe(403);
  });

  it('signing out ends it: a session that renews afterwards starts without it', async () => {
    m = await meTestApp();
    const first = await signInAs(BOB);
    expect((await api(first, 'POST', '/api/me/step-up', { method: 'bypass', code: await bypassCode(BOB) })).statusCode).toBe(200);
    expect(await m.db.selectFrom('step_up').select('id').where('upn', '=', BOB).execute()).toHaveLength(1);
    expect((await api(first, 'POST', '/api/me/sign-out')).statusCode).toBeLessThan(300);
    expect(await m.db.selectFrom('step_up').select('id').where('upn', '=', BOB).execute()).toEqual([]);
  });
});

describe('an enrolment pass opens enrolment for the session that redeemed it', () => {
  it('another session of the same person still needs its own pass', async () => {
    m = await meTestApp({ FIRST_DEVICE_POLICY: 'pass' });
    const ivan = 'ivan@example.com';
    const hd = await m.token('helpdesk@example.com', [ROLE_HELPDESK]);
    const verify = await m.t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${ivan}/verify-identity/manual`,
      headers: { authorization: `Bearer ${hd}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ method: 'photo_id_video_call', ticket: 'INC-1' }),
    });
    expect(verify.statusCode, verify.body).toBe(201);
    const issued = await m.t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${ivan}/enrolment-passes`,
      headers: { authorization: `Bearer ${hd}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ reason: 'New phone', ticket: 'INC-1' }),
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const pass = (issued.json() as { pass: string }).pass;
    const mine = await m.token(ivan, [], { sid: 'ivan-session-a' });
    const other = await m.token(ivan, [], { sid: 'ivan-session-b' });
    const call = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
      m.t.app.inject({
        method,
        url: `/api/me${url}`,
        headers: { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
    expect((await call(mine, 'POST', '/enrolment-pass', { pass })).statusCode).toBe(200);
    expect((await call(mine, 'GET', '/enrolment-policy')).json()).toMatchObject({ passRequired: false });
    expect((await call(other, 'GET', '/enrolment-policy')).json()).toMatchObject({ passRequired: true });
    const before = await adminSnapshot(m.db);
    const refused = await call(other, 'POST', '/devices/authenticator', {});
    expect(refused.json().code).toBe('enrolment.pass_required');
    expect(await adminSnapshot(m.db)).toBe(before);
    expect((await call(mine, 'POST', '/devices/authenticator', {})).statusCode).toBe(201);
  });
});

describe("a helpdesk member's identity verification counts for their session only", () => {
  it('the same administrator in another session must verify again', async () => {
    m = await meTestApp();
    const hdA = await m.token('helpdesk@example.com', [ROLE_HELPDESK], { sid: 'hd-a' });
    const hdB = await m.token('helpdesk@example.com', [ROLE_HELPDESK], { sid: 'hd-b' });
    const admin = (token: string, url: string, payload: unknown) =>
      m.t.app.inject({
        method: 'POST',
        url: `/api/admin/users/${ALICE}${url}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    expect((await admin(hdA, '/verify-identity/manual', { method: 'photo_id_video_call', ticket: 'INC-7' })).statusCode).toBe(201);
    const before = await liveCodes(ALICE);
    const refused = await admin(hdB, '/bypass-codes', { count: 1, validitySeconds: 3600, reason: 'Lost phone', ticket: 'INC-7' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('admin.verification_required');
    expect(await liveCodes(ALICE)).toBe(before);
    expect((await admin(hdA, '/bypass-codes', { count: 1, validitySeconds: 3600, reason: 'Lost phone', ticket: 'INC-7' })).statusCode).toBe(
      201,
    );
  });
});

describe('administration needs a second factor in the token', () => {
  it('a password alone (amr pwd) reads nothing and changes nothing; the same person with a second factor is let in', async () => {
    m = await meTestApp();
    const pwdOnly = await m.token('admin@example.com', [ROLE_SOLUTION_ADMIN], { amr: ['pwd'] });
    for (const url of ['/api/admin/audit', '/api/admin/users?q=bo']) {
      const res = await m.t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${pwdOnly}` } });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ code: 'auth.mfa_required' });
      expect(res.json().message).toMatch(/second factor/i);
    }
    const before = await adminSnapshot(m.db);
    const write = await m.t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${ALICE}/bypass-codes`,
      headers: { authorization: `Bearer ${pwdOnly}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ count: 1, validitySeconds: 3600, reason: 'Lost phone', ticket: 'INC-1' }),
    });
    expect(write.statusCode).toBe(403);
    expect(await adminSnapshot(m.db)).toBe(before);
    const audited = await m.db.selectFrom('audit_event').selectAll().where('reason', '=', 'auth.mfa_required').execute();
    expect(audited.length).toBeGreaterThanOrEqual(3);
    // Self-service stays open to the same token (to enrol a first device).
    expect(
      (await m.t.app.inject({ method: 'GET', url: '/api/me/devices', headers: { authorization: `Bearer ${pwdOnly}` } })).statusCode,
    ).toBe(200);
    const withMfa = await m.token('admin@example.com', [ROLE_SOLUTION_ADMIN]);
    expect(
      (await m.t.app.inject({ method: 'GET', url: '/api/admin/audit', headers: { authorization: `Bearer ${withMfa}` } })).statusCode,
    ).toBe(200);
  });

  it('an administrator created over SCIM without a device signs in with a password only and is refused administration', async () => {
    m = await scimTestApp({ PROVISIONING: 'both', SCIM_GROUP_HELPDESK: 'Helpdesk' });
    const s = m as Awaited<ReturnType<typeof scimTestApp>>;
    const created = await s.scim(
      'POST',
      '/Users',
      entraUser('newadmin@example.com', { password: 'Str0ng-Passw0rd!', roles: [{ value: ROLE_HELPDESK }] }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const tokens = await signIn(m.t.app, m.t.config, 'newadmin@example.com', 'Str0ng-Passw0rd!');
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as {
      amr: string[];
      roles: string[];
    };
    expect(claims.amr).toEqual(['pwd']);
    expect(claims.roles).toContain(ROLE_HELPDESK);
    for (const url of ['/api/admin/audit', '/api/admin/users?q=bo']) {
      const res = await api(tokens, 'GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('auth.mfa_required');
    }
  });
});

describe('a lock, a disable or a role taken away ends what was issued before', () => {
  it('"This wasn\'t me" with only "lock my account" ends the refresh token too', async () => {
    m = await meTestApp();
    const attacker = await signInAs(BOB);
    expect(attacker.refresh_token).toBeTruthy();
    const owner = await m.token(BOB, [], { sid: 'owner' });
    const event = (await m.t.app.inject({ method: 'GET', url: '/api/me/activity', headers: { authorization: `Bearer ${owner}` } })).json()
      .entries[0] as { id: string };
    const report = await m.t.app.inject({
      method: 'POST',
      url: `/api/me/activity/${event.id}/report`,
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ lockAccount: true }),
    });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({ locked: true });
    expect((await api(attacker, 'GET', '/api/me/devices')).statusCode).toBeGreaterThanOrEqual(401);
    const renewed = await refresh(attacker);
    expect(renewed.statusCode).toBe(400);
    expect(renewed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('an account locked by a helpdesk disable cannot renew either, even with a refresh token kept aside', async () => {
    m = await meTestApp();
    const tokens = await signInAs(ALICE);
    // The account is disabled at the MFA provider directly (as Duo's Admin Panel or a script would):
    // the refresh grant asks the account's state itself.
    await m.db.updateTable('mfa_user').set({ status: 'disabled', status_reason: 'Left' }).where('username', '=', ALICE).execute();
    const renewed = await refresh(tokens);
    expect(renewed.statusCode).toBe(400);
    expect(renewed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('a role SCIM takes away stops working on the next request, whatever the token says', async () => {
    const s = await scimTestApp({ PROVISIONING: 'both' });
    m = s;
    const created = await s.scim('POST', '/Users', entraUser('dana@example.com', { roles: [{ value: ROLE_HELPDESK }] }));
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    const token = await m.token('dana@example.com', [ROLE_HELPDESK]);
    const search = () => m.t.app.inject({ method: 'GET', url: '/api/admin/users?q=bo', headers: { authorization: `Bearer ${token}` } });
    expect((await search()).statusCode).toBe(200);
    const patched = await s.scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'roles', value: [] }));
    expect(patched.statusCode, patched.body).toBeLessThan(300);
    const refused = await search();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('auth.forbidden');
    expect(SCIM_TOKEN).toBeTruthy();
  });
});
