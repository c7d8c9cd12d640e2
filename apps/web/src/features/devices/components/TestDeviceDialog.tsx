import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Form, Input, Modal } from 'antd';
import { PUSH_TIMEOUT_SECONDS, type Device } from '@mfa-portal/shared';
import { pushKeys } from '../../../lib/api/query-keys';
import { useCapabilities } from '../../../lib/capabilities/get-capabilities';
import { isPortalAuthenticator, useDeviceLabels } from '../../../lib/devices/device-labels';
import { PushResult } from '../../../lib/push/PushResult';
import { usePushEvents } from '../../../lib/push/use-push-events';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { focusMarkedElement, useFocusReturn } from '../../../lib/ui/dialog-focus';
import { formatTime } from '../../../lib/ui/format';
import { normaliseOtp, OTP_INPUT_PROPS, otpRules } from '../../../lib/ui/otp';
import { useTestPush } from '../api/get-test-push';
import { useStartTestPush } from '../api/start-test-push';
import { useTestDevice } from '../../../lib/devices/api/test-device';

/**
 * Whether the organisation's MFA service can push to this device (a phone activated for push). Asks the
 * service only when `needed` (e.g. the dialog is open) and the device takes pushes.
 */
export function useCanPush(device: Device, needed: boolean): boolean {
  const takesPush = device.capabilities.includes('push');
  const capabilities = useCapabilities({ enabled: needed && takesPush });
  return takesPush && capabilities.data?.push === true;
}

/**
 * A test push the user stopped waiting for (they closed the dialog): it is still watched, and its
 * outcome, whenever it comes, is told in an Ant Design notification (shown for 4.5 s, the portal's notification
 * time, set once in AntdProvider), since the user is looking elsewhere by then.
 */
function usePushOutcomeNotice(deviceName: string, state: string | null, onTold: () => void) {
  const { t } = useTranslation('devices');
  const { notification } = App.useApp();
  const [watching, setWatching] = useState(false);
  useEffect(() => {
    if (!watching || state === null || state === 'waiting') return;
    const approved = state === 'approved';
    notification.open({
      type: approved ? 'success' : 'warning',
      title: t('test.push_notice.title', { name: deviceName }),
      description: t(`test.push_notice.${state}`, { name: deviceName }),
      role: approved ? 'status' : 'alert',
    });
    setWatching(false);
    onTold();
  }, [watching, state, deviceName, notification, t, onTold]);
  const watchInBackground = useCallback(() => setWatching(true), []);
  const stopWatching = useCallback(() => setWatching(false), []);
  return { watchInBackground, stopWatching };
}

/**
 * "Check it works": the user types a passcode from the device and hears at once whether it was right
 * (a clear success result, or the translated reason it was refused). A phone that takes pushes (when
 * the MFA service can send them) can be checked with a push instead: sent, waited for with progress,
 * then approved, denied, reported or timed out, said plainly.
 */
export function TestDeviceDialog({ device, open, onClose }: { device: Device; open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation('devices');
  const [form] = Form.useForm<{ code: string }>();
  const test = useTestDevice();
  const canPush = useCanPush(device, open);
  const canPasscode = device.capabilities.includes('passcode');
  const startPush = useStartTestPush();
  const push = useTestPush(device.id, startPush.data);
  const pushState = startPush.data ? (push.data?.state ?? 'waiting') : null;
  const inApp = isPortalAuthenticator(device);
  const name = useDeviceLabels().label(device);
  // The portal's app answers through the server, which says so at once: no need to wait for the next poll.
  usePushEvents(startPush.data?.txid, pushKeys.test(device.id, startPush.data?.txid ?? ''), inApp && pushState === 'waiting');
  // Field ids are `<form name>_<field>`: unique on the page, even with another form open behind.
  const formId = 'test-device';
  const closeButton = useRef<HTMLButtonElement>(null);
  // The form goes away on success: keep the focus in the dialog, on its Close button.
  useEffect(() => {
    if (test.isSuccess) closeButton.current?.focus();
  }, [test.isSuccess]);
  const close = () => {
    test.reset();
    // A push still waiting for an answer is watched on; its outcome comes as a notification.
    if (pushState === 'waiting' && startPush.data) watchInBackground();
    else startPush.reset();
    onClose();
  };
  const again = () => {
    test.reset();
    form.resetFields();
  };
  const submit = ({ code }: { code: string }) => test.mutate({ deviceId: device.id, code: normaliseOtp(code) });
  const sendPush = () => startPush.mutate(device.id);
  const pushWaiting = startPush.isPending || pushState === 'waiting';
  const { watchInBackground, stopWatching } = usePushOutcomeNotice(name, pushState, startPush.reset);
  // Reopened while a push is still watched: the dialog shows it again.
  useEffect(() => {
    if (open) stopWatching();
  }, [open, stopWatching]);

  const focusReturn = useFocusReturn(open);
  return (
    <Modal
      open={open}
      {...focusReturn}
      afterOpenChange={focusMarkedElement}
      title={t('test.title', { name })}
      onCancel={close}
      destroyOnHidden
      footer={
        test.isSuccess
          ? [
              <Button key="again" onClick={again}>
                {t('test.again')}
              </Button>,
              <Button key="close" type="primary" onClick={close} ref={closeButton}>
                {t('actions.close')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {pushState && pushState !== 'waiting' ? t('actions.close') : t('actions.cancel')}
              </Button>,
              ...(canPasscode
                ? [
                    <Button key="submit" type="primary" htmlType="submit" form={formId} loading={test.isPending}>
                      {test.isPending ? t('test.checking') : t('test.submit')}
                    </Button>,
                  ]
                : []),
            ]
      }
    >
      {test.isSuccess ? (
        <div role="status" className="success-box">
          <span className="success-box__mark" aria-hidden="true">
            ✓
          </span>
          <div>
            <p className="success-box__title">{t('test.success_title')}</p>
            <p>{t('test.success_body', { name, time: formatTime(test.data.verifiedAt, i18n.resolvedLanguage) })}</p>
          </div>
        </div>
      ) : (
        <>
          {canPush ? (
            <section className="test-push" aria-labelledby="test-push-title">
              <h3 id="test-push-title" className="test-push__title">
                {t('test.push_title')}
              </h3>
              <p>{t('test.push_intro', { name })}</p>
              <Button onClick={sendPush} loading={pushWaiting} disabled={pushWaiting} data-autofocus={canPasscode ? undefined : true}>
                {startPush.isPending
                  ? t('test.push_sending')
                  : pushState && pushState !== 'waiting'
                    ? t('test.push_again')
                    : t('test.push_send')}
              </Button>
              <div className="after-form">
                {pushState ? (
                  <PushResult
                    state={pushState}
                    deviceName={device.name}
                    timeoutSeconds={PUSH_TIMEOUT_SECONDS}
                    verificationCode={startPush.data?.verificationCode}
                    portalAuthenticator={inApp}
                  />
                ) : null}
                {startPush.error ? <ErrorAlert error={startPush.error} title={t('test.push_failed')} /> : null}
                {push.error ? <ErrorAlert error={push.error} title={t('test.push_failed')} /> : null}
              </div>
            </section>
          ) : null}
          {canPasscode ? (
            <>
              {canPush ? <h3 className="test-push__title">{t('test.passcode_title')}</h3> : null}
              <p>{t('test.intro', { name })}</p>
              <Form name={formId} form={form} layout="vertical" onFinish={submit} requiredMark={false}>
                <Form.Item name="code" label={t('test.code_label')} rules={otpRules(t)}>
                  <Input {...OTP_INPUT_PROPS} autoFocus data-autofocus />
                </Form.Item>
              </Form>
              {test.error ? <ErrorAlert error={test.error} title={t('test.failure_title')} /> : null}
            </>
          ) : null}
        </>
      )}
    </Modal>
  );
}
