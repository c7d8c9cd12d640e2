import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Spin } from 'antd';
import { PUSH_TIMEOUT_SECONDS, type Device } from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { isPortalAuthenticator, useDeviceLabels } from '../../../lib/devices/device-labels';
import { usePushEvents } from '../../../lib/push/use-push-events';
import { formatTime } from '../../../lib/ui/format';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { useVerifyPush } from '../api/get-verify-push';
import { adminKeys } from '../api/query-keys';
import { useStartVerifyPush } from '../api/start-verify-push';
import { AdminErrorAlert } from './AdminErrorAlert';

/** The user's phones that can receive a push (Duo Mobile or the portal's own authenticator app activated on them). */
export const pushPhones = (devices: readonly Device[]) => devices.filter((d) => d.capabilities.includes('push'));

/**
 * "Send a verification push": a push goes to the phone the administrator picks. With Duo Mobile the phone
 * shows a confirmation code, which the caller reads back before approving; with the portal's own app the
 * administrator reads the number to the caller, who types it in the app. Either way the push proves
 * that the person on the line holds that phone. The code is shown large here; the push is then polled, with progress,
 * until approved (the caller counts as verified, as with a right passcode), denied, reported as fraud
 * or unanswered in time, each said plainly. Only rendered when the MFA service can send pushes.
 */
export function VerifyPushPanel({
  upn,
  phones,
  formName,
  deviceHelp,
  onVerified,
  prepare,
  showSuccess = true,
}: {
  upn: string;
  phones: readonly Device[];
  formName: string;
  /** Help under the phone list (the lost-device wizard warns against the lost phone). */
  deviceHelp?: string;
  onVerified?: (deviceId: string) => void;
  /** Runs before a push is sent: the call's ticket to record with it, or null to send nothing. */
  prepare?: () => Promise<{ ticket?: string } | null>;
  /** Say an approval here (false where the page says it once, in its own summary). */
  showSuccess?: boolean;
}) {
  const { t, i18n } = useTranslation('admin');
  const [form] = Form.useForm<{ deviceId: string }>();
  const start = useStartVerifyPush(upn);
  const push = useVerifyPush(upn, start.data);
  const state = start.data ? (push.data?.state ?? 'waiting') : null;
  // A poll that failed (its error is shown) leaves the push unsettled: another one may be sent.
  const waiting = start.isPending || (state === 'waiting' && !push.error);
  const { label } = useDeviceLabels();
  const sentTo = phones.find((d) => d.id === start.data?.deviceId);
  const phoneName = sentTo ? label(sentTo) : t('verify.a_device');
  // The portal's app answers through the server, which tells this page at once (polling stays as the fallback).
  const inApp = sentTo !== undefined && isPortalAuthenticator(sentTo);
  usePushEvents(start.data?.txid, adminKeys.verifyPush(upn, start.data?.txid ?? ''), inApp && state === 'waiting');
  const allInApp = phones.every(isPortalAuthenticator);
  const codeId = `${formName}-code-label`;
  const minutes = Math.round(PUSH_TIMEOUT_SECONDS / 60);

  const reported = useRef<string | null>(null);
  useEffect(() => {
    const data = push.data;
    if (data?.state === 'approved' && data.verified && reported.current !== data.txid) {
      reported.current = data.txid;
      onVerified?.(data.deviceId);
    }
  }, [push.data, onVerified]);

  const send = async ({ deviceId }: { deviceId: string }) => {
    if (waiting) return;
    const call = prepare ? await prepare() : {};
    if (call) start.mutate({ deviceId, ...(call.ticket ? { ticket: call.ticket } : {}) });
  };

  return (
    <>
      <p>{allInApp ? t('verify.push_intro_app') : t('verify.push_intro')}</p>
      <Form
        name={formName}
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ deviceId: phones[0]!.id }}
        onFinish={(values) => void send(values)}
        className="narrow-form"
      >
        <Form.Item
          name="deviceId"
          label={t('verify.push_device_label')}
          extra={deviceHelp ?? (allInApp ? t('verify.push_device_help_app') : t('verify.push_device_help'))}
        >
          <NativeSelect
            disabled={waiting}
            options={phones.map((d) => ({ value: d.id, label: d.phoneNumber ? `${label(d)} (${d.phoneNumber})` : label(d) }))}
          />
        </Form.Item>
        {/* Not `disabled` while waiting: the focus stays on the button (antd ignores clicks while loading). */}
        <Button htmlType="submit" loading={waiting}>
          {start.isPending
            ? t('verify.push_sending')
            : waiting
              ? t('verify.push_waiting_button')
              : state
                ? t('verify.push_again')
                : t('verify.push_send')}
        </Button>
      </Form>
      {/* One live region, there from the start, so the code, the wait and the answer are all announced. */}
      <div role="status" aria-live="polite" className="verify-result">
        {start.data && waiting ? (
          <>
            <div className="push-code" role="group" aria-labelledby={codeId}>
              <p id={codeId} className="push-code__label">
                {inApp ? t('verify.push_app_code_label') : t('verify.push_code_label')}
              </p>
              <p className="push-code__value">{start.data.confirmationCode}</p>
              <p className="push-code__help">
                {inApp ? t('verify.push_app_code_help', { name: sentTo.name }) : t('verify.push_code_help', { name: phoneName })}
              </p>
            </div>
            <div className="loading push-waiting">
              <Spin />
              <span className="loading__label">{t('verify.push_waiting', { name: phoneName, count: minutes })}</span>
            </div>
          </>
        ) : null}
        {push.data && state === 'approved' && showSuccess ? (
          <div className="success-box">
            <span className="success-box__mark" aria-hidden="true">
              ✓
            </span>
            <div>
              <p className="success-box__title">{t('verify.success_title')}</p>
              <p>
                {t('verify.push_approved_body', {
                  device: phoneName,
                  time: formatTime(push.data.completedAt ?? push.data.startedAt, i18n.resolvedLanguage),
                })}
              </p>
            </div>
          </div>
        ) : null}
        {state === 'denied' ? (
          <Alert
            type="error"
            showIcon
            title={t('verify.push_denied_title')}
            description={t('verify.push_denied_body', { name: phoneName })}
          />
        ) : null}
        {state === 'fraud' ? (
          <Alert
            type="error"
            showIcon
            title={t('verify.push_fraud_title')}
            description={t('verify.push_fraud_body', { name: phoneName })}
          />
        ) : null}
        {state === 'timeout' ? (
          <Alert
            type="warning"
            showIcon
            title={t('verify.push_timeout_title')}
            description={t('verify.push_timeout_body', { count: minutes })}
          />
        ) : null}
      </div>
      {start.error ? (
        isApiError(start.error, 'device.verification_unsupported') ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={t('verify.push_failed')}
            description={t('verify.push_unsupported')}
            className="after-form"
          />
        ) : (
          <AdminErrorAlert error={start.error} title={t('verify.push_failed')} className="after-form" />
        )
      ) : null}
      {push.error ? <AdminErrorAlert error={push.error} title={t('verify.push_status_failed')} className="after-form" /> : null}
    </>
  );
}
