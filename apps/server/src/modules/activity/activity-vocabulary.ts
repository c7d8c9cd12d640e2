import { ADMIN_MANUAL_VERIFICATION_METHODS, type ActivityMethod, type ActivityStory } from '@mfa-portal/shared';
import type { ChainedAuditEvent } from '../audit/audit-chain.js';
import { detailText } from './activity-grouping.js';

/**
 * The words of the activity's closed lists for what the audit log records: the story of each action
 * and how someone proved who they were. An action missing here is still told, safely ("other").
 */

const STORY_BY_ACTION: Readonly<Record<string, ActivityStory>> = {
  'device.enrol_start': 'app_added',
  'device.enrol_confirm': 'app_added',
  'device.claim_token': 'token_added',
  'device.add_phone': 'phone_added',
  'device.webauthn_register_start': 'passkey_added',
  'device.webauthn_register': 'passkey_added',
  'device.activate_app': 'app_activated',
  'device.activation': 'activation_link',
  'device.app_push_subscription': 'app_notifications',
  'device.rename': 'device_renamed',
  'device.delete': 'device_removed',
  'device.set_default': 'default_method_set',
  'device.resync': 'token_resynced',
  'device.test_push_start': 'device_checked',
  'device.test_push': 'device_checked',
  'bypass.create': 'bypass_created',
  'bypass.revoke': 'bypass_revoked',
  'bypass.revoke_all': 'bypass_revoked_all',
  'enrolment_pass.redeem': 'enrolment_pass_used',
  'push.approve': 'push_approved',
  'push.deny': 'push_denied',
  'push.report': 'push_reported',
  'campaign.snooze': 'campaign_snoozed',
  'activity.report': 'reported',
  'account.sign_out_everywhere': 'signed_out_everywhere',
  'account.self_lock': 'account_locked_by_you',
  'session.sign_out': 'signed_out',
  'idp.sign_out': 'signed_out',
  'admin.user.verify_identity': 'identity_checked',
  'admin.user.verify_identity_push': 'identity_checked',
  'admin.user.create_bypass_codes': 'helpdesk_bypass_created',
  'admin.user.revoke_bypass_codes': 'helpdesk_bypass_revoked',
  'admin.user.delete_device': 'helpdesk_device_removed',
  'admin.user.resync_token': 'helpdesk_token_resynced',
  'admin.inventory.unassign': 'helpdesk_token_unassigned',
  'admin.user.unlock': 'helpdesk_unlocked',
  'admin.user.send_activation': 'helpdesk_activation_sent',
  'admin.user.lost_device.remove_device': 'helpdesk_lost_device',
  'admin.user.lost_device.issue_bypass_code': 'helpdesk_lost_device',
  'admin.user.disable': 'helpdesk_disabled',
  'admin.user.enable': 'helpdesk_enabled',
  'admin.user.sign_out_everywhere': 'helpdesk_signed_out_everywhere',
  'admin.user.issue_enrolment_pass': 'helpdesk_enrolment_pass_issued',
  'admin.user.revoke_enrolment_pass': 'helpdesk_enrolment_pass_revoked',
  'mfa.lockout': 'account_locked',
  'scim.user.create': 'account_created',
  'provisioning.jit.create': 'account_created',
  'scim.user.update': 'account_updated',
  'scim.user.replace': 'account_updated',
  'scim.user.adopted': 'account_updated',
  'scim.user.deactivate': 'account_disabled',
  'scim.user.reactivate': 'account_enabled',
  'scim.user.delete': 'account_removed',
};

/** The story of one action, with a safe fallback for actions this version has no words for. */
export function storyOfAction(action: string): ActivityStory {
  return STORY_BY_ACTION[action] ?? (action.startsWith('admin.') ? 'helpdesk_other' : 'other');
}

const MANUAL: ReadonlySet<string> = new Set(ADMIN_MANUAL_VERIFICATION_METHODS);
const METHOD_WORDS: Readonly<Record<string, ActivityMethod>> = {
  password: 'password',
  totp: 'authenticator_app',
  hotp: 'hardware_token',
  passcode: 'code',
  bypass: 'bypass_code',
  push: 'push',
  webauthn: 'passkey',
};

export function methodOf(e: ChainedAuditEvent): ActivityMethod | null {
  const m = detailText(e, 'method');
  if (m && MANUAL.has(m)) return m as ActivityMethod;
  if (m) return METHOD_WORDS[m] ?? null;
  if (e.action === 'step_up.push' || e.action === 'device.test_push') return 'push';
  return null;
}

export function countOf(e: ChainedAuditEvent): number | null {
  const n = e.details?.count ?? e.details?.bypassCount;
  return typeof n === 'number' && Number.isInteger(n) ? n : null;
}
