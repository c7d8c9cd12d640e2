import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api/api-error';

/**
 * The text to show for a failure: the translated message of its error code (server codes in the
 * `errors` namespace, the browser's own in `app:errors`), plus when to try again if the server said.
 */
export function useErrorMessage(): (error: unknown) => string {
  const { t, i18n } = useTranslation(['app', 'errors']);
  return useCallback(
    (error: unknown) => {
      if (!isApiError(error)) return t('app:errors.unexpected');
      const key = error.isClientError ? `app:errors.${error.code}` : `errors:${error.code}`;
      const message = i18n.exists(key) ? t(key) : t('app:errors.unexpected');
      const wait = error.details.retryAfterSeconds;
      return typeof wait === 'number' && wait > 0 ? `${message} ${t('app:errors.retry_after', { count: Math.ceil(wait) })}` : message;
    },
    [t, i18n],
  );
}

/** Errors after which only signing in again helps. */
export function needsSignIn(error: unknown): boolean {
  return (
    isApiError(error) && ['client.sign_in_required', 'auth.token_expired', 'auth.token_invalid', 'auth.token_missing'].includes(error.code)
  );
}
