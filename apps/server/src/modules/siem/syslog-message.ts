import { storedCanonicalText, type ChainedAuditEvent } from '../audit/audit-chain.js';

/**
 * One audit event as an RFC 5424 syslog message, framed for TCP by octet counting (RFC 5425 / RFC
 * 6587: `MSG-LEN SP SYSLOG-MSG`, so a message may hold any byte, a newline included).
 *
 * `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [SD] BOM MSG`, where
 * - PRI is the configured facility × 8 + a severity by outcome (notice for a success, warning for a failure);
 * - TIMESTAMP is the event's own time (not the time it was sent), in UTC;
 * - HOSTNAME is the portal's public host name, APP-NAME `mfa-portal`, PROCID `-`, MSGID `audit`;
 * - the structured data element `mfaPortal@<enterprise number>` names the event (id, action, outcome, actor, target,
 *   reason, request id, client address) and carries its chain hashes (`prevHash`, `hash`);
 * - MSG is the event's canonical text, exactly what the chain hashes: `sha256(prevHash + MSG) = hash`, so a
 *   receiver checks each event, and the chain from one message to the next, without the portal.
 *
 * An audit event never holds a secret (its details are refused at append when a key names one), and
 * nothing else goes into the message.
 */

/**
 * The SD-ID: a name `@` a private enterprise number, the organisation's own where it has one (32473,
 * the default, is the one IANA keeps for examples, RFC 5612).
 */
export const sdIdOf = (enterpriseNumber = 32473) => `mfaPortal@${enterpriseNumber}`;
export const SYSLOG_APP_NAME = 'mfa-portal';
export const SYSLOG_MSGID = 'audit';
const SEVERITY = { success: 5, failure: 4 } as const;
const BOM = '\uFEFF';

/** A PARAM-VALUE: `"`, `\` and `]` escaped with a backslash (RFC 5424, section 6.3.3). */
export function sdParamValue(value: string): string {
  return value.replace(/["\\\]]/g, (c) => `\\${c}`);
}

/** HOSTNAME: 1–255 printable US-ASCII characters, else NILVALUE. */
function header(value: string, max: number): string {
  return /^[\x21-\x7e]+$/.test(value) && value.length <= max ? value : '-';
}

export function syslogMessage(event: ChainedAuditEvent, opts: { facility: number; hostname: string; enterpriseNumber?: number }): string {
  const severity = event.outcome === 'success' ? SEVERITY.success : SEVERITY.failure;
  const pri = opts.facility * 8 + severity;
  const timestamp = new Date(event.occurredAt).toISOString();
  const params: [string, string | null][] = [
    ['id', event.id],
    ['action', event.action],
    ['outcome', event.outcome],
    ['actor', event.actorUpn],
    ['target', event.target],
    ['reason', event.reason],
    ['requestId', event.requestId],
    ['clientAddress', event.clientAddress],
    ['prevHash', event.prevHash],
    ['hash', event.hash],
  ];
  const sd = `[${sdIdOf(opts.enterpriseNumber)}${params
    .filter((p): p is [string, string] => p[1] !== null)
    .map(([name, value]) => ` ${name}="${sdParamValue(value)}"`)
    .join('')}]`;
  const head = [`<${pri}>1`, timestamp, header(opts.hostname, 255), SYSLOG_APP_NAME, '-', SYSLOG_MSGID].join(' ');
  return `${head} ${sd} ${BOM}${storedCanonicalText(event)}`;
}

/** Octet-counting framing: the message's length in bytes (UTF-8), a space, the message. */
export function octetCounted(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `, 'ascii'), body]);
}
