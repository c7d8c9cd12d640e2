import type { ChainedAuditEvent } from '../audit/audit-chain.js';
import { shownOutcome } from '../audit/shown-outcome.js';

/**
 * Which audit events make one entry of a person's activity: a sign-in (its password and second
 * check), a change (with the confirmation it asked for), a service-desk action (with the identity
 * check before it). The rule looks only at two neighbours in the person's events (the older and the
 * newer), so an entry is found the same way whichever page it falls on: a page always ends where an
 * entry ends.
 */

/** What part of a story an event can be. */
export type Family =
  'sign_in' | 'step_up' | 'change' | 'device_check' | 'helpdesk_check' | 'helpdesk_action' | 'report' | 'session' | 'account' | 'other';

export interface Facet {
  family: Family;
  /** The flow waits for what comes next: a password before its second check, a push sent, a confirmation asked for. */
  open: boolean;
  /** A change refused only because a confirmation (step-up) or an identity check had to come first: not a failure. */
  prompt: boolean;
}

/** Events further apart than this are never one story (the longest wait: a push or a helpdesk call). */
export const JOIN_WINDOW_MS = 15 * 60 * 1000;
/** At most this many events make one entry, so a page reads a bounded number of rows. */
export const MAX_EVENTS_PER_ENTRY = 30;

/** The refusal that asks to confirm removing someone's last device: a question, not a failure. */
export const LAST_DEVICE_QUESTION = 'device.last_device_confirmation_required';

/** A change whose flow goes on with these actions (adding a device in two steps, retrying a code). */
const CONTINUED_BY: Readonly<Record<string, readonly string[]>> = {
  'device.enrol_start': ['device.enrol_confirm'],
  'device.enrol_confirm': ['device.enrol_confirm'],
  'device.add_phone': ['device.activation', 'device.activate_app'],
  'device.activation': ['device.activation', 'device.activate_app'],
  'device.webauthn_register_start': ['device.webauthn_register', 'device.webauthn_register_start'],
  'device.webauthn_register': ['device.webauthn_register', 'device.webauthn_register_start'],
};
/** Of those, the ones that wait for more only when they failed (a retry may follow). */
const OPEN_ONLY_WHEN_FAILED: ReadonlySet<string> = new Set(['device.enrol_confirm', 'device.webauthn_register']);

const PUSH_KIND_FAMILY: Readonly<Record<string, Family>> = {
  sign_in: 'sign_in',
  step_up: 'step_up',
  device_test: 'device_check',
  helpdesk_check: 'helpdesk_check',
};

/** A detail of an event when it is a string. */
export function detailText(e: ChainedAuditEvent, name: string): string | null {
  const v = e.details?.[name];
  return typeof v === 'string' ? v : null;
}

const lower = (s: string | null) => (s ? s.toLowerCase() : null);
const timeOf = (e: ChainedAuditEvent) => new Date(e.occurredAt).getTime();

export function facetOf(e: ChainedAuditEvent): Facet {
  const ok = shownOutcome(e).outcome === 'success';
  const f = (family: Family, open = false, prompt = false): Facet => ({ family, open, prompt });
  const a = e.action;
  switch (a) {
    case 'idp.login.password_ok':
      return f('sign_in', detailText(e, 'next') === 'second_factor');
    case 'idp.login.push_start':
      return f('sign_in', ok);
    case 'mfa.verify': {
      const purpose = detailText(e, 'purpose');
      if (purpose === 'sign_in') return f('sign_in');
      // After a confirmation the change follows; after a wrong code, another try.
      if (purpose === 'step_up') return f('step_up', true);
      if (purpose === 'device_test') return f('device_check');
      if (purpose === 'admin_verify_identity') return f('helpdesk_check');
      return f('other');
    }
    case 'mfa.lockout':
      return f(detailText(e, 'purpose') === 'sign_in' ? 'sign_in' : 'account');
    case 'step_up.push_start':
    case 'step_up.push':
      return f('step_up', true);
    case 'push.approve':
    case 'push.deny': {
      const family = PUSH_KIND_FAMILY[detailText(e, 'kind') ?? ''];
      return family ? f(family, true) : f('change');
    }
    case 'device.test_push_start':
      return f('device_check', ok);
    case 'device.test_push':
      return f('device_check');
    case 'activity.report':
    case 'account.self_lock':
    case 'account.sign_out_everywhere':
      return f('report');
    case 'session.sign_out':
    case 'idp.sign_out':
      return f('session');
    case 'admin.user.verify_identity':
      return f('helpdesk_check', ok);
    case 'admin.user.verify_identity_push':
      return f('helpdesk_check', ok);
  }
  if (a.startsWith('idp.login.')) return f('sign_in');
  if (a.startsWith('admin.')) {
    const prompt = !ok && (e.reason === 'admin.verification_required' || e.reason === LAST_DEVICE_QUESTION);
    return f('helpdesk_action', prompt || (ok && a.startsWith('admin.user.lost_device.')), prompt);
  }
  if (a.startsWith('device.') || a.startsWith('bypass.') || a.startsWith('enrolment_pass.') || a === 'push.report') {
    const prompt = !ok && (e.reason === 'auth.step_up_required' || e.reason === LAST_DEVICE_QUESTION);
    const continued = a in CONTINUED_BY && (OPEN_ONLY_WHEN_FAILED.has(a) ? !ok : ok);
    return f('change', prompt || continued, prompt);
  }
  if (a.startsWith('scim.user.') || a.startsWith('provisioning.')) return f('account');
  return f('other');
}

const isPushAnswer = (e: ChainedAuditEvent) => e.action === 'push.approve' || e.action === 'push.deny';

/** Whether a step-up event let the change through (a right code, an approved push). */
function confirmed(e: ChainedAuditEvent): boolean {
  return shownOutcome(e).outcome === 'success' && e.action !== 'step_up.push_start';
}

/**
 * Whether `newer` continues the story `older` is part of (`older` comes just before `newer` in the
 * person's events).
 */
export function continues(older: ChainedAuditEvent, newer: ChainedAuditEvent): boolean {
  if (older.requestId && older.requestId === newer.requestId) return true;
  if (lower(older.target) !== lower(newer.target)) return false;
  const gap = timeOf(newer) - timeOf(older);
  if (gap < 0 || gap > JOIN_WINDOW_MS) return false;
  const txid = detailText(older, 'txid');
  if (txid && txid === detailText(newer, 'txid')) return true;
  const a = facetOf(older);
  if (!a.open) return false;
  const b = facetOf(newer);
  const sameActor = lower(older.actorUpn) === lower(newer.actorUpn);
  // A push is answered on the person's phone, whoever asked for it.
  const pushAnswer = isPushAnswer(older) || isPushAnswer(newer);
  switch (a.family) {
    case 'sign_in':
      // A new password is a new sign-in; each attempt at the second check after a wrong one is its own story.
      return b.family === 'sign_in' && !newer.action.startsWith('idp.login.password_');
    case 'step_up':
      return (b.family === 'step_up' && (sameActor || pushAnswer)) || (b.family === 'change' && sameActor && confirmed(older));
    case 'change':
      if (a.prompt) return sameActor && (b.family === 'step_up' || (b.family === 'change' && newer.action === older.action));
      return sameActor && b.family === 'change' && (CONTINUED_BY[older.action] ?? []).includes(newer.action);
    case 'device_check':
      return b.family === 'device_check' && (sameActor || pushAnswer);
    case 'helpdesk_check':
      return (b.family === 'helpdesk_check' || b.family === 'helpdesk_action') && (sameActor || pushAnswer);
    case 'helpdesk_action':
      if (a.prompt)
        return sameActor && (b.family === 'helpdesk_check' || (b.family === 'helpdesk_action' && newer.action === older.action));
      return sameActor && b.family === 'helpdesk_action' && newer.action.startsWith('admin.user.lost_device.');
    default:
      return false;
  }
}

/**
 * Groups events, given newest first, into entries (each oldest first), up to a number of entries: an
 * entry is complete once an older event does not continue it. The activity service feeds it a page of
 * the audit log at a time.
 */
export class EntryCollector {
  readonly entries: ChainedAuditEvent[][] = [];
  /** The entry being read, newest first. */
  private current: ChainedAuditEvent[] = [];

  /** Adds the next older event; returns false once `limit` entries are complete and this event starts another. */
  add(e: ChainedAuditEvent, limit: number): boolean {
    const oldest = this.current[this.current.length - 1];
    if (oldest && this.current.length < MAX_EVENTS_PER_ENTRY && continues(e, oldest)) {
      this.current.push(e);
      return true;
    }
    if (oldest) {
      this.entries.push(this.current.reverse());
      if (this.entries.length >= limit) {
        this.current = [];
        return false;
      }
    }
    this.current = [e];
    return true;
  }

  /** No older events: the entry being read is complete. */
  finish(): void {
    if (this.current.length > 0) this.entries.push(this.current.reverse());
    this.current = [];
  }
}
