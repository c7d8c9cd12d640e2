import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api/api-error';
import { useErrorMessage } from '../../../lib/ui/error-message';

/** Why the policy refused (the `reason` of a 403 `auth.forbidden`, and of an action not allowed). */
export const DENY_REASONS = [
  'not_an_administrator',
  'solution_administrator_only',
  'own_account_via_admin',
  'protected_account',
  'protection_unknown',
  'protected_self_service',
] as const;
export type DenyReason = (typeof DENY_REASONS)[number];

export const isDenyReason = (value: unknown): value is DenyReason => (DENY_REASONS as readonly unknown[]).includes(value);

/** The policy's reason of a refusal, when the error is one. */
export function denyReasonOf(error: unknown): DenyReason | null {
  if (!isApiError(error, 'auth.forbidden')) return null;
  const reason = error.details.reason;
  return isDenyReason(reason) ? reason : null;
}

/**
 * Messages for the administration screens: a refusal says why (the policy's reason, e.g. "protected
 * account"; the person's factor policy, in its words), anything else is the usual translated message of its error code.
 */
export function useAdminErrorMessage(): (error: unknown) => string {
  const { t } = useTranslation('admin');
  const message = useErrorMessage();
  return useCallback(
    (error: unknown) => {
      const reason = denyReasonOf(error);
      if (reason) return t(`deny.${reason}`);
      // The person's factor policy: its own words name the policy and what it allows (the shared message speaks to the person).
      if (isApiError(error) && error.code.startsWith('factor_policy.') && typeof error.details.reason === 'string')
        return t('factor_policy_refused', { reason: error.details.reason });
      return message(error);
    },
    [t, message],
  );
}
