import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditResponseSchema } from '@mfa-portal/shared';
import { meTestApp, type MeTestApp } from '../../../../test/me-api.js';
import { ADMIN, callAs } from '../../../../test/admin-api.js';
import { createAuditService } from '../../audit/audit.service.js';

/**
 * Searching the audit log as people do: "By" and "About" take part of a sign-in name, and the action
 * filter still takes the internal names (one, or a prefix ending in `.*`) that the screen's readable
 * list sends. The indexes behind these searches are checked in test/scale.int.test.ts.
 */

let m: MeTestApp;
const helpdesk = { upn: 'helpdesk@example.com', roles: ['Helpdesk Administrator'] };

beforeAll(async () => {
  m = await meTestApp();
  const audit = createAuditService(m.db);
  const event = (actor: string, target: string, action: string) =>
    audit.append({ actor: { upn: actor, roles: [] }, target, action, outcome: 'success', userAgent: null });
  await audit.append({ actor: helpdesk, target: 'grace@example.com', action: 'admin.user.unlock', outcome: 'success', userAgent: null });
  await event('grace@example.com', 'grace@example.com', 'device.rename');
  await event('graham@example.com', 'graham@example.com', 'device.rename');
  await event('magrat@example.com', 'magrat@example.com', 'device.delete');
  await audit.append({
    actor: helpdesk,
    target: 'magrat@example.com',
    action: 'admin.user.create_bypass_codes',
    outcome: 'success',
    userAgent: null,
  });
});
afterAll(async () => m?.close());

async function search(query: string) {
  const res = await callAs(m, ADMIN, 'GET', `/api/admin/audit?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return adminAuditResponseSchema.parse(res.json()).events;
}
const pairs = (events: Awaited<ReturnType<typeof search>>) => events.map((e) => `${e.actorUpn} → ${e.targetUpn}: ${e.action}`);

describe('GET /api/admin/audit by part of a name', () => {
  it('finds every event about grace@example.com from "grace" in About, whatever its case', async () => {
    for (const q of ['grace', 'GRACE', 'ace@exa', 'grace@example.com']) {
      expect(pairs(await search(`target=${encodeURIComponent(q)}`)), q).toEqual([
        'grace@example.com → grace@example.com: device.rename',
        'helpdesk@example.com → grace@example.com: admin.user.unlock',
      ]);
    }
  });

  it('finds the events done by someone from part of their name in By', async () => {
    expect(pairs(await search('actor=helpdesk&target=ma'))).toEqual([
      'helpdesk@example.com → magrat@example.com: admin.user.create_bypass_codes',
    ]);
    expect(pairs(await search('actor=grah'))).toEqual(['graham@example.com → graham@example.com: device.rename']);
  });

  it('matches one or two letters at the start of a name only', async () => {
    const targets = new Set((await search('target=gr')).map((e) => e.targetUpn));
    expect(targets).toEqual(new Set(['grace@example.com', 'graham@example.com']));
    expect((await search('actor=ag')).length).toBe(0);
  });

  it('takes % and _ as themselves, never as wildcards', async () => {
    expect(await search(`target=${encodeURIComponent('%race')}`)).toEqual([]);
    expect(await search('target=_race')).toEqual([]);
    expect(await search(`actor=${encodeURIComponent('gr_ce')}`)).toEqual([]);
  });
});

describe('GET /api/admin/audit by action', () => {
  it('still takes the internal names: one action, or a prefix ending in .*', async () => {
    expect(pairs(await search('action=admin.user.unlock&target=grace'))).toEqual([
      'helpdesk@example.com → grace@example.com: admin.user.unlock',
    ]);
    expect((await search('action=device.*&target=gr')).map((e) => e.action)).toEqual(['device.rename', 'device.rename']);
    expect((await search('action=admin.*&actor=helpdesk')).map((e) => e.action)).toEqual([
      'admin.user.create_bypass_codes',
      'admin.user.unlock',
    ]);
  });

  it('refuses what is not an action with 400 naming the field', async () => {
    const res = await callAs(m, ADMIN, 'GET', `/api/admin/audit?action=${encodeURIComponent('Unlocked an account')}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'request.invalid', details: { field: 'action' } });
  });
});

describe('the rules that read the log', () => {
  it('name whole sign-in names: a check of grace@example.com is not one of race@example.com', async () => {
    // "This member's own check of this person" (identity verification, the lost-device wizard) must
    // never be satisfied by an event about someone whose name merely contains the person's name.
    const audit = createAuditService(m.db);
    const about = async (target: string) => (await audit.search({ target, actor: helpdesk.upn }, { limit: 10 })).events;
    expect((await about('race@example.com')).map((e) => e.action)).toEqual([]);
    expect((await about('GRACE@example.com')).map((e) => e.action)).toEqual(['admin.user.unlock']);
    expect((await audit.search({ actor: 'helpdesk' }, { limit: 10 })).events).toEqual([]);
  });
});
