import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityResponseSchema, adminAuditResponseSchema, adminUserDetailSchema, type ActivityEntry } from '@mfa-portal/shared';
import { ADMIN, callAs, deviceIdOf, HELPDESK, JUSTIFY } from '../../../test/admin-api.js';
import { redeem, passwordStep } from '../../../test/journey.js';
import { demoTokenCodes, meTestApp, nextSecond, TEST_PASSWORD, type MeTestApp } from '../../../test/me-api.js';
import { location, TestBrowser, verifyFormAction, type Transport } from '../../../test/oidc-test-client.js';
import { recipientOf, startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';
import { createAuditService } from '../audit/audit.service.js';

/**
 * /api/me/activity told as a story: one entry per sign-in, change or service-desk action, with where
 * it came from and its steps; "Doesn't look like you?" on an entry; identity checks with a wrong code
 * shown as the failures they are, old rows included, without rewriting the chain.
 */

const BOB = 'bob@example.com';
const GRACE = 'grace@example.com';
const ERIN = 'erin@example.com';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const FROM = { remoteAddress: '10.20.30.40', 'user-agent': FIREFOX_WINDOWS };
let m: MeTestApp;
let sink: SmtpSink;

async function inject(upn: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, sid?: string) {
  return m.t.app.inject({
    method,
    url: `/api/me${url}`,
    remoteAddress: FROM.remoteAddress,
    headers: {
      authorization: `Bearer ${await m.token(upn, [], sid ? { sid } : {})}`,
      'user-agent': FROM['user-agent'],
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

async function activityOf(upn: string, query = ''): Promise<{ entries: ActivityEntry[]; nextCursor: string | null }> {
  const res = await inject(upn, 'GET', `/activity${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return activityResponseSchema.parse(res.json());
}

const stepsOf = (entry: ActivityEntry | undefined) => entry?.steps.map((s) => `${s.step}:${s.outcome}`);

/** The embedded sign-in pages, from Firefox on Windows at the head office. */
const fromTheOffice: Transport = async ({ method, url, headers, body }) => {
  const res = await m.t.app.inject({
    method: method as 'GET' | 'POST',
    url: url.pathname + url.search,
    remoteAddress: FROM.remoteAddress,
    headers: { host: url.host, 'user-agent': FROM['user-agent'], ...headers },
    ...(body !== undefined ? { payload: body } : {}),
  });
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(res.headers)) out[name] = typeof value === 'number' ? String(value) : value;
  return { status: res.statusCode, headers: out, body: res.body };
};

beforeAll(async () => {
  sink = await startSmtpSink();
  m = await meTestApp({
    SMTP_URL: sink.url,
    NOTIFY_POLL_SECONDS: '3600',
    SECURITY_CONTACT_EMAIL: 'security@example.com',
    IP_LOCATIONS: '10.20.0.0/16=Head office;192.168.0.0/16=Branch',
  });
}, 180_000);
afterAll(async () => {
  await m?.close();
  await sink?.close();
});

describe('GET /api/me/activity', () => {
  it('tells a wrong code at sign-in as someone trying, and the sign-in after it as one entry of yours', async () => {
    const config = m.t.config;
    const browser = new TestBrowser(fromTheOffice);
    const step = await passwordStep(browser, config, GRACE, TEST_PASSWORD);
    const page = location(step.afterPassword, config.publicUrl);
    const action = new URL(verifyFormAction((await browser.get(page)).body)!, page);
    expect((await browser.post(action, { passcode: '000000' })).status).toBe(401);
    const [code] = await demoTokenCodes(m.db, 'D100-0007', 1);
    await redeem(browser, config, await browser.post(action, { passcode: code! }), step.verifier);

    const { entries } = await activityOf(GRACE);
    expect(entries.map((e) => [e.story, e.outcome, e.actor])).toEqual([
      ['sign_in', 'success', 'you'],
      ['sign_in_wrong_code', 'failure', 'someone'],
    ]);
    const [signIn, attempt] = entries;
    expect(signIn).toMatchObject({
      method: 'hardware_token',
      client: { address: '10.20.30.40', browser: 'Firefox 128', os: 'Windows 10', location: 'Head office' },
      reportable: true,
    });
    expect(stepsOf(signIn)).toEqual(['signed_in:success']);
    expect(attempt).toMatchObject({ reason: 'mfa.code_invalid', actorUpn: null, client: { location: 'Head office' } });
    // The right password belongs to the attempt it opened: that is what tells the person it is known.
    expect(stepsOf(attempt)).toEqual(['password_ok:success', 'code_wrong:failure']);
    // No internal name, no protocol word.
    expect(JSON.stringify(entries)).not.toMatch(/idp\.login|mfa\.verify|hotp|totp/);
  });

  it('tells a removal that asked for a confirmation first as one change, and a confirmation left unanswered as unfinished', async () => {
    const phone = await deviceIdOf(m.db, BOB, 'authenticator');
    const token = await deviceIdOf(m.db, BOB, 'hardware_token');
    expect((await inject(BOB, 'DELETE', `/devices/${phone}`)).statusCode).toBe(403);
    const [code] = await demoTokenCodes(m.db, 'D100-0001', 1);
    expect((await inject(BOB, 'POST', '/step-up', { method: 'passcode', code })).statusCode).toBe(200);
    expect((await inject(BOB, 'DELETE', `/devices/${phone}`)).statusCode).toBe(204);
    // Another sign-in session of bob's has not confirmed: asked, and left there.
    expect((await inject(BOB, 'DELETE', `/devices/${token}`, undefined, 'another-session')).statusCode).toBe(403);

    const [abandoned, removed] = (await activityOf(BOB)).entries;
    expect(abandoned).toMatchObject({ story: 'device_removed', outcome: 'unfinished', reason: null, actor: 'you' });
    expect(stepsOf(abandoned)).toEqual(['step_up_asked:unfinished']);
    expect(removed).toMatchObject({ story: 'device_removed', outcome: 'success', actor: 'you', deviceName: 'iPhone 15' });
    expect(stepsOf(removed)).toEqual(['step_up_asked:unfinished', 'step_up:success', 'device_removed:success']);
    expect(removed!.steps[1]).toMatchObject({ method: 'hardware_token' });
  });

  it("tells the service desk's work as its own entries: a wrong identity check, then the check and the codes it allowed", async () => {
    const token = await deviceIdOf(m.db, BOB, 'hardware_token');
    const url = `/api/admin/users/${BOB}/verify-identity`;
    const wrong = await callAs(m, HELPDESK, 'POST', url, { deviceId: token, code: '000000', ticket: 'INC-7' });
    // The answer keeps its shape: a result to show, not an error.
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toMatchObject({ verified: false, reason: 'mfa.code_invalid' });
    const [code] = await demoTokenCodes(m.db, 'D100-0001', 1);
    expect((await callAs(m, HELPDESK, 'POST', url, { deviceId: token, code, ticket: 'INC-7' })).json()).toMatchObject({ verified: true });
    const issued = await callAs(m, HELPDESK, 'POST', `/api/admin/users/${BOB}/bypass-codes`, {
      count: 1,
      validitySeconds: 3600,
      reuseCount: 1,
      ...JUSTIFY,
    });
    expect(issued.statusCode, issued.body).toBe(201);

    // Recorded as a failure now, with the details the helpdesk's view relies on.
    const rows = await m.db
      .selectFrom('audit_event')
      .selectAll()
      .where('action', '=', 'admin.user.verify_identity')
      .orderBy('id')
      .execute();
    expect(rows.slice(-2).map((r) => [r.outcome, r.reason, r.details?.verified])).toEqual([
      ['failure', 'mfa.code_invalid', false],
      ['success', null, true],
    ]);

    const [codes, check] = (await activityOf(BOB)).entries;
    expect(codes).toMatchObject({
      story: 'helpdesk_bypass_created',
      outcome: 'success',
      actor: 'service_desk',
      actorUpn: HELPDESK.upn,
      count: 1,
    });
    expect(stepsOf(codes)).toEqual(['identity_checked:success', 'helpdesk_bypass_created:success']);
    expect(codes!.steps[0]).toMatchObject({ method: 'code' });
    expect(check).toMatchObject({ story: 'identity_checked', outcome: 'failure', reason: 'mfa.code_invalid', actor: 'service_desk' });
    expect(stepsOf(check)).toEqual(['identity_check_failed:failure']);

    // The helpdesk member's own activity tells the same from their side.
    const mine = (await activityOf(HELPDESK.upn)).entries[0];
    expect(mine).toMatchObject({ story: 'helpdesk_bypass_created', actor: 'you', targetUpn: BOB });
  });

  it('shows an identity check recorded before as a success with verified: false as a failure, everywhere, without rewriting it', async () => {
    const audit = createAuditService(m.db);
    const old = await audit.append({
      actor: HELPDESK,
      target: ERIN,
      action: 'admin.user.verify_identity',
      outcome: 'success',
      details: { role: 'helpdesk', method: 'passcode', session: 'an-old-session', verified: false, result: 'mfa.code_invalid' },
    });

    const log = adminAuditResponseSchema.parse((await callAs(m, ADMIN, 'GET', `/api/admin/audit?target=${ERIN}`)).json());
    expect(log.events.find((e) => e.id === old.id)).toMatchObject({ outcome: 'failure', reason: 'mfa.code_invalid' });
    const page = adminUserDetailSchema.parse((await callAs(m, ADMIN, 'GET', `/api/admin/users/${ERIN}`)).json());
    expect(page.activity.find((e) => e.id === old.id)).toMatchObject({ outcome: 'failure', reason: 'mfa.code_invalid' });
    const [entry] = (await activityOf(ERIN)).entries;
    expect(entry).toMatchObject({
      id: old.id,
      story: 'identity_checked',
      outcome: 'failure',
      reason: 'mfa.code_invalid',
      actor: 'service_desk',
    });

    const row = await m.db.selectFrom('audit_event').selectAll().where('id', '=', Number(old.id)).executeTakeFirstOrThrow();
    expect([row.outcome, row.hash]).toEqual(['success', old.hash]);
    const verify = await callAs(m, ADMIN, 'GET', '/api/admin/audit/verify');
    expect(verify.json()).toMatchObject({ ok: true });
  });

  it('pages whole entries: a cursor always falls between two, and every entry comes once', async () => {
    const all = (await activityOf(BOB, '?limit=100')).entries;
    expect(all.length).toBeGreaterThanOrEqual(4);
    const paged: ActivityEntry[] = [];
    let cursor: string | null = null;
    do {
      const next = await activityOf(BOB, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(next.entries).toHaveLength(1);
      paged.push(...next.entries);
      cursor = next.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });
});

describe("POST /api/me/activity/:id/report (Doesn't look like you?)", () => {
  it('404 for an event that is not about the caller, 400 for a bad body, nothing recorded', async () => {
    const alice = (await inject('alice@example.com', 'POST', '/activity/999999/report', {})).json();
    expect(alice.code).toBe('activity.event_not_found');
    const bob = (await activityOf(BOB)).entries[0]!;
    const bad = await inject(BOB, 'POST', `/activity/${bob.id}/report`, { lockAccount: 'yes' });
    expect(bad.statusCode).toBe(400);
    const other = await inject('alice@example.com', 'POST', `/activity/${bob.id}/report`, {});
    expect(other.statusCode).toBe(404);
    expect(await m.db.selectFrom('audit_event').select('id').where('action', '=', 'activity.report').execute()).toHaveLength(0);
  });

  it('records the report, tells the security contact, signs out everywhere, revokes bypass codes and locks the account', async () => {
    const account = await m.db.selectFrom('idp_account').select('id').where('username', '=', BOB).executeTakeFirstOrThrow();
    await m.db
      .insertInto('oidc_payload')
      .values({
        model: 'Session',
        id: 'bob-session',
        payload: JSON.stringify({ accountId: account.id }),
        grant_id: null,
        user_code: null,
        uid: 'u1',
        expires_at: null,
      })
      .execute();
    await m.db
      .insertInto('oidc_payload')
      .values({
        model: 'RefreshToken',
        id: 'bob-rt',
        payload: JSON.stringify({ accountId: account.id }),
        grant_id: 'g1',
        user_code: null,
        uid: null,
        expires_at: null,
      })
      .execute();
    const removal = (await activityOf(BOB)).entries.find((e) => e.story === 'device_removed' && e.outcome === 'success')!;
    const res = await inject(BOB, 'POST', `/activity/${removal.id}/report`, {
      signOutEverywhere: true,
      revokeBypassCodes: true,
      lockAccount: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ reported: true, securityContactNotified: true, signedOutEverywhere: true, locked: true });

    const report = await m.db.selectFrom('audit_event').selectAll().where('action', '=', 'activity.report').executeTakeFirstOrThrow();
    expect(report.details).toMatchObject({ reportedEventId: removal.id, reportedAction: 'device.delete', lockAccount: true });
    expect(report.user_agent).toBe(FIREFOX_WINDOWS);
    expect(await m.db.selectFrom('oidc_payload').select('id').where('id', 'in', ['bob-session', 'bob-rt']).execute()).toHaveLength(0);
    const user = await m.db.selectFrom('mfa_user').select('status').where('username', '=', BOB).executeTakeFirstOrThrow();
    expect(user.status).toBe('disabled');

    // The report and what it did are one entry, which offers no report of itself (read with a new sign-in).
    await nextSecond();
    const [reported] = (await activityOf(BOB)).entries;
    expect(reported).toMatchObject({ story: 'reported', actor: 'you', reportable: false });
    expect(stepsOf(reported)).toEqual([
      'reported:success',
      'bypass_revoked_all:success',
      'account_locked_by_you:success',
      'signed_out_everywhere:success',
    ]);

    await m.t.app.notificationSender!.runOnce();
    const toContact = sink.messages.filter((mail) => recipientOf(mail) === 'security@example.com');
    expect(toContact).toHaveLength(1);
    expect(toContact[0]!.subject).toContain(BOB);
    expect(toContact[0]!.text).toContain('lock the account: yes');
    expect(sink.messages.filter((mail) => recipientOf(mail) === BOB).map((mail) => mail.subject)).toContain('Your sign-in was locked');
  });
});
