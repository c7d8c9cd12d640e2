import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, callAs, HELPDESK } from '../../../test/admin-api.js';
import { auditEvents, errorOf, meTestApp, totpAt, type MeTestApp } from '../../../test/me-api.js';
import { recipientOf, startSmtpSink, wholeMessage, type SmtpSink } from '../../../test/smtp-sink.js';

/**
 * Enrolment campaigns against a real SMTP server started here, with a fake clock handed to the app's
 * composition root (the scheduler and the e-mail sender go by it; nothing waits for real time): the
 * first e-mail, reminders at the interval and no more than allowed, nobody mailed once they have a
 * device, overdue after the deadline; the banner and its snoozes; bad input refused with nothing stored.
 */

const DAY = 86_400_000;
const QUIET = { NOTIFY_POLL_SECONDS: '3600', MFA_VERIFY_LIMIT_PER_USER: '1000', MFA_VERIFY_LIMIT_PER_ADDRESS: '10000' };
const DESK = 'IT Service Desk, +44 20 7946 0000';

let sink: SmtpSink;
let m: MeTestApp;
let now = new Date();
const clock = () => new Date(now.getTime());
const later = (days: number) => (now = new Date(now.getTime() + days * DAY));

async function groupOf(name: string, upns: readonly string[]): Promise<string> {
  const group = await m.db
    .insertInto('scim_group')
    .values({ display_name: name, external_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const upn of upns) {
    const existing = await m.db.selectFrom('scim_user').select('id').where('user_name', '=', upn).executeTakeFirst();
    const user =
      existing ??
      (await m.db
        .insertInto('scim_user')
        .values({
          user_name: upn,
          external_id: null,
          display_name: upn,
          given_name: null,
          family_name: null,
          formatted_name: null,
          emails: JSON.stringify([{ value: upn, primary: true }]),
          roles: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow());
    await m.db.insertInto('scim_group_member').values({ group_id: group.id, user_id: user.id }).execute();
  }
  return group.id;
}

const settings = { reminderIntervalDays: 2, maxReminders: 2, maxSnoozes: 2, snoozeDays: 1 };
const start = (body: Record<string, unknown>) =>
  callAs(m, ADMIN, 'POST', '/api/admin/campaigns', {
    requirement: 'device',
    deadline: new Date(now.getTime() + 10 * DAY).toISOString(),
    ...settings,
    ...body,
  });
const progressOf = async (id: string) => (await callAs(m, ADMIN, 'GET', `/api/admin/campaigns/${id}`)).json().progress;
const banner = async (upn: string, sid?: string) => {
  const res = await m.call(upn, 'GET', '/campaign', undefined, sid ? { sid } : {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json().campaign;
};
const snooze = (upn: string, id: string, sid?: string) => m.call(upn, 'POST', `/campaign/${id}/snooze`, undefined, sid ? { sid } : {});

/** Sends the outbox and answers the campaign e-mails that arrived, by recipient. */
async function campaignMail(): Promise<Map<string, ParsedMail[]>> {
  const before = sink.messages.length;
  await m.t.app.notificationSender!.runOnce();
  const out = new Map<string, ParsedMail[]>();
  for (const mail of sink.messages.slice(before)) {
    if (!/add a sign-in device by/i.test(mail.subject ?? '')) continue;
    const to = recipientOf(mail);
    out.set(to, [...(out.get(to) ?? []), mail]);
  }
  return out;
}

async function addAuthenticatorApp(upn: string) {
  const begun = await m.call(upn, 'POST', '/devices/authenticator');
  expect(begun.statusCode, begun.body).toBe(201);
  const { enrolmentId, secret } = begun.json();
  const done = await m.call(upn, 'POST', `/devices/authenticator/${enrolmentId}/confirm`, { code: totpAt(secret), name: 'Phone' });
  expect(done.statusCode, done.body).toBe(201);
}

beforeAll(async () => {
  sink = await startSmtpSink();
  m = await meTestApp({ ...QUIET, SMTP_URL: sink.url, MAIL_FROM: 'MFA portal <mfa@example.com>', SERVICE_DESK_CONTACT: DESK }, { clock });
  // The tests run each pass themselves, at the fake clock's time.
  await m.t.app.campaignScheduler.stop();
});
afterAll(async () => {
  await m?.close();
  await sink?.close();
});

describe('POST /api/admin/campaigns', () => {
  it('refuses bad input naming the field, and stores nothing', async () => {
    const empty = await groupOf('Nobody yet', []);
    const pilot = await groupOf('Refusals', ['alice@example.com']);
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ target: { kind: 'group', id: '6b0f7c1e-1d0a-4a43-9d57-8f7a3c1f0b11' } }, 400, 'campaign.target_unknown', 'target.id'],
      [{ target: { kind: 'unit', id: '6b0f7c1e-1d0a-4a43-9d57-8f7a3c1f0b11' } }, 400, 'campaign.target_unknown', 'target.id'],
      [{ target: { kind: 'group', id: empty } }, 400, 'campaign.target_empty', 'target.id'],
      [
        { target: { kind: 'group', id: pilot }, deadline: new Date(now.getTime() - DAY).toISOString() },
        400,
        'campaign.deadline_invalid',
        'deadline',
      ],
      [
        { target: { kind: 'group', id: pilot }, deadline: new Date(now.getTime() + 400 * DAY).toISOString() },
        400,
        'campaign.deadline_invalid',
        'deadline',
      ],
      [{ target: { kind: 'group', id: pilot }, reminderIntervalDays: 0 }, 400, 'request.invalid', 'reminderIntervalDays'],
      [{ target: { kind: 'group', id: pilot }, maxReminders: 0 }, 400, 'request.invalid', 'maxReminders'],
      [{ target: { kind: 'group', id: pilot }, maxReminders: 1000 }, 400, 'request.invalid', 'maxReminders'],
      [{ target: { kind: 'group', id: pilot }, snoozeDays: 365 }, 400, 'request.invalid', 'snoozeDays'],
      [{ target: { kind: 'group', id: pilot }, deadline: 'next Tuesday' }, 400, 'request.invalid', 'deadline'],
      [{ target: { kind: 'team', id: pilot } }, 400, 'request.invalid', 'target.kind'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await start(body);
      expect({ status: res.statusCode, code: errorOf(res).code, field: errorOf(res).details?.field }, JSON.stringify(body)).toEqual({
        status,
        code,
        field,
      });
    }
    const refusal = errorOf(await start({ target: { kind: 'group', id: empty } }));
    expect(refusal.details?.reason).toMatch(/“Nobody yet” is empty/);
    expect(await m.db.selectFrom('enrolment_campaign').selectAll().execute()).toEqual([]);
    expect(await m.db.selectFrom('enrolment_campaign_member').selectAll().execute()).toEqual([]);
    // The refusals the service decided are audited as failures.
    const failures = (await auditEvents(m.db, 'admin.campaign.start')).filter((e) => e.outcome === 'failure').map((e) => e.reason);
    expect(failures).toContain('campaign.target_empty');
  });

  it('is for Solution Administrators only', async () => {
    const group = await groupOf('Helpdesk tries', ['alice@example.com']);
    const res = await callAs(m, HELPDESK, 'POST', '/api/admin/campaigns', {
      target: { kind: 'group', id: group },
      requirement: 'device',
      deadline: new Date(now.getTime() + DAY).toISOString(),
      ...settings,
    });
    expect(res.statusCode).toBe(403);
    expect(await m.db.selectFrom('enrolment_campaign').selectAll().execute()).toEqual([]);
  });
});

describe('campaign scheduling (fake clock, real SMTP server)', () => {
  it('mails each person without a device once, reminds at the interval a bounded number of times, never after they enrol, then shows them overdue', async () => {
    const group = await groupOf('Campaign test finance', ['alice@example.com', 'carol@example.com', 'bob@example.com']);
    const res = await start({ target: { kind: 'group', id: group } });
    expect(res.statusCode, res.body).toBe(201);
    const campaign = res.json();
    expect(campaign).toMatchObject({
      target: { kind: 'group', id: group, name: 'Campaign test finance' },
      state: 'active',
      progress: { inScope: 3 },
    });
    const [started] = (await auditEvents(m.db, 'admin.campaign.start')).filter((e) => e.outcome === 'success');
    expect(started?.details).toMatchObject({ campaignId: campaign.id, inScope: 3, requirement: 'device' });

    // First pass: alice and carol lack a device, bob has one (enrolled, never mailed).
    expect(await m.t.app.campaignScheduler.runOnce()).toEqual({ invitations: 2, reminders: 0 });
    let mail = await campaignMail();
    expect([...mail.keys()].sort()).toEqual(['alice@example.com', 'carol@example.com']);
    const first = mail.get('alice@example.com')![0]!;
    expect(first.subject).toMatch(/^Please add a sign-in device by /);
    const text = wholeMessage(first);
    expect(first.text).toContain('https://localhost:8443/devices/add');
    expect(typeof first.html === 'string' && first.html.includes('href="https://localhost:8443/devices/add"')).toBe(true);
    expect(first.text).toContain(new Date(campaign.deadline).getUTCFullYear().toString());
    expect(first.text).toContain(`Contact the service desk: ${DESK}`);
    expect(first.text).toContain('cannot be switched off');
    expect(text).not.toMatch(/unsubscribe/i);
    expect(await progressOf(campaign.id)).toEqual({ inScope: 3, enrolled: 1, overdue: 0, snoozed: 0, reminded: 0, mailed: 2, waiting: 0 });
    const [round] = await auditEvents(m.db, 'campaign.mail');
    expect(round).toMatchObject({ actor_upn: null, outcome: 'success' });
    expect(round?.details).toMatchObject({ campaignId: campaign.id, invitations: 2, reminders: 0 });

    // Again at once, and a day later: nobody is due.
    expect(await m.t.app.campaignScheduler.runOnce()).toEqual({ invitations: 0, reminders: 0 });
    later(1);
    expect(await m.t.app.campaignScheduler.runOnce()).toEqual({ invitations: 0, reminders: 0 });
    expect((await campaignMail()).size).toBe(0);

    // The interval has passed: the first reminder to each.
    later(1);
    expect(await m.t.app.campaignScheduler.runOnce()).toEqual({ invitations: 0, reminders: 2 });
    mail = await campaignMail();
    expect(mail.get('alice@example.com')![0]!.subject).toMatch(/^Reminder: please add a sign-in device by /);
    expect(mail.get('carol@example.com')).toHaveLength(1);

    // carol adds a device: she is never mailed again; alice gets her second (and last) reminder.
    await addAuthenticatorApp('carol@example.com');
    later(2);
    expect(await m.t.app.campaignScheduler.runOnce()).toEqual({ invitations: 0, reminders: 1 });
    mail = await campaignMail();
    expect([...mail.keys()]).toEqual(['alice@example.com']);
    expect(await progressOf(campaign.id)).toMatchObject({ enrolled: 2, reminded: 1 });

    // Bounded: no third reminder, however long it waits.
    later(2);
    expect(await m.t.app.campaignScheduler.runOnce()).toEqual({ invitations: 0, reminders: 0 });
    later(2);
    expect(await m.t.app.campaignScheduler.runOnce()).toEqual({ invitations: 0, reminders: 0 });
    expect((await campaignMail()).size).toBe(0);
    const alice = await m.db
      .selectFrom('enrolment_campaign_member')
      .selectAll()
      .where('upn', '=', 'alice@example.com')
      .where('campaign_id', '=', campaign.id)
      .executeTakeFirstOrThrow();
    expect(alice).toMatchObject({ reminders_sent: 2, enrolled_at: null });

    // The deadline passes: alice is overdue; nothing more is sent.
    later(3);
    expect(await m.t.app.campaignScheduler.runOnce()).toEqual({ invitations: 0, reminders: 0 });
    expect(await progressOf(campaign.id)).toEqual({ inScope: 3, enrolled: 2, overdue: 1, snoozed: 0, reminded: 0, mailed: 0, waiting: 0 });
    expect(await banner('alice@example.com')).toMatchObject({ id: campaign.id, overdue: true });
    expect(errorOf(await snooze('alice@example.com', campaign.id)).code).toBe('campaign.overdue');

    // Ended: no banner, no mail, and a second end conflicts.
    const ended = await callAs(m, ADMIN, 'POST', `/api/admin/campaigns/${campaign.id}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ state: 'ended', endedBy: 'admin@example.com' });
    expect(await banner('alice@example.com')).toBeNull();
    expect(errorOf(await callAs(m, ADMIN, 'POST', `/api/admin/campaigns/${campaign.id}/end`)).code).toBe('campaign.ended');
  });

  it('follows the group: a newcomer is mailed, one who left is not', async () => {
    const group = await groupOf('Campaign test sales', ['frank@example.com']);
    const res = await start({ target: { kind: 'group', id: group } });
    expect(res.statusCode, res.body).toBe(201);
    expect(errorOf(await start({ target: { kind: 'group', id: group } })).code).toBe('campaign.already_running');
    const frank = await m.db.selectFrom('scim_user').select('id').where('user_name', '=', 'frank@example.com').executeTakeFirstOrThrow();
    await m.db.deleteFrom('scim_group_member').where('group_id', '=', group).where('user_id', '=', frank.id).execute();
    const ivanUser = await m.db
      .insertInto('scim_user')
      .values({
        user_name: 'ivan@example.com',
        external_id: null,
        display_name: 'Ivan',
        given_name: null,
        family_name: null,
        formatted_name: null,
        emails: '[]',
        roles: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await m.db.insertInto('scim_group_member').values({ group_id: group, user_id: ivanUser.id }).execute();
    expect(await m.t.app.campaignScheduler.runOnce()).toEqual({ invitations: 1, reminders: 0 });
    expect([...(await campaignMail()).keys()]).toEqual(['ivan@example.com']);
    expect(await progressOf(res.json().id)).toMatchObject({ inScope: 1, mailed: 1 });
  });

  it('runs on an administrative unit too', async () => {
    const unit = await callAs(m, ADMIN, 'POST', '/api/admin/units', { name: 'Legal', members: { people: ['dave@example.com'] } });
    expect(unit.statusCode, unit.body).toBe(201);
    const res = await start({ target: { kind: 'unit', id: unit.json().id }, requirement: 'policy' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ target: { kind: 'unit', name: 'Legal' }, requirement: 'policy', progress: { inScope: 1 } });
    expect(await m.t.app.campaignScheduler.runOnce()).toMatchObject({ invitations: 1 });
    const mail = await campaignMail();
    expect(mail.get('dave@example.com')![0]!.text).toContain('that its policy lets you use');
    await callAs(m, ADMIN, 'POST', `/api/admin/campaigns/${res.json().id}/end`);
  });
});

describe('the banner and "Remind me later"', () => {
  let id: string;
  beforeAll(async () => {
    // The demo group of the end-to-end journey: xena and yusuf, neither with a device.
    const pilot = await m.db.selectFrom('scim_group').select('id').where('display_name', '=', 'Campaign pilot').executeTakeFirstOrThrow();
    const res = await start({ target: { kind: 'group', id: pilot.id } });
    expect(res.statusCode, res.body).toBe(201);
    id = res.json().id;
  });

  it('shows the banner, hides it for the snooze length, a limited number of times', async () => {
    expect(await banner('xena@example.com')).toMatchObject({ id, overdue: false, snoozesLeft: 2, maxSnoozes: 2, snoozeDays: 1 });
    // Someone in no campaign sees none, and cannot snooze one.
    expect(await banner('bob@example.com')).toBeNull();
    expect(errorOf(await snooze('bob@example.com', id)).code).toBe('campaign.not_found');

    let res = await snooze('xena@example.com', id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ campaign: null });
    expect(await banner('xena@example.com')).toBeNull();
    later(1.01);
    expect(await banner('xena@example.com')).toMatchObject({ snoozesLeft: 1 });
    expect((await snooze('xena@example.com', id)).statusCode).toBe(200);
    later(1.01);
    expect(await banner('xena@example.com')).toMatchObject({ snoozesLeft: 0 });
    res = await snooze('xena@example.com', id);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('campaign.snooze_limit_reached');
    const snoozes = (await auditEvents(m.db, 'campaign.snooze')).filter((e) => e.target_upn === 'xena@example.com');
    expect(snoozes.map((e) => e.outcome)).toEqual(['success', 'success', 'failure']);
    expect(await progressOf(id)).toMatchObject({ inScope: 2 });
  });

  it('a session of another person cannot snooze for them: it reaches only its own banner', async () => {
    const before = await m.db
      .selectFrom('enrolment_campaign_member')
      .selectAll()
      .where('upn', '=', 'xena@example.com')
      .executeTakeFirstOrThrow();
    const res = await snooze('yusuf@example.com', id, 'another-session');
    expect(res.statusCode, res.body).toBe(200);
    const after = await m.db
      .selectFrom('enrolment_campaign_member')
      .selectAll()
      .where('upn', '=', 'xena@example.com')
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    const yusuf = await m.db
      .selectFrom('enrolment_campaign_member')
      .selectAll()
      .where('upn', '=', 'yusuf@example.com')
      .executeTakeFirstOrThrow();
    expect(yusuf.snoozes_used).toBe(1);
    expect(await progressOf(id)).toMatchObject({ snoozed: 1 });
  });

  it('goes away once they add a device, and progress counts them enrolled', async () => {
    await addAuthenticatorApp('xena@example.com');
    expect(await banner('xena@example.com')).toBeNull();
    expect(await progressOf(id)).toMatchObject({ inScope: 2, enrolled: 1 });
    expect(errorOf(await snooze('xena@example.com', id)).code).toBe('campaign.not_found');
  });

  it('lists every campaign with its progress, and says whether e-mail is set up', async () => {
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/campaigns');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.emailEnabled).toBe(true);
    const states = body.campaigns.map((c: { state: string }) => c.state);
    // The active ones first.
    expect(states).toEqual([...states].sort());
    expect(body.campaigns.find((c: { id: string }) => c.id === id)).toMatchObject({ target: { name: 'Campaign pilot' }, state: 'active' });
    expect(errorOf(await callAs(m, ADMIN, 'GET', '/api/admin/campaigns/6b0f7c1e-1d0a-4a43-9d57-8f7a3c1f0b11')).code).toBe(
      'campaign.not_found',
    );
  });
});
