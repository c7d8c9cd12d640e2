/**
 * The audit log's action filter in words. Each choice is what the API takes as it is: one action, or
 * a family of them ending in `.*`. Grouped by who acts; the labels are
 * `admin:audit.action_group.<group>` and `admin:audit.action_choice.<key>`. An action recorded by a
 * newer server that is missing here can still be found: through its family, or by its name in the
 * address (`?action=…`), which the filter then shows as it is.
 */
export const AUDIT_ACTION_GROUPS = [
  {
    group: 'sign_in',
    choices: [
      ['sign_in_all', 'idp.*'],
      ['signed_in', 'idp.login.second_factor_ok'],
      ['wrong_code_at_sign_in', 'idp.login.second_factor_failed'],
      ['wrong_password', 'idp.login.password_failed'],
      ['sign_in_refused', 'idp.login.refused'],
      ['code_checked', 'mfa.verify'],
      ['locked_out', 'mfa.lockout'],
      ['push_answers', 'push.*'],
      ['signed_out', 'session.sign_out'],
    ],
  },
  {
    group: 'self_service',
    choices: [
      ['devices_all', 'device.*'],
      ['app_added', 'device.enrol_confirm'],
      ['token_added', 'device.claim_token'],
      ['passkey_added', 'device.webauthn_register'],
      ['device_renamed', 'device.rename'],
      ['device_removed', 'device.delete'],
      ['default_method_set', 'device.set_default'],
      ['bypass_codes', 'bypass.*'],
      ['enrolment_pass_used', 'enrolment_pass.redeem'],
      ['reported', 'activity.report'],
      ['campaign_snoozed', 'campaign.snooze'],
    ],
  },
  {
    group: 'service_desk',
    choices: [
      ['service_desk_all', 'admin.user.*'],
      ['identity_check', 'admin.user.verify_identity'],
      ['verification_push', 'admin.user.verify_identity_push'],
      ['bypass_codes_issued', 'admin.user.create_bypass_codes'],
      ['bypass_codes_revoked', 'admin.user.revoke_bypass_codes'],
      ['device_removed_by_desk', 'admin.user.delete_device'],
      ['token_resynced', 'admin.user.resync_token'],
      ['unlocked', 'admin.user.unlock'],
      ['enrolment_link', 'admin.user.send_activation'],
      ['enrolment_pass_issued', 'admin.user.issue_enrolment_pass'],
      ['lost_device', 'admin.user.lost_device.*'],
      ['account_disabled', 'admin.user.disable'],
      ['account_enabled', 'admin.user.enable'],
      ['signed_out_everywhere', 'admin.user.sign_out_everywhere'],
    ],
  },
  {
    group: 'administration',
    choices: [
      ['administration_all', 'admin.*'],
      ['token_inventory', 'admin.inventory.*'],
      ['passkey_settings', 'admin.webauthn_policy.update'],
      ['factor_policy', 'admin.factor_policy.*'],
      ['campaigns', 'admin.campaign.*'],
      ['campaign_mail', 'campaign.mail'],
      ['provisioning_tokens', 'admin.scim_token.*'],
      ['administration_without_second_factor', 'admin.access'],
    ],
  },
  {
    group: 'provisioning',
    choices: [
      ['directory_all', 'scim.*'],
      ['created_at_first_sign_in', 'provisioning.jit.create'],
    ],
  },
] as const satisfies readonly { group: string; choices: readonly (readonly [string, string])[] }[];

/** Every action (or family) the filter offers. */
export const AUDIT_ACTION_VALUES: readonly string[] = AUDIT_ACTION_GROUPS.flatMap((g) => g.choices.map(([, value]) => value));
