import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import type { AuthenticatorActivation } from '@mfa-portal/shared';
import { formatTime } from '../../../lib/ui/format';
import { isThisAMobileDevice } from '../../../lib/ui/mobile-device';
import { svgDataUrl } from '../routes/AddAuthenticatorPage';

type Copied = 'idle' | 'copied' | 'failed';

/**
 * The activation link twice: as a QR code for the phone's camera and, beside it, as text with a Copy
 * button, for people who cannot scan (the link can be sent to the phone by e-mail or chat). On a phone,
 * first a button that opens it on this phone (in a new tab, so this page goes on watching for it). Whether the
 * copy worked stays written next to the button until another link is shown.
 */
export function ActivationLink({ activation }: { activation: AuthenticatorActivation }) {
  const { t, i18n } = useTranslation('devices');
  const src = useMemo(() => svgDataUrl(activation.qrSvg), [activation.qrSvg]);
  const [copied, setCopied] = useState<Copied>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(activation.activationUrl);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
  // On the phone itself the camera cannot scan its own screen: the link opens the app here, first.
  const onThisPhone = useMemo(() => isThisAMobileDevice() && /^https:\/\//.test(activation.activationUrl), [activation.activationUrl]);
  return (
    <div className="activation">
      {onThisPhone ? (
        <div className="activation__open">
          <p>{t('portal_authenticator.open_body')}</p>
          <a className="button button--primary" href={activation.activationUrl} target="_blank" rel="noopener">
            {t('portal_authenticator.open_here')}
            <span className="visually-hidden"> {t('portal_authenticator.new_tab')}</span>
          </a>
        </div>
      ) : null}
      <img className="enrolment__qr" src={src} alt={t('portal_authenticator.qr_alt')} width={220} height={220} />
      <div className="panel activation__link">
        <h3 className="enrolment__manual-title">{t('portal_authenticator.link_title')}</h3>
        <p>{t('portal_authenticator.link_body')}</p>
        <p className="activation__url">
          <span className="visually-hidden">{t('portal_authenticator.link_label')} </span>
          <code data-testid="activation-url">{activation.activationUrl}</code>
        </p>
        <Button onClick={() => void copy()}>{t('portal_authenticator.copy')}</Button>{' '}
        <span role="status" className="activation__copied">
          {copied === 'copied' ? t('portal_authenticator.copied') : copied === 'failed' ? t('portal_authenticator.copy_failed') : ''}
        </span>
        <p className="form-note">{t('portal_authenticator.expires', { time: formatTime(activation.expiresAt, i18n.resolvedLanguage) })}</p>
      </div>
    </div>
  );
}
