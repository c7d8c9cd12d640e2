import { describe, expect, it } from 'vitest';
import type { ChainedAuditEvent } from '../audit/audit-chain.js';
import { EntryCollector, JOIN_WINDOW_MS } from './activity-grouping.js';
import { toEntry } from './activity-story.js';

/** Grouping and telling of activity entries from events made up here (the flows themselves: activity.int.test.ts). */

const ME = 'pat@example.com';
const DESK = 'desk@example.com';
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const T0 = Date.parse('2025-05-01T14:00:00Z');
let seq = 0;

function ev(action: string, over: Partial<ChainedAuditEvent> & { at?: number } = {}): ChainedAuditEvent {
  seq += 1;
  const { at, ...rest } = over;
  return {
    id: String(seq),
    occurredAt: new Date(T0 + (at ?? seq) * 1000),
    actorUpn: ME,
    actorRoles: [],
    target: ME,
    action,
    outcome: 'success',
    reason: null,
    requestId: `req-${seq}`,
    clientAddress: '10.1.2.3',
    details: null,
    userAgent: BROWSER,
    prevHash: '',
    hash: '',
    ...rest,
  };
}

/** Events oldest first, told as entries newest first (as the API pages them). */
function tell(events: ChainedAuditEvent[], limit = 100) {
  const c = new EntryCollector();
  let more = false;
  for (const e of [...events].reverse()) {
    if (!c.add(e, limit)) {
      more = true;
      break;
    }
  }
  if (!more) c.finish();
  return c.entries.map((group) => toEntry(group, ME, (address) => (address === '10.1.2.3' ? 'Head office' : null)));
}

const summary = (entries: ReturnType<typeof tell>) => entries.map((e) => `${e.story}:${e.outcome}:${e.actor}`);

describe('activity entries', () => {
  it('a sign-in by push is one entry, named by the browser it came from, with the answer from the phone as a step', () => {
    const entries = tell([
      ev('idp.login.password_ok', { details: { next: 'second_factor' } }),
      ev('idp.login.push_start', { details: { method: 'push', deviceId: 'd1', txid: 't1' } }),
      ev('push.approve', { userAgent: PHONE, clientAddress: '172.16.0.9', details: { kind: 'sign_in', deviceName: 'Work phone' } }),
      ev('idp.login.second_factor_ok', { details: { method: 'push', deviceId: 'd1', txid: 't1' } }),
    ]);
    expect(summary(entries)).toEqual(['sign_in:success:you']);
    expect(entries[0]).toMatchObject({ method: 'push', client: { browser: 'Firefox 128', location: 'Head office' } });
    expect(entries[0]!.steps.map((s) => s.step)).toEqual(['password_ok', 'push_sent', 'push_approved_on_phone', 'signed_in']);
    expect(entries[0]!.steps[2]).toMatchObject({ deviceName: 'Work phone' });
  });

  it('a password alone (no device yet) is a sign-in; a wrong password is someone trying; a password left there is unfinished', () => {
    const entries = tell([
      ev('idp.login.password_failed', { actorUpn: null, outcome: 'failure', reason: 'invalid_credentials' }),
      ev('idp.login.password_ok', { details: { next: 'complete' } }),
      ev('idp.login.password_ok', { details: { next: 'second_factor' }, at: 100 }),
    ]);
    expect(summary(entries)).toEqual(['sign_in:unfinished:someone', 'sign_in:success:you', 'sign_in_wrong_password:failure:someone']);
    expect(entries[1]).toMatchObject({ method: 'password' });
  });

  it('wrong codes that lock the sign-in are one entry saying so', () => {
    const r = 'req-lock';
    const entries = tell([
      ev('idp.login.password_ok', { details: { next: 'second_factor' } }),
      ev('mfa.verify', { requestId: r, outcome: 'failure', reason: 'mfa.code_invalid', details: { purpose: 'sign_in' } }),
      ev('mfa.lockout', { requestId: r, reason: 'too_many_failed_attempts', details: { purpose: 'sign_in' } }),
      ev('idp.login.second_factor_failed', { requestId: r, outcome: 'failure', reason: 'mfa.code_invalid', details: { justLocked: true } }),
      ev('idp.login.refused', { requestId: r, outcome: 'failure', reason: 'mfa.user_locked_out' }),
    ]);
    expect(summary(entries)).toEqual(['sign_in_locked_out:failure:someone']);
    expect(entries[0]!.steps.map((s) => s.step)).toEqual(['password_ok', 'locked_out', 'code_wrong', 'sign_in_refused']);
  });

  it('adding an authenticator app in two steps, with a wrong code between, is one change; only starting it is unfinished', () => {
    const entries = tell([
      ev('device.enrol_start', { details: { kind: 'authenticator' } }),
      ev('device.enrol_confirm', { outcome: 'failure', reason: 'mfa.code_invalid' }),
      ev('device.enrol_confirm', { details: { deviceName: 'Work phone', kind: 'authenticator' } }),
      ev('device.enrol_start', { details: { kind: 'authenticator' }, at: 100 }),
    ]);
    expect(summary(entries)).toEqual(['app_added:unfinished:you', 'app_added:success:you']);
    expect(entries[1]).toMatchObject({ deviceName: 'Work phone' });
    expect(entries[1]!.steps.map((s) => `${s.step}:${s.outcome}`)).toEqual(['app_added:success', 'app_added:failure', 'app_added:success']);
  });

  it('adding a phone after a confirmation by push (denied once) is one entry named after the phone, its activation link a step', () => {
    const entries = tell([
      ev('device.add_phone', { outcome: 'failure', reason: 'auth.step_up_required' }),
      ev('step_up.push_start', { details: { deviceId: 'd0', txid: 't1' } }),
      ev('step_up.push', { outcome: 'failure', reason: 'push.denied', details: { txid: 't1', state: 'denied' } }),
      ev('step_up.push_start', { details: { deviceId: 'd0', txid: 't2' } }),
      ev('step_up.push', { details: { txid: 't2', state: 'approved' } }),
      ev('device.add_phone', { details: { deviceName: 'Work iPhone', kind: 'phone' } }),
      ev('device.activation', { details: { deviceId: 'd1', channel: 'sms' } }),
    ]);
    expect(summary(entries)).toEqual(['phone_added:success:you']);
    expect(entries[0]).toMatchObject({ deviceName: 'Work iPhone' });
    expect(entries[0]!.steps.map((s) => `${s.step}:${s.outcome}`)).toEqual([
      'step_up_asked:unfinished',
      'push_sent:success',
      'push_not_approved:failure',
      'push_sent:success',
      'step_up:success',
      'phone_added:success',
      'activation_link:success',
    ]);
  });

  it('a lost-device call is one entry of the service desk, from the identity check to the last step', () => {
    const desk = { actorUpn: DESK, actorRoles: ['Helpdesk Administrator'] };
    const entries = tell([
      ev('admin.user.verify_identity', { ...desk, details: { method: 'in_person', verified: true } }),
      ev('admin.user.lost_device.remove_device', { ...desk, details: { deviceName: 'Lost phone' } }),
      ev('admin.user.lost_device.issue_bypass_code', { ...desk, details: { count: 1 } }),
    ]);
    expect(summary(entries)).toEqual(['helpdesk_lost_device:success:service_desk']);
    expect(entries[0]).toMatchObject({ actorUpn: DESK, deviceName: 'Lost phone' });
    expect(entries[0]!.steps[0]).toMatchObject({ step: 'identity_checked', method: 'in_person' });
  });

  it('tells a default sign-in method chosen (with the device) and a campaign reminder put off as stories of their own', () => {
    const entries = tell([
      ev('device.set_default', { details: { deviceId: 'd1', method: 'push', deviceName: 'Work phone' } }),
      ev('campaign.snooze', { details: { campaignId: 'c1' }, at: 1000 }),
    ]);
    expect(summary(entries)).toEqual(['campaign_snoozed:success:you', 'default_method_set:success:you']);
    expect(entries[1]).toMatchObject({ deviceName: 'Work phone' });
  });

  it('says what it has no words for safely, never by its internal name', () => {
    const entries = tell([ev('something.new'), ev('admin.user.something_new', { actorUpn: DESK })]);
    expect(summary(entries)).toEqual(['helpdesk_other:success:service_desk', 'other:success:you']);
    expect(JSON.stringify(entries)).not.toContain('something');
  });

  it('keeps apart what is too far apart in time, or about someone else', () => {
    const entries = tell([
      ev('idp.login.password_ok', { details: { next: 'second_factor' }, at: 0 }),
      ev('idp.login.second_factor_ok', { details: { method: 'totp' }, at: 1 + JOIN_WINDOW_MS / 1000 }),
      ev('admin.user.verify_identity', { target: 'other@example.com', details: { verified: true }, at: 2000 }),
      ev('admin.user.create_bypass_codes', { target: 'someone@example.com', details: { count: 2 }, at: 2001 }),
    ]);
    expect(summary(entries)).toEqual([
      'helpdesk_bypass_created:success:you',
      'identity_checked:success:you',
      'sign_in:success:you',
      'sign_in:unfinished:someone',
    ]);
    expect(entries[0]).toMatchObject({ targetUpn: 'someone@example.com', count: 2 });
  });

  it('pages end between entries: reading a page at a time gives the same entries', () => {
    const events = [
      ev('idp.login.password_ok', { details: { next: 'second_factor' } }),
      ev('idp.login.second_factor_ok', { details: { method: 'hotp' } }),
      ev('device.delete', { outcome: 'failure', reason: 'auth.step_up_required' }),
      ev('mfa.verify', { details: { purpose: 'step_up', method: 'hotp' } }),
      ev('device.delete', { details: { deviceName: 'Old' } }),
      ev('bypass.create', { details: { count: 3 } }),
    ];
    const all = tell(events);
    expect(summary(all)).toEqual(['bypass_created:success:you', 'device_removed:success:you', 'sign_in:success:you']);
    expect(tell(events, 2).map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
  });
});
