import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditStreamsStatusSchema } from '@mfa-portal/shared';
import { ADMIN, HELPDESK, JUSTIFY, callAs } from '../../../test/admin-api.js';
import { testServices } from '../../../test/app.js';
import { meTestApp, type MeTestApp } from '../../../test/me-api.js';
import type { AuditService } from '../audit/audit.service.js';
import { siemRepository } from './siem.repository.js';

/**
 * The SIEM outbox is written in the same transaction as the audit event: an event and its rows are
 * stored together or not at all, one row per stream switched on, none for a stream switched off.
 * Nothing is sent here (the loops poll once a minute and nothing listens); the state is what
 * Solution Administrators see on the reports page.
 */

const OFFLINE = {
  AUDIT_STREAM_POLL_MS: '60000',
  AUDIT_SYSLOG_URL: 'tls://siem.invalid:6514',
  AUDIT_WEBHOOK_URL: 'https://siem.invalid/hooks/audit?key=in-the-path',
  AUDIT_WEBHOOK_SECRET: 'outbox-test-secret-0123456789abcdef0123',
};

const counts = async (m: MeTestApp) => {
  const [events, rows] = await Promise.all([
    m.db
      .selectFrom('audit_event')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    m.db
      .selectFrom('siem_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { events: Number(events.n), rows: Number(rows.n) };
};

describe('the SIEM outbox', () => {
  let m: MeTestApp;
  let audit: AuditService;

  beforeAll(async () => {
    m = await meTestApp(OFFLINE);
    audit = testServices(m.t.config, m.t.database).audit;
  });
  afterAll(async () => m?.close());

  it('queues each audit event for every stream switched on, with the event', async () => {
    const before = await counts(m);
    const event = await audit.append({
      actor: null,
      target: 'bob@example.com',
      action: 'test.siem_outbox',
      outcome: 'success',
      reason: null,
    });
    expect(await counts(m)).toEqual({ events: before.events + 1, rows: before.rows + 2 });
    const rows = await m.db
      .selectFrom('siem_outbox')
      .selectAll()
      .where('audit_event_id', '=', Number(event.id))
      .orderBy('stream')
      .execute();
    expect(rows).toMatchObject([
      { stream: 'syslog', delivered_at: null, attempts: 0 },
      { stream: 'webhook', delivered_at: null, attempts: 0 },
    ]);
  });

  it('writes neither the event nor its rows when the change fails', async () => {
    const before = await counts(m);
    await expect(
      audit.atomically(async () => {
        await audit.append({ actor: null, target: 'bob@example.com', action: 'test.siem_rolled_back', outcome: 'success', reason: null });
        throw new Error('the change failed after its audit event');
      }),
    ).rejects.toThrow('the change failed');
    expect(await counts(m)).toEqual(before);
  });

  it('queues events of requests too: a change through the API and its rows, together', async () => {
    const before = await counts(m);
    const res = await callAs(m, ADMIN, 'POST', '/api/admin/users/bob@example.com/sign-out-everywhere', JUSTIFY);
    expect(res.statusCode, res.body).toBe(200);
    const after = await counts(m);
    expect(after.events - before.events).toBeGreaterThan(0);
    expect(after.rows - before.rows, res.body).toBe(2 * (after.events - before.events));
  });

  it('prunes delivered rows once they are older than the retention, never a pending one', async () => {
    const repo = siemRepository(m.db);
    const old = await audit.append({ actor: null, target: null, action: 'test.siem_prune_old', outcome: 'success', reason: null });
    const recent = await audit.append({ actor: null, target: null, action: 'test.siem_prune_recent', outcome: 'success', reason: null });
    const now = Date.now();
    await repo.markDelivered('syslog', [Number(old.id)], new Date(now - 2 * 86_400_000), { keep: true });
    await repo.markDelivered('syslog', [Number(recent.id)], new Date(now - 3_600_000), { keep: true });
    const pendingBefore = (await repo.backlog('syslog')).count;
    expect(await repo.pruneDelivered('syslog', new Date(now - 86_400_000), 1000)).toBe(1);
    const left = await m.db
      .selectFrom('siem_outbox')
      .select(['stream', 'audit_event_id'])
      .where('audit_event_id', 'in', [Number(old.id), Number(recent.id)])
      .execute();
    expect(left).toHaveLength(3);
    expect(left).not.toContainEqual({ stream: 'syslog', audit_event_id: Number(old.id) });
    expect((await repo.backlog('syslog')).count).toBe(pendingBefore);
  });

  it('shows each stream to Solution Administrators, without the secret or the webhook path', async () => {
    expect((await callAs(m, HELPDESK, 'GET', '/api/admin/reports/audit-streams')).statusCode).toBe(403);
    const res = await callAs(m, ADMIN, 'GET', '/api/admin/reports/audit-streams');
    expect(res.statusCode).toBe(200);
    const { streams } = auditStreamsStatusSchema.parse(res.json());
    const repo = siemRepository(m.db);
    const [syslog, webhook] = [await repo.backlog('syslog'), await repo.backlog('webhook')];
    expect(syslog.count).toBeGreaterThan(0);
    expect(streams).toEqual([
      expect.objectContaining({
        stream: 'syslog',
        enabled: true,
        destination: 'siem.invalid:6514',
        backlog: syslog.count,
        lastError: null,
      }),
      expect.objectContaining({ stream: 'webhook', enabled: true, destination: 'https://siem.invalid', backlog: webhook.count }),
    ]);
    // The rows the pruning test marked delivered show as the last delivery.
    expect(streams[0]!.lastDeliveredAt).not.toBeNull();
    expect(streams[1]!.lastDeliveredAt).toBeNull();
    expect(res.body).not.toContain(OFFLINE.AUDIT_WEBHOOK_SECRET);
    expect(res.body).not.toContain('in-the-path');
  });
});

describe('the SIEM outbox with one stream switched on', () => {
  it('queues nothing for the stream that is off, and says it is off', async () => {
    const m = await meTestApp({
      AUDIT_STREAM_POLL_MS: '60000',
      AUDIT_WEBHOOK_URL: OFFLINE.AUDIT_WEBHOOK_URL,
      AUDIT_WEBHOOK_SECRET: OFFLINE.AUDIT_WEBHOOK_SECRET,
    });
    try {
      const audit = testServices(m.t.config, m.t.database).audit;
      const event = await audit.append({ actor: null, target: null, action: 'test.siem_one_stream', outcome: 'failure', reason: 'x.y' });
      const rows = await m.db.selectFrom('siem_outbox').selectAll().where('audit_event_id', '=', Number(event.id)).execute();
      expect(rows.map((r) => r.stream)).toEqual(['webhook']);
      expect(m.t.app.siem.delivery('syslog')).toBeNull();
      const { streams } = auditStreamsStatusSchema.parse((await callAs(m, ADMIN, 'GET', '/api/admin/reports/audit-streams')).json());
      expect(streams.find((s) => s.stream === 'syslog')).toMatchObject({ enabled: false, destination: null, backlog: 0 });
    } finally {
      await m.close();
    }
  });
});
