import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, type ApiError } from '../api/api-error';

/**
 * The text to show for a failure: the translated message of its error code (server codes in the
 * `errors` namespace, the browser's own in `app:errors`), plus when to try again if the server said.
 */
export function useErrorMessage(): (error: unknown) => string {
  const { t, i18n } = useTranslation(['app', 'errors']);
  return useCallback(
    (error: unknown) => {
      if (!isApiError(error)) return t('app:errors.unexpected');
      const key = messageKeyOf(error);
      const message = i18n.exists(key) ? t(key) : t('app:errors.unexpected');
      const wait = error.details.retryAfterSeconds;
      return typeof wait === 'number' && wait > 0 ? `${message} ${t('app:errors.retry_after', { count: Math.ceil(wait) })}` : message;
    },
    [t, i18n],
  );
}

/** Where the message of an API or client error is translated. */
const messageKeyOf = (error: ApiError) => (error.isClientError ? `app:errors.${error.code}` : `errors:${error.code}`);

/** Errors after which only signing in again helps. */
export function needsSignIn(error: unknown): boolean {
  return (
    isApiError(error) && ['client.sign_in_required', 'auth.token_expired', 'auth.token_invalid', 'auth.token_missing'].includes(error.code)
  );
}

/**
 * Failures whose message tells the person to contact the service desk (the server's codes in the
 * `errors` namespace, the browser's own, and anything unexpected): the alert then says how, when the
 * organisation configured it. A test keeps this list and the messages in step.
 */
export const SERVICE_DESK_ERROR_CODES: ReadonlySet<string> = new Set([
  'auth.scope_missing',
  'mfa.provider_rejected',
  'mfa.provider_limit_reached',
  'mfa.phone_in_use',
  'mfa.user_not_provisioned',
  'mfa.user_disabled',
  'mfa.user_locked_out',
  'token.not_available',
  'webauthn.counter_regressed',
  'server.internal',
  'server.unavailable',
  'enrolment.pass_required',
  'client.unexpected_response',
]);

/**
 * Whether the message shown for `error` sends the person to the service desk: one of those codes, or
 * anything shown as "something unexpected went wrong" (no message of its own). `hasMessage` is i18next's `exists`.
 */
export function sendsToServiceDesk(error: unknown, hasMessage: (key: string) => boolean): boolean {
  if (!isApiError(error) || !hasMessage(messageKeyOf(error))) return true;
  return SERVICE_DESK_ERROR_CODES.has(error.code);
}
