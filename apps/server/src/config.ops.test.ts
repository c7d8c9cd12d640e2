import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { configProblems } from '../test/support/config-problems.js';

/** The settings of running as a service: defaults and refusals, each named. */

describe('loadConfig: running as a service', () => {
  it('defaults: metrics off, x-request-id, 10 s grace, bounded database waits', () => {
    const c = loadConfig({});
    expect(c.metrics).toEqual({ token: null, port: null, host: '127.0.0.1' });
    expect(c.requestIdHeader).toBe('x-request-id');
    expect(c.shutdownGraceSeconds).toBe(10);
    expect(c.databaseTimeouts).toEqual({ connectMs: 3000, queryMs: 10000, readinessMs: 1000 });
  });

  it('reads the metrics token and port, the request-id header (lower-cased) and the grace period', () => {
    const c = loadConfig({
      METRICS_TOKEN: 'a'.repeat(32),
      METRICS_PORT: '9100',
      METRICS_HOST: '0.0.0.0',
      REQUEST_ID_HEADER: 'X-Correlation-Id',
      SHUTDOWN_GRACE_SECONDS: '25',
    });
    expect(c.metrics).toEqual({ token: 'a'.repeat(32), port: 9100, host: '0.0.0.0' });
    expect(c.requestIdHeader).toBe('x-correlation-id');
    expect(c.shutdownGraceSeconds).toBe(25);
  });

  it('refuses bad values, naming each variable and never echoing the token', () => {
    const p = configProblems({
      METRICS_TOKEN: 'short secret',
      METRICS_PORT: '8443',
      REQUEST_ID_HEADER: 'x request id',
      SHUTDOWN_GRACE_SECONDS: '0',
      DATABASE_CONNECT_TIMEOUT_MS: 'soon',
      DATABASE_QUERY_TIMEOUT_MS: '5',
    });
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^METRICS_TOKEN: must be 16 to 256 printable characters .*\(got "\*\*\*"\)$/),
        expect.stringMatching(/^REQUEST_ID_HEADER: must be an HTTP header name/),
        expect.stringMatching(/^SHUTDOWN_GRACE_SECONDS: must be between 1 and 600/),
        expect.stringMatching(/^DATABASE_CONNECT_TIMEOUT_MS: must be a number/),
        expect.stringMatching(/^DATABASE_QUERY_TIMEOUT_MS: must be between 100 and 600000/),
      ]),
    );
    expect(p.join('\n')).not.toContain('short secret');
    expect(configProblems({ METRICS_PORT: '8443' })).toEqual([expect.stringMatching(/^METRICS_PORT: must differ from PORT/)]);
    expect(configProblems({ METRICS_HOST: '0.0.0.0' })).toEqual([expect.stringMatching(/^METRICS_HOST: is only used with METRICS_PORT/)]);
  });

  it('asks for MFA_SECRETS_KEY in production on PostgreSQL (instances would not share a generated key file)', () => {
    const base = { NODE_ENV: 'production', ALLOW_EMBEDDED_IDP_IN_PRODUCTION: 'true', DATABASE_URL: 'postgres://db/portal' };
    expect(configProblems(base)).toEqual([
      expect.stringMatching(/^MFA_SECRETS_KEY: is required when NODE_ENV=production with DATABASE_URL/),
    ]);
    expect(configProblems({ ...base, MFA_SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') })).toEqual([]);
    // One instance on PGlite keeps its generated key file.
    expect(configProblems({ NODE_ENV: 'production', ALLOW_EMBEDDED_IDP_IN_PRODUCTION: 'true' })).toEqual([]);
  });
});

describe('loadConfig: the syslog stream’s enterprise number', () => {
  const syslog = { AUDIT_SYSLOG_URL: 'tls://siem.example.org:6514' };

  it('is IANA’s example number unless the organisation gives its own', () => {
    expect(loadConfig(syslog).siem.syslog?.enterpriseNumber).toBe(32473);
    expect(loadConfig({ ...syslog, AUDIT_SYSLOG_ENTERPRISE_NUMBER: '55555' }).siem.syslog?.enterpriseNumber).toBe(55555);
  });

  it('refuses what is not a positive whole number, naming the variable', () => {
    for (const bad of ['0', '-3', '12.5', 'acme', '4294967296'])
      expect(configProblems({ ...syslog, AUDIT_SYSLOG_ENTERPRISE_NUMBER: bad }).join('\n')).toMatch(/AUDIT_SYSLOG_ENTERPRISE_NUMBER/);
  });
});
