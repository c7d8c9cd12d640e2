import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditStreamsStatusSchema } from '@mfa-portal/shared';
import { ADMIN, callAs } from '../../../test/admin-api.js';
import { testServices } from '../../../test/app.js';
import { meTestApp, type MeTestApp } from '../../../test/me-api.js';
import { localhostCertificate, startWebhookReceiver, type WebhookReceiver } from '../../../test/siem-receivers.js';
import type { AuditService } from '../audit/audit.service.js';
import { createSiemService } from './siem.service.js';

/**
 * Audit to a SIEM as a JSON webhook signed with HMAC-SHA256, against a real HTTPS receiver that checks
 * the signature as the operations guide says: each event once it is accepted, in order, with what the
 * receiver needs to check the chain; a receiver answering 500 gets the same events again once it
 * recovers; a receiver that refuses the signature (another secret) leaves them pending.
 */

const SECRET = 'webhook-secret-for-the-tests-0123456789abcdef';
const TIMINGS = { AUDIT_STREAM_POLL_MS: '60000', AUDIT_STREAM_RETRY_MIN_MS: '50', AUDIT_STREAM_RETRY_MAX_MS: '100' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('audit to a SIEM: a JSON webhook signed with HMAC-SHA256', () => {
  let dir: string;
  let receiver: WebhookReceiver;
  let caFile: string;
  let m: MeTestApp;
  let audit: AuditService;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-webhook-'));
    const certificate = await localhostCertificate();
    receiver = await startWebhookReceiver(certificate, SECRET);
    caFile = path.join(dir, 'receiver-ca.pem');
    fs.writeFileSync(caFile, certificate.cert);
    m = await meTestApp({
      ...TIMINGS,
      AUDIT_WEBHOOK_URL: receiver.url,
      AUDIT_WEBHOOK_SECRET: SECRET,
      AUDIT_WEBHOOK_CA_FILE: caFile,
      // Delivered rows are removed at once.
      AUDIT_STREAM_KEEP_DELIVERED_HOURS: '0',
    });
    audit = testServices(m.t.config, m.t.database).audit;
  });
  afterAll(async () => {
    await m?.close();
    await receiver?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const rowsOf = (t: MeTestApp) =>
    t.db.selectFrom('siem_outbox').selectAll().where('stream', '=', 'webhook').orderBy('audit_event_id').execute();
  async function deliverAll(t: MeTestApp) {
    for (let i = 0; i < 400; i++) {
      await t.t.app.siem.delivery('webhook')!.runOnce();
      if ((await rowsOf(t)).length === 0) return;
      await sleep(20);
    }
    throw new Error('the webhook stream did not empty');
  }
  const stateOf = async (t: MeTestApp) => {
    const res = await callAs(t, ADMIN, 'GET', '/api/admin/reports/audit-streams');
    expect(res.statusCode, res.body).toBe(200);
    return auditStreamsStatusSchema.parse(res.json()).streams.find((s) => s.stream === 'webhook')!;
  };

  it('posts each event with its hash, and again after a 500 once the receiver recovers, in order', async () => {
    receiver.failing = true;
    const appended = [];
    for (const n of [1, 2, 3])
      appended.push(
        await audit.append({
          actor: null,
          target: 'bob@example.com',
          action: `test.siem_webhook_${n}`,
          outcome: 'success',
          reason: null,
          details: { n },
        }),
      );
    expect(await m.t.app.siem.delivery('webhook')!.runOnce()).toEqual({ delivered: 0, failed: true });
    // One at a time, in order: the first was refused, so the others were not tried.
    expect(receiver.refused.failing).toBe(1);
    expect(receiver.accepted).toEqual([]);
    const down = await stateOf(m);
    expect(down).toMatchObject({ enabled: true, backlog: 3, failures: 1, lastError: 'the receiver answered HTTP 500' });
    // The destination is the origin only (a path or query may hold a key); nothing of the secret anywhere.
    expect(down.destination).toBe(new URL(receiver.url).origin);
    expect(JSON.stringify(down)).not.toContain(SECRET);

    receiver.failing = false;
    await deliverAll(m);
    const ids = appended.map((e) => e.id);
    expect(receiver.accepted.map((a) => a.id)).toEqual(ids);
    let previous: string | null = null;
    for (const [i, { body }] of receiver.accepted.entries()) {
      const e = appended[i]!;
      expect(body).toMatchObject({ id: e.id, hash: e.hash, prevHash: e.prevHash });
      // What the receiver checks: the canonical text gives the hash, and the event is that text.
      expect(sha256(`${String(body.prevHash)}${String(body.canonical)}`)).toBe(e.hash);
      expect(body.event).toEqual(JSON.parse(String(body.canonical)));
      expect(body.event).toMatchObject({ id: e.id, action: e.action, target: 'bob@example.com', details: { n: i + 1 } });
      if (previous) expect(body.prevHash).toBe(previous);
      previous = e.hash;
      expect(JSON.stringify(body)).not.toContain(SECRET);
    }
    expect(await rowsOf(m)).toEqual([]);
    const up = await stateOf(m);
    expect(up).toMatchObject({ backlog: 0, failures: 0, nextAttemptAt: null, lastDeliveredEventId: ids.at(-1) });
    const metrics = await m.t.app.metrics.registry.getSingleMetricAsString('portal_siem_deliveries_total');
    expect(metrics).toContain('portal_siem_deliveries_total{stream="webhook"} 3');
  });

  it('keeps the events pending when the receiver refuses the signature (another secret)', async () => {
    const other = await meTestApp({
      ...TIMINGS,
      AUDIT_WEBHOOK_URL: receiver.url,
      AUDIT_WEBHOOK_SECRET: 'not-the-receivers-secret-0123456789abcdef',
      AUDIT_WEBHOOK_CA_FILE: caFile,
    });
    try {
      const otherAudit = testServices(other.t.config, other.t.database).audit;
      const event = await otherAudit.append({
        actor: null,
        target: null,
        action: 'test.siem_wrong_secret',
        outcome: 'success',
        reason: null,
      });
      const refusedBefore = receiver.refused.badSignature;
      const acceptedBefore = receiver.accepted.length;
      const delivery = other.t.app.siem.delivery('webhook')!;
      expect(await delivery.runOnce()).toEqual({ delivered: 0, failed: true });
      await sleep(60);
      expect(await delivery.runOnce()).toEqual({ delivered: 0, failed: true });
      expect(receiver.refused.badSignature - refusedBefore).toBe(2);
      expect(receiver.accepted.length).toBe(acceptedBefore);
      expect(await rowsOf(other)).toMatchObject([
        { audit_event_id: Number(event.id), delivered_at: null, attempts: 2, last_error: 'the receiver answered HTTP 401' },
      ]);
      const state = await stateOf(other);
      expect(state).toMatchObject({ backlog: 1, failures: 2, lastError: 'the receiver answered HTTP 401', lastDeliveredAt: null });
      expect(await other.t.app.metrics.registry.getSingleMetricAsString('portal_siem_failed_attempts_total')).toContain(
        'portal_siem_failed_attempts_total{stream="webhook"} 2',
      );
    } finally {
      await other.close();
    }
  });

  it('is sent by one instance at a time: another waits for the lease, and takes over when it is handed back', async () => {
    // The lease is the subject here, not the transport: a send that fails once on a loaded machine (a
    // kept-alive connection the receiver closed at that moment) is tried again after the short back-off.
    const deliveredWithin3Tries = async (d: { runOnce(): Promise<{ delivered: number }> }) => {
      for (let i = 0; i < 3; i++) {
        const { delivered } = await d.runOnce();
        if (delivered > 0) return delivered;
        await new Promise((r) => setTimeout(r, 150));
      }
      return 0;
    };
    // A second instance on the same database (its own lease owner), configured the same.
    const second = createSiemService({ db: m.t.database.db, config: m.t.config.siem }).delivery('webhook')!;
    const first = m.t.app.siem.delivery('webhook')!;
    await first.runOnce();
    const one = await audit.append({ actor: null, target: null, action: 'test.siem_lease_1', outcome: 'success', reason: null });
    expect(await second.runOnce()).toEqual({ delivered: 0, failed: false });
    expect(receiver.accepted.map((a) => a.id)).not.toContain(one.id);
    expect(await deliveredWithin3Tries(first)).toBe(1);

    // The app stops (shutdown): its lease is handed back, and the other instance carries on.
    await m.t.app.siem.stop();
    const two = await audit.append({ actor: null, target: null, action: 'test.siem_lease_2', outcome: 'success', reason: null });
    expect(await deliveredWithin3Tries(second)).toBe(1);
    expect(receiver.accepted.slice(-2).map((a) => a.id)).toEqual([one.id, two.id]);
    await second.stop();
  });
});
