import { UAParser } from 'ua-parser-js';

/**
 * Where something came from, in words a member of staff recognises: the browser and operating system
 * from a recorded User-Agent (ua-parser-js 1.x), "Firefox 128" on "Windows 10". The activity shows them
 * beside the address and its approximate location (IP_LOCATIONS); a push names them on the phone.
 */

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
