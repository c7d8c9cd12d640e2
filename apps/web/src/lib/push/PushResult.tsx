import { useTranslation } from 'react-i18next';
import { Alert } from 'antd';
import type { PushStateName } from '@mfa-portal/shared';
import { Loading } from '../ui/Loading';

/**
 * Where a push stands, in words nobody can misread: waiting (with a spinner announced to screen
 * readers), approved, denied, reported as not you, or no answer in time.
 */
export function PushResult({
  state,
  deviceName,
  timeoutSeconds,
  verificationCode = null,
  portalAuthenticator = false,
}: {
  state: PushStateName;
  deviceName: string;
  timeoutSeconds: number;
  /** Number matching: the number the phone asks for, shown large while the push waits. */
  verificationCode?: string | null;
  /** The push went to the portal's own authenticator app, where the person types the number (not Duo Mobile). */
  portalAuthenticator?: boolean;
}) {
  const { t } = useTranslation('app');
  const minutes = Math.round(timeoutSeconds / 60);
  switch (state) {
    case 'waiting':
      if (verificationCode)
        return (
          <>
            <div className="push-code" role="group" aria-label={t('push.code_group')}>
              <p className="push-code__label">
                {portalAuthenticator
                  ? t('common:push.portal_enter_code', { name: deviceName })
                  : t('push.enter_code', { name: deviceName })}
              </p>
              <p className="push-code__value">{verificationCode}</p>
              <p className="push-code__help">{portalAuthenticator ? t('common:push.portal_enter_code_help') : t('push.enter_code_help')}</p>
            </div>
            <Loading label={t('push.waiting_code')} className="push-waiting" />
          </>
        );
      return (
        <Loading
          label={portalAuthenticator ? t('common:push.portal_waiting', { name: deviceName }) : t('push.waiting', { name: deviceName })}
          className="push-waiting"
        />
      );
    case 'approved':
      return (
        <div role="status" className="success-box">
          <span className="success-box__mark" aria-hidden="true">
            ✓
          </span>
          <div>
            <p className="success-box__title">{t('push.approved_title')}</p>
            <p>{t('push.approved_body', { name: deviceName })}</p>
          </div>
        </div>
      );
    case 'denied':
      return <Alert type="error" showIcon role="alert" title={t('push.denied_title')} description={t('push.denied_body')} />;
    case 'fraud':
      return <Alert type="error" showIcon role="alert" title={t('push.fraud_title')} description={t('push.fraud_body')} />;
    case 'timeout':
      return (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('push.timeout_title')}
          description={t('push.timeout_body', { count: minutes })}
        />
      );
  }
}
