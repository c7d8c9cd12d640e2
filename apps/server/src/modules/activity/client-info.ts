import { UAParser } from 'ua-parser-js';
import type { ActivityEvent } from '@mfa-portal/shared';
import type { IpLocator } from '../../lib/ip-locations.js';
import type { ChainedAuditEvent } from '../audit/audit-chain.js';

/**
 * Where an activity event came from, in words a member of staff recognises: the address, the browser
 * and operating system (from the recorded User-Agent, ua-parser-js 1.x), the approximate location
 * (IP_LOCATIONS) and, for sign-ins and verifications, the method used.
 */
export type ClientInfo = NonNullable<ActivityEvent['client']>;

function named(name: string | undefined, version: string | undefined): string | null {
  if (!name) return null;
  const major = version?.split('.')[0];
  return major ? `${name} ${major}` : name;
}

export function describeUserAgent(userAgent: string | null | undefined): { browser: string | null; os: string | null } {
  if (!userAgent) return { browser: null, os: null };
  const r = new UAParser(userAgent).getResult();
  return { browser: named(r.browser.name, r.browser.version), os: r.os.name ? [r.os.name, r.os.version].filter(Boolean).join(' ') : null };
}

const METHOD_BY_ACTION: Readonly<Record<string, string>> = {
  'idp.login.password_ok': 'password',
  'idp.login.password_failed': 'password',
};

function methodOf(e: ChainedAuditEvent): string | null {
  const m = e.details?.method;
  if (typeof m === 'string' && m.length <= 40) return m;
  return METHOD_BY_ACTION[e.action] ?? null;
}

export function clientInfoOf(e: ChainedAuditEvent, locate: IpLocator): ClientInfo {
  return { address: e.clientAddress, ...describeUserAgent(e.userAgent), location: locate(e.clientAddress), method: methodOf(e) };
}
