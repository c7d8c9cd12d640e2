import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../config.js';
import { chainHash, GENESIS_HASH, type ChainedAuditEvent } from '../audit/audit-chain.js';
import { backoffDelay, safeError } from './siem-delivery.js';
import { octetCounted, sdParamValue, syslogMessage } from './syslog-message.js';
import { webhookBody, webhookSignature } from './webhook.js';

/** What goes on the wire to a SIEM, and the configuration that switches each stream on. */

function chained(over: Partial<ChainedAuditEvent> = {}): ChainedAuditEvent {
  const event = {
    id: '42',
    occurredAt: new Date('2026-05-02T10:00:00.123Z'),
    actorUpn: 'helpdesk@example.com',
    actorRoles: ['Helpdesk Administrator'],
    target: 'bob@example.com',
    action: 'admin.user.remove_device',
    outcome: 'success',
    reason: null,
    requestId: 'req-1',
    clientAddress: '192.0.2.10',
    details: { ticket: 'INC-1', name: 'Café "phone"' },
    userAgent: null,
    ...over,
  };
  return { ...event, prevHash: GENESIS_HASH, hash: chainHash(GENESIS_HASH, event) };
}

describe('RFC 5424 syslog messages', () => {
  it('escapes ", \\ and ] in a PARAM-VALUE and nothing else', () => {
    expect(sdParamValue('a"b\\c]d[e=f g')).toBe('a\\"b\\\\c\\]d[e=f g');
  });

  it('carry PRI, header, the structured data with the hashes, and the canonical event as MSG', () => {
    const e = chained();
    const text = syslogMessage(e, { facility: 10, hostname: 'mfa.example.org' });
    const [head, msg] = text.split('\uFEFF');
    expect(head).toBe(
      `<85>1 2026-05-02T10:00:00.123Z mfa.example.org mfa-portal - audit [mfaPortal@32473 id="42" action="admin.user.remove_device" outcome="success" actor="helpdesk@example.com" target="bob@example.com" requestId="req-1" clientAddress="192.0.2.10" prevHash="${GENESIS_HASH}" hash="${e.hash}"] `,
    );
    expect(chainHash(GENESIS_HASH, JSON.parse(msg!) as ChainedAuditEvent)).toBe(e.hash);
  });

  it('take the severity from the outcome and the facility from the configuration', () => {
    expect(syslogMessage(chained({ outcome: 'failure', reason: 'x"y' }), { facility: 16, hostname: 'h' })).toMatch(
      /^<132>1 .* reason="x\\"y" /,
    );
  });

  it('name the structured data with the organisation’s own enterprise number where it has one', () => {
    expect(syslogMessage(chained(), { facility: 10, hostname: 'h', enterpriseNumber: 55555 })).toMatch(/ audit \[mfaPortal@55555 id="42" /);
  });

  it('are framed by their length in bytes', () => {
    const framed = octetCounted('<85>1 é');
    // 6 ASCII bytes and é in 2.
    expect(framed.toString('utf8')).toBe('8 <85>1 é');
  });
});

describe('the signed webhook', () => {
  it('signs timestamp.body with HMAC-SHA256 (the same as openssl dgst -sha256 -hmac)', () => {
    expect(webhookSignature('a-secret-of-at-least-32-characters!!', 1700000000, '{"id":"1"}')).toBe(
      'sha256=45b96f89403ef4fc0677eaebae817ba040cb1b900c317649b3398dfd9a4dc32c',
    );
  });

  it('carries the event, its hashes and the exact text they are taken over', () => {
    const e = chained();
    const body = JSON.parse(webhookBody(e)) as { id: string; hash: string; prevHash: string; canonical: string; event: unknown };
    expect(body).toMatchObject({ id: '42', hash: e.hash, prevHash: GENESIS_HASH });
    expect(body.event).toEqual(JSON.parse(body.canonical));
    expect(body.event).toMatchObject({ details: { name: 'Café "phone"' } });
  });
});

describe('delivery', () => {
  it('backs off exponentially up to the cap', () => {
    expect([1, 2, 3, 4, 10, 1000].map((n) => backoffDelay(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000, 5000, 5000]);
  });

  it('never stores a secret or a URL user name in an error', () => {
    const err = Object.assign(new Error('failed https://user:pw@host/hook?key=abc with s3cret'), { code: 'EFAIL' });
    expect(safeError(err, ['s3cret', 'https://user:pw@host/hook?key=abc'])).toBe('EFAIL: failed *** with ***');
    expect(safeError(new Error('to smtp://u:p@h'))).toBe('to smtp://***@h');
  });
});

describe('configuration of audit to a SIEM', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ NODE_ENV: 'test', ...env });
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('is off unless a URL is set', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).siem).toMatchObject({ syslog: null, webhook: null });
  });

  it('reads a syslog receiver over TLS, port 6514 unless given', () => {
    const c = loadConfig({ NODE_ENV: 'test', AUDIT_SYSLOG_URL: 'tls://siem.example.org', AUDIT_SYSLOG_FACILITY: 'local3' });
    expect(c.siem.syslog).toMatchObject({ host: 'siem.example.org', port: 6514, facility: 19, hostname: 'localhost', caFile: null });
    expect(loadConfig({ NODE_ENV: 'test', AUDIT_SYSLOG_URL: 'tls://[::1]:1514' }).siem.syslog).toMatchObject({ host: '::1', port: 1514 });
  });

  it('refuses syslog without TLS, a webhook without https or its secret, and files that are not there', () => {
    expect(problems({ AUDIT_SYSLOG_URL: 'tcp://siem.example.org:514' })[0]).toMatch(/^AUDIT_SYSLOG_URL: must be tls:\/\/host:port/);
    expect(problems({ AUDIT_WEBHOOK_URL: 'http://siem.example.org/hook', AUDIT_WEBHOOK_SECRET: 'x'.repeat(32) })[0]).toMatch(
      /^AUDIT_WEBHOOK_URL: must be an https:\/\/ URL/,
    );
    expect(problems({ AUDIT_WEBHOOK_URL: 'http://127.0.0.1:8080/hook', AUDIT_WEBHOOK_SECRET: 'x'.repeat(32) })).toEqual([]);
    expect(problems({ AUDIT_WEBHOOK_URL: 'https://siem.example.org/hook' })).toEqual([
      'AUDIT_WEBHOOK_SECRET: is required with AUDIT_WEBHOOK_URL (the receiver checks the signature with it)',
    ]);
    expect(problems({ AUDIT_WEBHOOK_URL: 'https://siem.example.org/hook', AUDIT_WEBHOOK_SECRET: 'short' })).toEqual([
      'AUDIT_WEBHOOK_SECRET: must be 32 to 512 printable characters without spaces (openssl rand -hex 32) (got "***")',
    ]);
    expect(problems({ AUDIT_SYSLOG_URL: 'tls://h:1', AUDIT_SYSLOG_CERT_FILE: '/nowhere/cert.pem' })).toEqual([
      'AUDIT_SYSLOG_KEY_FILE: is required with AUDIT_SYSLOG_CERT_FILE (set both, or neither)',
      'AUDIT_SYSLOG_CERT_FILE: names no readable file (got "/nowhere/cert.pem")',
    ]);
    const aFile = fileURLToPath(import.meta.url);
    expect(problems({ AUDIT_SYSLOG_CA_FILE: aFile })).toEqual([
      `AUDIT_SYSLOG_CA_FILE: is only used with AUDIT_SYSLOG_URL (got "${aFile}")`,
    ]);
    expect(problems({ AUDIT_STREAM_RETRY_MIN_MS: '5000', AUDIT_STREAM_RETRY_MAX_MS: '1000' })).toEqual([
      'AUDIT_STREAM_RETRY_MAX_MS: must not be less than AUDIT_STREAM_RETRY_MIN_MS (got "1000")',
    ]);
  });

  it('never echoes the webhook URL back in an error (it may hold a key)', () => {
    const [problem] = problems({ AUDIT_WEBHOOK_URL: 'ftp://user:key@siem.example.org/hook', AUDIT_WEBHOOK_SECRET: 'x'.repeat(32) });
    expect(problem).toMatch(/^AUDIT_WEBHOOK_URL: .*\(got "\*\*\*"\)$/);
  });
});
