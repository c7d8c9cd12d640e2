import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, callAs } from '../admin-api.js';
import { meTestApp, type MeTestApp } from '../me-api.js';
import { recipientOf, startSmtpSink, type SmtpSink } from '../smtp-sink.js';
import { createDirectorySync } from '../../src/modules/directory/directory-sync.js';
import { directoryRepository } from '../../src/modules/directory/directory.repository.js';
import type { DuoStandin } from './duo-standin.js';
import { duoEnv, seedDemoStaff, startStandin } from './support.js';

/**
 * Enrolment campaigns with MFA_PROVIDER=duo (the stand-in): who has a device is read from the
 * portal's directory mirror (Duo's "enrolled", as the directory sync last saw it), so a campaign's pass
 * asks Duo nothing, person by person or otherwise. And the factor policy's preview, which weighs what
 * each member of the group holds at Duo.
 */

let standin: DuoStandin;
let sink: SmtpSink;
let m: MeTestApp;
let alice: ReturnType<typeof seedDemoStaff>['alice'];

beforeAll(async () => {
  standin = await startStandin({ maxLimit: 2 });
  ({ alice } = seedDemoStaff(standin)); // alice has no device at Duo, bob a phone and a token
  sink = await startSmtpSink();
  m = await meTestApp(duoEnv(standin, { SMTP_URL: sink.url, NOTIFY_POLL_SECONDS: '3600' }));
  await m.t.app.campaignScheduler.stop();
  await createDirectorySync({ mfa: m.t.app.mfa, directory: directoryRepository(m.db), everyMinutes: 0, callsPerSecond: 50 }).syncOnce();
});
afterAll(async () => {
  await m?.close();
  await sink?.close();
  await standin?.close();
});

describe('enrolment campaigns on Duo', () => {
  it('mirror Duo’s "enrolled" in the directory, and mail only those Duo says have no device, without asking Duo', async () => {
    const mirrored = await m.db
      .selectFrom('directory_user')
      .select(['upn', 'mfa_enrolled'])
      .where('upn', 'in', ['alice@example.com', 'bob@example.com'])
      .orderBy('upn')
      .execute();
    expect(mirrored).toEqual([
      { upn: 'alice@example.com', mfa_enrolled: false },
      { upn: 'bob@example.com', mfa_enrolled: true },
    ]);
    const group = await m.db
      .insertInto('scim_group')
      .values({ display_name: 'Duo pilot', external_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const upn of ['alice@example.com', 'bob@example.com']) {
      const user = await m.db
        .insertInto('scim_user')
        .values({
          user_name: upn,
          external_id: null,
          display_name: upn,
          given_name: null,
          family_name: null,
          formatted_name: null,
          emails: '[]',
          roles: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await m.db.insertInto('scim_group_member').values({ group_id: group.id, user_id: user.id }).execute();
    }
    const started = await callAs(m, ADMIN, 'POST', '/api/admin/campaigns', {
      target: { kind: 'group', id: group.id },
      requirement: 'device',
      deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      reminderIntervalDays: 2,
      maxReminders: 1,
      maxSnoozes: 1,
      snoozeDays: 1,
    });
    expect(started.statusCode, started.body).toBe(201);

    const before = standin.requests.length;
    expect(await m.t.app.campaignScheduler.runOnce()).toEqual({ invitations: 1, reminders: 0 });
    expect(standin.requests.length, 'Duo was asked during the pass').toBe(before);
    await m.t.app.notificationSender!.runOnce();
    expect(sink.messages.filter((mail) => /add a sign-in device/i.test(mail.subject ?? '')).map(recipientOf)).toEqual([
      'alice@example.com',
    ]);
    const progress = (await callAs(m, ADMIN, 'GET', `/api/admin/campaigns/${started.json().id}`)).json().progress;
    expect(progress).toMatchObject({ inScope: 2, enrolled: 1, mailed: 1 });

    // Her banner asks Duo about her alone, as she is now: a phone just activated there counts at once.
    const banner = async () => (await m.call('alice@example.com', 'GET', '/campaign')).json().campaign;
    expect(await banner()).toMatchObject({ id: started.json().id, snoozesLeft: 1 });
    standin.addPhone({ userId: alice.user_id, number: '+15555550188', name: 'Alice’s phone', platform: 'Apple iOS', activated: true });
    expect(await banner()).toBeNull();
    const after = (await callAs(m, ADMIN, 'GET', `/api/admin/campaigns/${started.json().id}`)).json().progress;
    expect(after).toMatchObject({ inScope: 2, enrolled: 2 });
  });
});

describe('a factor policy preview on Duo', () => {
  it('weighs what the group’s members hold at Duo, asking Duo about them alone, and refuses a change that leaves one with nothing', async () => {
    const group = await m.db
      .insertInto('scim_group')
      .values({ display_name: 'Duo contractors', external_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const users = await m.db.selectFrom('scim_user').select(['id', 'user_name']).execute();
    for (const u of users.filter((x) => ['alice@example.com', 'bob@example.com'].includes(x.user_name)))
      await m.db.insertInto('scim_group_member').values({ group_id: group.id, user_id: u.id }).execute();
    // Security keys only: bob's phone and token would no longer count; alice holds a phone now.
    const keysOnly = {
      enrol: ['security_key'],
      use: ['security_key'],
      requirePhishingResistant: false,
      maxPerKind: {},
    };
    const before = standin.requests.length;
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/preview', {
      scope: { kind: 'group', groupId: group.id },
      policy: keysOnly,
    });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json();
    expect(preview.affected).toBe(2);
    expect(preview.refused).toBe(true);
    expect(preview.loseEveryFactor.people.map((p: { upn: string }) => p.upn).sort()).toEqual(['alice@example.com', 'bob@example.com']);
    const bob = preview.loseEveryFactor.people.find((p: { upn: string }) => p.upn === 'bob@example.com');
    expect(bob.kinds).toEqual(expect.arrayContaining(['phone', 'hardware_token']));
    // Duo was asked about the two members only, never for a list of everyone.
    const asked = standin.requests.slice(before);
    expect(asked.length).toBeGreaterThan(0);
    const about = new Set(asked.map((r) => r.params.username).filter(Boolean));
    expect([...about].sort()).toEqual(['alice@example.com', 'bob@example.com']);
    expect(asked.filter((r) => r.method === 'GET' && r.path === '/admin/v1/users' && !r.params.username)).toEqual([]);

    const saved = await callAs(m, ADMIN, 'POST', '/api/admin/factor-policy/groups', { ...keysOnly, groupId: group.id });
    expect(saved.statusCode).toBe(409);
    expect(saved.json().code).toBe('factor_policy.would_leave_without_factor');
    expect(await m.db.selectFrom('factor_policy_group').selectAll().where('group_id', '=', group.id).execute()).toEqual([]);
  });
});
