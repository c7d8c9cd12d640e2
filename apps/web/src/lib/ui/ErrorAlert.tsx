import { useTranslation } from 'react-i18next';
import { Alert, Button } from 'antd';
import { useMsal } from '@azure/msal-react';
import { ServiceDeskContact } from '../../shell/components/ServiceDeskContact';
import { useSettings } from '../../shell/contexts';
import { isApiError } from '../api/api-error';
import { needsSignIn, sendsToServiceDesk, useErrorMessage } from './error-message';

export interface ErrorAlertProps {
  error: unknown;
  /** Heading of the alert; defaults to "That did not work". */
  title?: string;
  /** Offer "Try again" (e.g. refetch a list). */
  onRetry?: () => void;
  /** The text to show instead of the error code's translation (e.g. a more precise reason). */
  message?: string;
  className?: string;
}

/**
 * A failure in plain words: the translated message for its error code, announced to screen readers
 * (role="alert"), with "Try again" or "Sign in again" when that is what helps.
 */
export function ErrorAlert({ error, title, onRetry, message: text, className }: ErrorAlertProps) {
  const { t, i18n } = useTranslation('app');
  const message = useErrorMessage();
  const { instance } = useMsal();
  const { apiInfo } = useSettings();
  const signIn = needsSignIn(error);
  const retry = onRetry && !signIn && !(isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 429);
  const signInAgain = () => {
    const account = instance.getActiveAccount() ?? instance.getAllAccounts()[0];
    void instance
      .acquireTokenRedirect({ scopes: [apiInfo.scope], ...(account ? { account } : {}) })
      .catch((e: unknown) => console.error('Sign-in could not start.', e));
  };
  return (
    <Alert
      className={className}
      type="error"
      showIcon
      role="alert"
      title={title ?? t('errors.title')}
      description={
        <>
          {text ?? message(error)}
          {text === undefined && sendsToServiceDesk(error, (key) => i18n.exists(key)) ? (
            <ServiceDeskContact className="error-alert__contact" />
          ) : null}
        </>
      }
      action={
        signIn ? (
          <Button onClick={signInAgain}>{t('common:actions.sign_in_again')}</Button>
        ) : retry ? (
          <Button onClick={onRetry}>{t('common:actions.try_again')}</Button>
        ) : undefined
      }
    />
  );
}
