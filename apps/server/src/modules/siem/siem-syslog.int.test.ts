import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditStreamsStatusSchema } from '@mfa-portal/shared';
import { ADMIN, BOB, callAs } from '../../../test/admin-api.js';
import { testServices } from '../../../test/app.js';
import { meTestApp, type MeTestApp } from '../../../test/me-api.js';
import { findRsyslogd, localhostCertificate, startRsyslog, type ReceivedSyslog, type Rsyslog } from '../../../test/siem-receivers.js';
import type { AuditService } from '../audit/audit.service.js';
import { syslogTransport } from './syslog-transport.js';

/**
 * Audit to a SIEM over RFC 5424 syslog with TLS, against a real rsyslog (imtcp with the GnuTLS
 * driver, octet-counted framing) that this file starts on a loopback port with its own configuration:
 * what rsyslog parsed of each message (PRI, header, structured data with the chain hashes, the
 * canonical event as MSG), the order, the receiver down and back (held, then sent in order, none
 * lost), and TLS failures (an authority the portal does not trust, a host name the certificate does not
 * name): nothing marked delivered, the error recorded and shown in the state and the metrics.
 *
 * Without rsyslogd the file is skipped, saying why, except in CI (CI set), where it fails.
 */

const rsyslogd = findRsyslogd();
const TIMINGS = { AUDIT_STREAM_POLL_MS: '60000', AUDIT_STREAM_RETRY_MIN_MS: '50', AUDIT_STREAM_RETRY_MAX_MS: '100' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

if (!rsyslogd.path && process.env.CI) {
  describe('audit to a SIEM over syslog', () => {
    it('needs rsyslogd with its TLS driver in CI (.ci/run installs them)', () => {
      throw new Error(rsyslogd.reason ?? 'rsyslogd is missing');
    });
  });
}

/**
 * The SD-PARAMs of the portal's element, parsed here independently of the portal and as strictly as RFC
 * 5424 says: inside a PARAM-VALUE, `"`, `\` and `]` appear only escaped with `\`.
 */
function sdParams(sd: string): Record<string, string> {
  const value = String.raw`(?:[^"\\\]]|\\["\\\]])*`;
  const element = new RegExp(String.raw`^\[mfaPortal@32473((?: [^=\s\]"]+="${value}")*)\]$`).exec(sd);
  if (!element) throw new Error(`not the portal's structured data: ${sd}`);
  const params: Record<string, string> = {};
  for (const m of element[1]!.matchAll(new RegExp(String.raw` ([^=\s\]"]+)="(${value})"`, 'g')))
    params[m[1]!] = m[2]!.replace(/\\(["\\\]])/g, '$1');
  return params;
}

describe.skipIf(!rsyslogd.path)(
  `audit to a SIEM: RFC 5424 syslog over TLS to a real rsyslog${rsyslogd.path ? '' : ` (skipped: ${rsyslogd.reason})`}`,
  () => {
    let dir: string;
    let rsyslog: Rsyslog;
    let m: MeTestApp;
    let audit: AuditService;
    let caFile: string;

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-portal-siem-'));
      const certificate = await localhostCertificate();
      rsyslog = await startRsyslog(rsyslogd.path!, path.join(dir, 'rsyslog'), certificate);
      caFile = path.join(dir, 'receiver-ca.pem');
      fs.writeFileSync(caFile, certificate.cert);
      m = await meTestApp({
        ...TIMINGS,
        AUDIT_SYSLOG_URL: `tls://localhost:${rsyslog.port}`,
        AUDIT_SYSLOG_CA_FILE: caFile,
        MFA_VERIFY_LIMIT_PER_USER: '1000',
        MFA_VERIFY_LIMIT_PER_ADDRESS: '10000',
      });
      // The same composition as the app's (a command-line tool appends this way), on the same database.
      audit = testServices(m.t.config, m.t.database).audit;
    });
    afterAll(async () => {
      await m?.close();
      await rsyslog?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    const delivery = () => m.t.app.siem.delivery('syslog')!;
    const pendingCount = async () =>
      Number(
        (
          await m.db
            .selectFrom('siem_outbox')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('stream', '=', 'syslog')
            .where('delivered_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    /**
     * rsyslog writes its file from an action queue of its own: the connection's close (delivered) says it
     * has read the messages, not that they are in the file yet.
     */
    async function writtenAtLeast(count: number) {
      await expect.poll(() => rsyslog.received().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
      return rsyslog.received();
    }
    /** Passes until nothing waits (each failure waits out its short back-off first). */
    async function deliverAll() {
      for (let i = 0; i < 400; i++) {
        await delivery().runOnce();
        if ((await pendingCount()) === 0) return;
        await sleep(20);
      }
      throw new Error('the syslog stream did not empty');
    }
    const eventsAfter = (id: number) => m.db.selectFrom('audit_event').selectAll().where('id', '>', id).orderBy('id').execute();
    const lastEventId = async () =>
      Number(
        (
          await m.db
            .selectFrom('audit_event')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirstOrThrow()
        ).id ?? 0,
      );
    const state = async () => {
      const res = await callAs(m, ADMIN, 'GET', '/api/admin/reports/audit-streams');
      expect(res.statusCode, res.body).toBe(200);
      return auditStreamsStatusSchema.parse(res.json()).streams.find((s) => s.stream === 'syslog')!;
    };
    const metric = async (name: string) => (await m.t.app.metrics.registry.getSingleMetricAsString(name)).split('\n');
    /** Every message received checks out on its own (its hash) and against the one before (the chain). */
    function expectChained(received: ReceivedSyslog[]) {
      let previous: string | null = null;
      for (const r of received) {
        const p = sdParams(r.sd);
        const msg = r.msg.replace(/^\uFEFF/, '');
        expect(sha256(p.prevHash! + msg), `hash of event ${p.id}`).toBe(p.hash);
        if (previous) expect(p.prevHash, `event ${p.id} follows the one before`).toBe(previous);
        previous = p.hash!;
      }
    }

    it('sends each audit event as RFC 5424, with the chain hashes in its structured data, in order', async () => {
      const before = await lastEventId();
      // Through the API: a wrong passcode at step-up is audited as a failure.
      const refused = await m.call(BOB.upn, 'POST', '/step-up', { method: 'passcode', code: '000000' });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      // Characters the structured data must escape, and text beyond ASCII.
      await audit.append({
        actor: { upn: 'ops"\\]@example.com', roles: ['Solution Administrator'] },
        target: 'bob@example.com',
        action: 'test.siem_syslog',
        outcome: 'success',
        reason: null,
        details: { note: 'a "quoted" ] value \\ with é and a\nnewline' },
      });
      const events = await eventsAfter(before);
      expect(events.length).toBeGreaterThanOrEqual(2);
      expect(await pendingCount()).toBe(events.length);

      await deliverAll();
      const received = await writtenAtLeast(events.length);
      expect(received.map((r) => sdParams(r.sd).id)).toEqual(events.map((e) => String(e.id)));
      for (const [i, r] of received.entries()) {
        const e = events[i]!;
        const p = sdParams(r.sd);
        // authpriv (10) × 8 + notice (5) for a success, warning (4) for a failure.
        expect(r.pri).toBe(e.outcome === 'success' ? '85' : '84');
        expect([r.version, r.hostname, r.app, r.procid, r.msgid]).toEqual(['1', 'localhost', 'mfa-portal', '-', 'audit']);
        expect(r.timestamp).toBe(e.occurred_at.toISOString());
        expect(p).toMatchObject({ action: e.action, outcome: e.outcome, hash: e.hash, prevHash: e.prev_hash });
        expect(p.actor ?? null).toBe(e.actor_upn);
        expect(p.target ?? null).toBe(e.target_upn);
        expect(r.msg.startsWith('\uFEFF')).toBe(true);
        expect(JSON.parse(r.msg.slice(1))).toMatchObject({ id: String(e.id), action: e.action, outcome: e.outcome });
      }
      expect(received.some((r) => r.pri === '84')).toBe(true);
      const crafted = received.at(-1)!;
      expect(sdParams(crafted.sd).actor).toBe('ops"\\]@example.com');
      expect(JSON.parse(crafted.msg.slice(1))).toMatchObject({ details: { note: 'a "quoted" ] value \\ with é and a\nnewline' } });
      expectChained(received);
      // Delivered rows stay (AUDIT_STREAM_KEEP_DELIVERED_HOURS, 24 by default), marked.
      const rows = await m.db.selectFrom('siem_outbox').selectAll().where('stream', '=', 'syslog').execute();
      expect(rows.every((r) => r.delivered_at !== null)).toBe(true);
      expect(await state()).toMatchObject({ enabled: true, destination: `localhost:${rsyslog.port}`, backlog: 0, failures: 0 });
    });

    it('holds the events while the receiver is down, and sends them in order, none lost, once it is back', async () => {
      // Counted once rsyslog has stopped: it writes what it has read before it exits.
      await rsyslog.stop();
      const sentBefore = rsyslog.received().length;
      const before = await lastEventId();
      for (const n of [1, 2, 3])
        await audit.append({
          actor: null,
          target: null,
          action: `test.siem_outage_${n}`,
          outcome: 'success',
          reason: null,
          details: { n },
        });
      const first = await delivery().runOnce();
      expect(first).toEqual({ delivered: 0, failed: true });

      const down = await state();
      expect(down).toMatchObject({ enabled: true, backlog: 3, failures: 1 });
      expect(down.lastError).toMatch(/ECONNREFUSED/);
      expect(down.nextAttemptAt).not.toBeNull();
      expect(down.oldestPendingAt).not.toBeNull();
      expect(await metric('portal_siem_failed_attempts_total')).toContain('portal_siem_failed_attempts_total{stream="syslog"} 1');
      expect(await metric('portal_siem_pending_events')).toContain('portal_siem_pending_events{stream="syslog"} 3');
      // Still down: every attempt fails, nothing is marked delivered.
      await sleep(60);
      await delivery().runOnce();
      expect(await pendingCount()).toBe(3);

      await rsyslog.start();
      await deliverAll();
      const expected = (await eventsAfter(before)).map((e) => String(e.id));
      const received = await writtenAtLeast(sentBefore + expected.length);
      expect(received.slice(sentBefore).map((r) => sdParams(r.sd).id)).toEqual(expected);
      expectChained(received);
      const up = await state();
      expect(up).toMatchObject({ backlog: 0, failures: 0, nextAttemptAt: null, lastDeliveredEventId: expected.at(-1) });
      // The error stays on record, with its time, after delivery resumed.
      expect(up.lastError).toMatch(/ECONNREFUSED/);
      expect(Date.parse(up.lastDeliveredAt!)).toBeGreaterThanOrEqual(Date.parse(up.lastErrorAt!));
      expect(await metric('portal_siem_pending_events')).toContain('portal_siem_pending_events{stream="syslog"} 0');
      expect((await metric('portal_siem_deliveries_total')).join('\n')).toMatch(/portal_siem_deliveries_total\{stream="syslog"\} [1-9]/);
    });

    it('sends nothing to a receiver whose certificate it does not trust, and says why', async () => {
      const untrusted = path.join(dir, 'another-ca.pem');
      fs.writeFileSync(untrusted, (await localhostCertificate()).cert);
      const other = await meTestApp({ ...TIMINGS, AUDIT_SYSLOG_URL: `tls://localhost:${rsyslog.port}`, AUDIT_SYSLOG_CA_FILE: untrusted });
      try {
        const otherAudit = testServices(other.t.config, other.t.database).audit;
        const event = await otherAudit.append({
          actor: null,
          target: null,
          action: 'test.siem_untrusted',
          outcome: 'success',
          reason: null,
        });
        const countBefore = rsyslog.received().length;
        expect(await other.t.app.siem.delivery('syslog')!.runOnce()).toEqual({ delivered: 0, failed: true });

        const rows = await other.db.selectFrom('siem_outbox').selectAll().where('stream', '=', 'syslog').execute();
        expect(rows.find((r) => String(r.audit_event_id) === event.id)).toMatchObject({ delivered_at: null, attempts: 1 });
        const res = await callAs(other, ADMIN, 'GET', '/api/admin/reports/audit-streams');
        const syslog = auditStreamsStatusSchema.parse(res.json()).streams.find((s) => s.stream === 'syslog')!;
        expect(syslog).toMatchObject({ enabled: true, backlog: 1, failures: 1, lastDeliveredAt: null });
        expect(syslog.lastError).toMatch(/certificate/i);
        expect(await other.t.app.metrics.registry.getSingleMetricAsString('portal_siem_failed_attempts_total')).toContain(
          'portal_siem_failed_attempts_total{stream="syslog"} 1',
        );
        await sleep(50);
        expect(rsyslog.received().length).toBe(countBefore);
        expect(rsyslog.received().some((r) => r.sd.includes(event.hash))).toBe(false);
      } finally {
        await other.close();
      }
    });

    it('checks that the certificate names the host it connects to', async () => {
      // The receiver's certificate names localhost only; connecting by address must fail.
      const send = syslogTransport(
        {
          host: '127.0.0.1',
          port: rsyslog.port,
          caFile,
          certFile: null,
          keyFile: null,
          facility: 10,
          enterpriseNumber: 32473,
          hostname: 'localhost',
        },
        { timeoutMs: 5000 },
      );
      const countBefore = rsyslog.received().length;
      await expect(send(['<85>1 - - - - - - not to be delivered'], new AbortController().signal)).rejects.toMatchObject({
        code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      });
      await sleep(50);
      expect(rsyslog.received().length).toBe(countBefore);
    });
  },
);
