import fs from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { int } from './config-env.fields.js';

/**
 * The variables of audit to a SIEM, part of the environment schema (config-env.ts): each stream (RFC
 * 5424 syslog over TLS, a webhook signed with HMAC-SHA256) is on when its URL is set, and the timings
 * of delivery that both share.
 */

export const SYSLOG_FACILITIES = {
  auth: 4,
  authpriv: 10,
  local0: 16,
  local1: 17,
  local2: 18,
  local3: 19,
  local4: 20,
  local5: 21,
  local6: 22,
  local7: 23,
} as const;

/** `tls://host:port`: only syslog over TLS is offered (plain TCP or UDP would send the trail in clear). */
const syslogUrl = z
  .string()
  .trim()
  .refine((v) => parseSyslogUrl(v) !== null, 'must be tls://host:port, e.g. tls://siem.example.org:6514 (syslog over TLS)');

/** https://, or http:// to this machine only (a collector beside the portal). */
const webhookUrl = z
  .string()
  .trim()
  .refine((v) => {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      return false;
    }
    if (url.username || url.password) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
  }, 'must be an https:// URL without user name or password (http:// only to 127.0.0.1, ::1 or localhost)');

export const siemEnvFields = {
  AUDIT_SYSLOG_URL: syslogUrl.optional(),
  AUDIT_SYSLOG_CA_FILE: z.string().min(1).optional(),
  AUDIT_SYSLOG_CERT_FILE: z.string().min(1).optional(),
  AUDIT_SYSLOG_KEY_FILE: z.string().min(1).optional(),
  AUDIT_SYSLOG_FACILITY: z
    .enum(Object.keys(SYSLOG_FACILITIES) as [keyof typeof SYSLOG_FACILITIES, ...(keyof typeof SYSLOG_FACILITIES)[]], {
      message: 'must be auth, authpriv or local0 … local7',
    })
    .default('authpriv'),
  // The private enterprise number of the structured data's name (mfaPortal@N): the organisation's own,
  // from IANA, where its SIEM keys parsing on it; 32473 is the number IANA keeps for examples.
  AUDIT_SYSLOG_ENTERPRISE_NUMBER: int(1, 4_294_967_295, 32473),
  AUDIT_WEBHOOK_URL: webhookUrl.optional(),
  AUDIT_WEBHOOK_SECRET: z
    .string()
    .regex(/^[\x21-\x7e]{32,512}$/, 'must be 32 to 512 printable characters without spaces (openssl rand -hex 32)')
    .optional(),
  AUDIT_WEBHOOK_CA_FILE: z.string().min(1).optional(),
  AUDIT_STREAM_POLL_MS: int(50, 60_000, 1000),
  AUDIT_STREAM_RETRY_MIN_MS: int(50, 600_000, 1000),
  AUDIT_STREAM_RETRY_MAX_MS: int(50, 3_600_000, 300_000),
  AUDIT_STREAM_KEEP_DELIVERED_HOURS: int(0, 8760, 24),
};

type SiemEnv = z.output<z.ZodObject<typeof siemEnvFields>>;

export function checkSiemEnv(env: SiemEnv, addIssue: (path: string, message: string) => void): void {
  const onlyWith = (key: keyof SiemEnv, main: 'AUDIT_SYSLOG_URL' | 'AUDIT_WEBHOOK_URL') => {
    if (env[key] !== undefined && env[main] === undefined) addIssue(key, `is only used with ${main}`);
  };
  for (const key of ['AUDIT_SYSLOG_CA_FILE', 'AUDIT_SYSLOG_CERT_FILE', 'AUDIT_SYSLOG_KEY_FILE'] as const) onlyWith(key, 'AUDIT_SYSLOG_URL');
  onlyWith('AUDIT_WEBHOOK_CA_FILE', 'AUDIT_WEBHOOK_URL');
  onlyWith('AUDIT_WEBHOOK_SECRET', 'AUDIT_WEBHOOK_URL');
  if (env.AUDIT_WEBHOOK_URL !== undefined && env.AUDIT_WEBHOOK_SECRET === undefined)
    addIssue('AUDIT_WEBHOOK_SECRET', 'is required with AUDIT_WEBHOOK_URL (the receiver checks the signature with it)');
  if (env.AUDIT_SYSLOG_CERT_FILE !== undefined && env.AUDIT_SYSLOG_KEY_FILE === undefined)
    addIssue('AUDIT_SYSLOG_KEY_FILE', 'is required with AUDIT_SYSLOG_CERT_FILE (set both, or neither)');
  if (env.AUDIT_SYSLOG_KEY_FILE !== undefined && env.AUDIT_SYSLOG_CERT_FILE === undefined)
    addIssue('AUDIT_SYSLOG_CERT_FILE', 'is required with AUDIT_SYSLOG_KEY_FILE (set both, or neither)');
  for (const key of ['AUDIT_SYSLOG_CA_FILE', 'AUDIT_SYSLOG_CERT_FILE', 'AUDIT_SYSLOG_KEY_FILE', 'AUDIT_WEBHOOK_CA_FILE'] as const) {
    const file = env[key];
    if (file !== undefined && !fs.existsSync(file)) addIssue(key, 'names no readable file');
  }
  if (env.AUDIT_STREAM_RETRY_MAX_MS < env.AUDIT_STREAM_RETRY_MIN_MS)
    addIssue('AUDIT_STREAM_RETRY_MAX_MS', 'must not be less than AUDIT_STREAM_RETRY_MIN_MS');
}

/** Host and port of a `tls://host[:port]` URL (port 6514 by default, RFC 5425); null when it is not one. */
export function parseSyslogUrl(value: string): { host: string; port: number } | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'tls:' || !url.hostname || url.username || url.password) return null;
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash) return null;
  const port = url.port ? Number(url.port) : 6514;
  // An IPv6 literal comes back in brackets.
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}
