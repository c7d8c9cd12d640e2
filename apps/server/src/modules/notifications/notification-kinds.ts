import type { ChainedAuditEvent } from '../audit/audit-chain.js';

/**
 * Which audit events tell someone by e-mail: a successful change to a user's sign-in
 * security tells that user; a "this wasn't me" report tells the security contact. Failures, reads and
 * checks tell nobody. Only names, counts, times and ticket references are kept for the message: never a
 * code, a pass or a secret (the audit log refuses those already; this keeps a whitelist on top).
 */

export const NOTIFICATION_KINDS = [
  'factor_added',
  'factor_removed',
  'factor_renamed',
  'bypass_codes_issued',
  'enrolment_pass_issued',
  'account_locked',
  'account_unlocked',
  'account_disabled',
  'account_enabled',
  'helpdesk_action',
  'security_report',
  // Enrolment campaigns: queued by the campaign scheduler itself, not by an audit event.
  'campaign_invitation',
  'campaign_reminder',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

const BY_ACTION: Readonly<Record<string, NotificationKind>> = {
  'device.enrol_confirm': 'factor_added',
  'device.claim_token': 'factor_added',
  'device.add_phone': 'factor_added',
  'device.activate_app': 'factor_added',
  'device.webauthn_register': 'factor_added',
  'device.rename': 'factor_renamed',
  'device.delete': 'factor_removed',
  'admin.user.delete_device': 'factor_removed',
  'admin.user.lost_device.remove_device': 'factor_removed',
  'admin.inventory.unassign': 'factor_removed',
  'bypass.create': 'bypass_codes_issued',
  'admin.user.create_bypass_codes': 'bypass_codes_issued',
  'admin.user.lost_device.issue_bypass_code': 'bypass_codes_issued',
  'admin.user.issue_enrolment_pass': 'enrolment_pass_issued',
  'mfa.lockout': 'account_locked',
  'account.self_lock': 'account_locked',
  'admin.user.unlock': 'account_unlocked',
  'admin.user.disable': 'account_disabled',
  'admin.user.enable': 'account_enabled',
  'activity.report': 'security_report',
};

/** Administrative looks and identity checks: not changes to the account, so nobody is mailed. */
const NOT_ACTIONS = new Set(['admin.user.read', 'admin.user.verify_identity', 'admin.user.verify_identity_push', 'admin.users.search']);

export interface PlannedNotification {
  kind: NotificationKind;
  /** The user the message is about (and, unless `toSecurityContact`, its recipient). */
  targetUpn: string;
  toSecurityContact: boolean;
  params: NotificationParams;
}

/** What a message may say; each a short string or a number, never a secret. */
export interface NotificationParams {
  at: string;
  actorUpn: string | null;
  /** Someone other than the user acted (helpdesk or administrator). */
  byOther: boolean;
  ticket?: string;
  reason?: string;
  name?: string;
  serial?: string;
  count?: number;
  action?: string;
  clientAddress?: string;
  /** security_report: the reported event and what the user chose. */
  reportedAction?: string;
  reportedAt?: string;
  reportedAddress?: string;
  signOutEverywhere?: boolean;
  revokeBypassCodes?: boolean;
  lockAccount?: boolean;
  /** campaign_invitation, campaign_reminder: by when, and what counts as done (`device` or `policy`). */
  deadline?: string;
  requirement?: string;
}

const short = (v: unknown, max = 120): string | undefined => (typeof v === 'string' && v.length > 0 ? v.slice(0, max) : undefined);

/** The notification an audit event causes, or null. */
export function planNotification(event: ChainedAuditEvent): PlannedNotification | null {
  if (event.outcome !== 'success' || !event.target) return null;
  const kind =
    BY_ACTION[event.action] ?? (event.action.startsWith('admin.user.') && !NOT_ACTIONS.has(event.action) ? 'helpdesk_action' : null);
  if (!kind) return null;
  const d = event.details ?? {};
  const target = event.target.toLowerCase();
  // A lockout by policy is the portal's doing, whoever typed the wrong codes.
  const actorUpn = event.action === 'mfa.lockout' ? null : event.actorUpn;
  const byOther = actorUpn !== null && actorUpn.toLowerCase() !== target;
  const params: NotificationParams = {
    at: new Date(event.occurredAt).toISOString(),
    actorUpn,
    byOther,
    action: event.action,
  };
  const put = <K extends keyof NotificationParams>(key: K, value: NotificationParams[K] | undefined) => {
    if (value !== undefined) params[key] = value;
  };
  put('ticket', short(d.ticket, 64));
  put('reason', short(d.reason, 200));
  put('name', short(d.deviceName ?? d.name));
  put('serial', short(d.serial, 40));
  put('count', typeof d.count === 'number' ? d.count : undefined);
  put('clientAddress', short(event.clientAddress, 64));
  if (kind === 'security_report') {
    put('reportedAction', short(d.reportedAction));
    put('reportedAt', short(d.reportedAt, 40));
    put('reportedAddress', short(d.reportedAddress, 64));
    params.signOutEverywhere = d.signOutEverywhere === true;
    params.revokeBypassCodes = d.revokeBypass === true;
    params.lockAccount = d.lockAccount === true;
  }
  return { kind, targetUpn: target, toSecurityContact: kind === 'security_report', params };
}
