import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Button, Spin } from 'antd';
import type { AuthenticatorActivation } from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { useInvalidateMe } from '../../../lib/api/use-invalidate-me';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { MAIN_ROUTES } from '../../../lib/main-routes';
import { stepUpOutcome } from '../../../lib/step-up/step-up';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useAuthenticatorAppActivation } from '../api/get-authenticator-app-activation';
import { useStartAuthenticatorAppActivation } from '../api/start-authenticator-app-activation';
import { ActivationLink } from '../components/ActivationLink';
import { NameNewDevice } from '../components/NameNewDevice';
import '../devices.css';

/**
 * A phone with the portal's own authenticator app (push with number matching, and passcodes): the user
 * asks for a single-use activation link (a step-up when they have a device already), opens it on the
 * phone by QR code or as text, and this page learns by itself when the phone used it; then the phone is
 * named. Every state (waiting, connected, expired) stays on screen until the next one.
 */
export function AddPortalAuthenticatorPage() {
  const { t } = useTranslation('devices');
  const start = useStartAuthenticatorAppActivation();
  const { error, cancelled } = stepUpOutcome(start);
  return (
    <Page title={t('portal_authenticator.title')} intro={<p>{t('portal_authenticator.intro')}</p>}>
      {start.data ? (
        <ActivationWatch key={start.data.activationId} activation={start.data} onNewLink={() => start.mutate()} />
      ) : (
        <section className="step" aria-labelledby="portal-authenticator-start">
          <h2 id="portal-authenticator-start">{t('portal_authenticator.start_title')}</h2>
          <p>{t('portal_authenticator.start_body')}</p>
          <Button type="primary" onClick={() => start.mutate()} loading={start.isPending}>
            {start.isPending ? t('portal_authenticator.starting') : t('portal_authenticator.start')}
          </Button>
          {start.isPending ? <Loading label={t('portal_authenticator.starting')} className="visually-hidden" /> : null}
          {cancelled ? <p className="form-note">{t('portal_authenticator.not_confirmed')}</p> : null}
          {error ? <ErrorAlert error={error} title={t('portal_authenticator.start_failed')} /> : null}
        </section>
      )}
    </Page>
  );
}

/** The link on screen while the phone has not used it; then the phone's name, or a new link. */
function ActivationWatch({ activation, onNewLink }: { activation: AuthenticatorActivation; onNewLink: () => void }) {
  const { t } = useTranslation('devices');
  const status = useAuthenticatorAppActivation(activation.activationId);
  const invalidate = useInvalidateMe();
  const { label } = useDeviceLabels();
  // A link the server no longer knows is as good as expired: the way on is a new one.
  const gone =
    isApiError(status.error, 'authenticator.activation_expired') ||
    isApiError(status.error, 'authenticator.activation_invalid') ||
    isApiError(status.error, 'authenticator.activation_used');
  const state = gone ? 'expired' : (status.data?.state ?? 'waiting');
  const device = state === 'activated' ? (status.data?.device ?? null) : null;
  // The phone is a device now: the list and the profile learn of it while the user names it.
  useEffect(() => {
    if (device) void invalidate();
  }, [device, invalidate]);

  return (
    <>
      {state === 'waiting' ? (
        <section className="step" aria-labelledby="portal-authenticator-steps">
          <h2 id="portal-authenticator-steps">{t('portal_authenticator.steps_title')}</h2>
          <ol className="activation-steps">
            <li>{t('portal_authenticator.step_scan')}</li>
            <li>{t('portal_authenticator.step_notifications')}</li>
            <li>{t('portal_authenticator.step_home')}</li>
          </ol>
          <ActivationLink activation={activation} />
        </section>
      ) : null}
      {/* One live region, there from the start, so the wait and its end are both announced. */}
      <div role="status" aria-live="polite" className="step">
        {state === 'waiting' ? (
          <div className="loading">
            <Spin />
            <span className="loading__label">{t('portal_authenticator.waiting')}</span>
          </div>
        ) : null}
        {state === 'activated' ? (
          <div className="success-box">
            <span className="success-box__mark" aria-hidden="true">
              ✓
            </span>
            <div>
              <h2 className="success-box__title">{t('portal_authenticator.activated_title')}</h2>
              <p>
                {device
                  ? t('portal_authenticator.activated_body', { name: label(device) })
                  : t('portal_authenticator.activated_body_unnamed')}
              </p>
            </div>
          </div>
        ) : null}
        {state === 'expired' ? (
          <Alert
            type="warning"
            showIcon
            role="presentation"
            title={t('portal_authenticator.expired_title')}
            description={t('portal_authenticator.expired_body')}
          />
        ) : null}
      </div>
      {state === 'waiting' && status.error ? <ErrorAlert error={status.error} title={t('portal_authenticator.status_failed')} /> : null}
      {device ? <NameNewDevice device={device} /> : null}
      {state === 'activated' && !device ? (
        <Link className="button button--primary" to={MAIN_ROUTES.overview}>
          {t('portal_authenticator.to_devices')}
        </Link>
      ) : null}
      {state === 'expired' ? (
        <Button type="primary" className="after-alert" onClick={onNewLink} autoFocus>
          {t('portal_authenticator.new_link')}
        </Button>
      ) : null}
    </>
  );
}
