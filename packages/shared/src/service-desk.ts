import { userTextProblem } from './user-text.js';

/**
 * How staff reach the organisation's service desk (SERVICE_DESK_CONTACT, SERVICE_DESK_LINK): shown
 * wherever the portal tells someone to contact it. The server checks both at start-up; the web
 * application, which reads them from its page, checks the link again before making it clickable.
 */
export interface ServiceDeskContact {
  /** What to show, as written, e.g. "IT Service Desk, +44 20 7946 0000". */
  text: string;
  /** Where the text leads (a phone call, an e-mail or a web page), or null for plain text. */
  link: string | null;
}

export const SERVICE_DESK_CONTACT_MAX_LENGTH = 200;
export const SERVICE_DESK_LINK_MAX_LENGTH = 500;

/** `tel:` then an optional `+` and digits with the visual separators RFC 3966 allows (no spaces). */
const TEL = /^tel:\+?[0-9][0-9().-]{2,31}$/;
/** `mailto:` then one plain address: no second recipient, no subject or body. */
const MAILTO =
  /^mailto:[A-Za-z0-9.!#$%&'*+/=^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** `https://`, a host name (no user name or password), an optional port, then any path, query or fragment. */
const HTTPS = /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?(?:[/?#]\S*)?$/;

/**
 * Why a service-desk link is refused, or null when it may be shown as a link. Only `tel:`, `mailto:`
 * and `https:` are links a person can follow safely: anything else (`javascript:`, `data:`, `http:`,
 * a relative address) is refused, so the setting can never make a page run a script or leave https.
 */
export function serviceDeskLinkProblem(link: string): string | null {
  if (link.length > SERVICE_DESK_LINK_MAX_LENGTH) return `must be at most ${SERVICE_DESK_LINK_MAX_LENGTH} characters`;
  if (/\s/.test(link) || userTextProblem(link) !== null) return 'must not contain spaces or control characters';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link)?.[1]?.toLowerCase();
  if (scheme === 'tel') return TEL.test(link) ? null : 'must be a telephone number such as tel:+442079460000';
  if (scheme === 'mailto') return MAILTO.test(link) ? null : 'must be one e-mail address such as mailto:servicedesk@example.org';
  if (scheme === 'https')
    return HTTPS.test(link) ? null : 'must be an absolute https address without a user name, such as https://servicedesk.example.org/';
  return 'must start with tel:, mailto: or https:';
}

/** Why a service-desk text is refused, or null when it may be shown. */
export function serviceDeskTextProblem(text: string): string | null {
  if (text.trim().length === 0) return 'must not be empty';
  if (text.length > SERVICE_DESK_CONTACT_MAX_LENGTH) return `must be at most ${SERVICE_DESK_CONTACT_MAX_LENGTH} characters`;
  return userTextProblem(text);
}
