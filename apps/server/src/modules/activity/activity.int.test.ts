import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTokenCodes, meTestApp, type MeTestApp } from '../../../test/me-api.js';
import { recipientOf, startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';

/** /api/me/activity with where events came from, and "This wasn't me" (issue 19). */

const BOB = 'bob@example.com';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
let m: MeTestApp;
let sink: SmtpSink;

async function inject(upn: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return m.t.app.inject({
    method,
    url: `/api/me${url}`,
    remoteAddress: '10.20.30.40',
    headers: {
      authorization: `Bearer ${await m.token(upn)}`,
      'user-agent': FIREFOX_WINDOWS,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

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
  it('shows the address, browser, system, approximate location and method of each event', async () => {
    const [code] = await demoTokenCodes(m.db, 'D100-0001', 1);
    expect((await inject(BOB, 'POST', '/step-up', { method: 'passcode', code })).statusCode).toBe(200);
    const res = await inject(BOB, 'GET', '/activity');
    expect(res.statusCode).toBe(200);
    const verify = res.json().events.find((e: { action: string }) => e.action === 'mfa.verify');
    expect(verify.client).toEqual({
      address: '10.20.30.40',
      browser: 'Firefox 128',
      os: 'Windows 10',
      location: 'Head office',
      method: 'hotp',
    });
  });
});

describe("POST /api/me/activity/:id/report (This wasn't me)", () => {
  it('404 for an event that is not about the caller, 400 for a bad body, nothing recorded', async () => {
    const alice = (await inject('alice@example.com', 'POST', '/activity/999999/report', {})).json();
    expect(alice.code).toBe('activity.event_not_found');
    const bob = (await inject(BOB, 'GET', '/activity')).json().events[0];
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
    const event = (await inject(BOB, 'GET', '/activity')).json().events.find((e: { action: string }) => e.action === 'mfa.verify');
    const res = await inject(BOB, 'POST', `/activity/${event.id}/report`, {
      signOutEverywhere: true,
      revokeBypassCodes: true,
      lockAccount: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ reported: true, securityContactNotified: true, signedOutEverywhere: true, locked: true });

    const report = await m.db.selectFrom('audit_event').selectAll().where('action', '=', 'activity.report').executeTakeFirstOrThrow();
    expect(report.details).toMatchObject({ reportedEventId: event.id, signOutEverywhere: true, lockAccount: true });
    expect(report.user_agent).toBe(FIREFOX_WINDOWS);
    expect(await m.db.selectFrom('oidc_payload').select('id').where('id', 'in', ['bob-session', 'bob-rt']).execute()).toHaveLength(0);
    const user = await m.db.selectFrom('mfa_user').select('status').where('username', '=', BOB).executeTakeFirstOrThrow();
    expect(user.status).toBe('disabled');

    await m.t.app.notificationSender!.runOnce();
    const toContact = sink.messages.filter((mail) => recipientOf(mail) === 'security@example.com');
    expect(toContact).toHaveLength(1);
    expect(toContact[0]!.subject).toContain(BOB);
    expect(toContact[0]!.text).toContain('mfa.verify');
    expect(toContact[0]!.text).toContain('lock the account: yes');
    expect(sink.messages.filter((mail) => recipientOf(mail) === BOB).map((mail) => mail.subject)).toContain('Your sign-in was locked');
  });
});
