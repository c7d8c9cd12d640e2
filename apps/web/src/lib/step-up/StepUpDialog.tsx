import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form, Input, Modal, Radio } from 'antd';
import { PUSH_TIMEOUT_SECONDS, type FactorKind, type StepUpMethod } from '@mfa-portal/shared';
import { hasMfaData, useMfaData } from '../../shell/contexts';
import { ServiceDeskContact } from '../../shell/components/ServiceDeskContact';
import { pushKeys } from '../api/query-keys';
import { useCapabilities } from '../capabilities/get-capabilities';
import { useDefaultMethod } from '../devices/api/default-method';
import { useFactorPolicy } from '../devices/api/get-factor-policy';
import { isPortalAuthenticator, useDeviceLabels } from '../devices/device-labels';
import { PushResult } from '../push/PushResult';
import { usePushEvents } from '../push/use-push-events';
import { ErrorAlert } from '../ui/ErrorAlert';
import { NativeSelect } from '../ui/NativeSelect';
import { focusMarkedElement } from '../ui/dialog-focus';
import { useStepUpPush } from './api/get-step-up-push';
import { useStartStepUpPush } from './api/start-step-up-push';
import { useVerifyStepUp } from './api/verify-step-up';
import { useWebauthnStepUp } from './api/verify-webauthn-step-up';

type Method = StepUpMethod | 'push' | 'webauthn';

interface StepUpForm {
  method: Method;
  code: string;
  deviceId: string;
}

/** Digits only (people type bypass codes with spaces or dashes as printed). */
const digitsOf = (value: string) => value.replace(/[\s-]/g, '');

/**
 * "Confirm it's you": a passcode from a device (authenticator app or hardware token) or a bypass code,
 * checked by POST /api/me/step-up; or, when the MFA service sends pushes and the user has a phone that
 * takes them, a push approved on that phone (POST /api/me/step-up/push, then polled). Opened by
 * useWithStepUp when the API asks for it.
 */
export function StepUpDialog({
  open,
  onVerified,
  onCancel,
  afterClose,
}: {
  open: boolean;
  onVerified: () => void;
  onCancel: () => void;
  afterClose?: () => void;
}) {
  const { t } = useTranslation('step-up');
  const [form] = Form.useForm<StepUpForm>();
  const verify = useVerifyStepUp();
  const { mfaData } = useMfaData();
  // Field ids are `<form name>_<field>`: unique on the page, even with another form open behind.
  const formId = 'step-up';
  const [method, setMethod] = useState<Method>('passcode');
  // The organisation's factor policy: only what the person may use is offered (the server refuses the rest).
  const policy = useFactorPolicy({ enabled: open }).data;
  const mayUse = (kinds: readonly FactorKind[]) => !policy || kinds.some((k) => policy.use.includes(k));
  const devices = hasMfaData(mfaData) ? mfaData.devices.filter((d) => !policy?.disallowedDevices.includes(d.id)) : [];
  const hasDevices = devices.length > 0;
  const hasBypass = hasMfaData(mfaData) && mfaData.bypassCodes.active > 0 && mayUse(['bypass_codes']);
  const offersPasscode = mayUse(['portal_authenticator', 'phone', 'authenticator_app', 'hardware_token']);
  const offersBypass = mayUse(['bypass_codes']);
  const hasPushPhone = devices.some((d) => d.capabilities.includes('push'));
  const hasPasskey = devices.some((d) => d.capabilities.includes('webauthn'));
  const capabilities = useCapabilities({ enabled: open && (hasPushPhone || hasPasskey) });
  // A passkey or security key the portal itself checks (with Duo, they are used in Duo's prompt).
  const canPasskey = hasPasskey && capabilities.data?.webauthn === true;
  const webauthn = useWebauthnStepUp();
  const resetWebauthn = webauthn.reset;
  const pushPhones = capabilities.data?.push === true ? devices.filter((d) => d.capabilities.includes('push')) : [];
  const offered: Method[] = [
    ...(offersPasscode ? (['passcode'] as const) : []),
    ...(offersBypass ? (['bypass'] as const) : []),
    ...(canPasskey ? (['webauthn'] as const) : []),
    ...(pushPhones.length > 0 ? (['push'] as const) : []),
  ];
  const firstOffered = offered[0];
  const offeredKey = offered.join(' ');
  // The default sign-in method the person chose is where the dialog starts, when it is offered here.
  const chosen = useDefaultMethod({ enabled: open && hasDevices }).data;
  const preferred = chosen?.source === 'chosen' ? chosen.current : null;
  const preferredMethod: Method | null =
    preferred && offered.includes(preferred.method) && (preferred.method !== 'push' || pushPhones.some((d) => d.id === preferred.deviceId))
      ? preferred.method
      : null;
  const startedOnPreferred = useRef(false);
  const startPush = useStartStepUpPush();
  const push = useStepUpPush(startPush.data);
  const pushState = startPush.data ? (push.data?.state ?? 'waiting') : null;
  const pushWaiting = startPush.isPending || pushState === 'waiting';
  const pushPhone = pushPhones.find((d) => d.id === startPush.variables) ?? pushPhones[0];
  const labels = useDeviceLabels();
  const inApp = pushPhone !== undefined && isPortalAuthenticator(pushPhone);
  // The portal's app answers through the server, which tells this page at once (polling stays as the fallback).
  usePushEvents(startPush.data?.txid, pushKeys.stepUp(startPush.data?.txid ?? ''), open && inApp && pushState === 'waiting');
  const { reset } = verify;
  const resetPush = startPush.reset;

  useEffect(() => {
    if (!open) {
      // Closed (cancelled or verified): stop polling a push nobody waits for any more.
      resetPush();
      return;
    }
    form.resetFields();
    setMethod('passcode');
    startedOnPreferred.current = false;
    reset();
    resetPush();
    resetWebauthn();
  }, [open, form, reset, resetPush, resetWebauthn]);

  // Once per opening, as soon as it is known (a change the person makes afterwards stands).
  useEffect(() => {
    if (!open || !preferredMethod || startedOnPreferred.current) return;
    startedOnPreferred.current = true;
    setMethod(preferredMethod);
    form.setFieldValue('method', preferredMethod);
    if (preferredMethod === 'push' && preferred) form.setFieldValue('deviceId', preferred.deviceId);
  }, [open, preferredMethod, preferred, form]);

  // The policy arrived after the dialog opened: a way it does not offer is not left chosen.
  useEffect(() => {
    if (open && firstOffered && !offeredKey.split(' ').includes(method)) {
      setMethod(firstOffered);
      form.setFieldValue('method', firstOffered);
    }
  }, [open, firstOffered, offeredKey, method, form]);

  // An approved push gave the step-up: the action goes on.
  const approved = push.data?.state === 'approved' && push.data.stepUp.active;
  useEffect(() => {
    if (open && approved) onVerified();
  }, [open, approved, onVerified]);

  const submit = (values: StepUpForm) => {
    if (values.method === 'webauthn') {
      webauthn.mutate(undefined, { onSuccess: onVerified });
      return;
    }
    if (values.method === 'push') {
      const deviceId = values.deviceId || pushPhones[0]?.id;
      if (deviceId) startPush.mutate(deviceId);
      return;
    }
    verify.mutate({ method: values.method, code: digitsOf(values.code) }, { onSuccess: onVerified });
  };

  return (
    <Modal
      open={open}
      afterOpenChange={focusMarkedElement}
      // The action goes on after the check (new codes take the focus): the provider returns it only if lost.
      focusable={{ focusTriggerAfterClose: false }}
      afterClose={afterClose}
      title={t('title')}
      onCancel={onCancel}
      destroyOnHidden
      mask={{ closable: false }}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {t('cancel')}
        </Button>,
        method === 'webauthn' ? (
          <Button key="submit" type="primary" htmlType="submit" form={formId} loading={webauthn.isPending}>
            {webauthn.isPending ? t('webauthn.waiting') : t('webauthn.submit')}
          </Button>
        ) : method === 'push' ? (
          <Button key="submit" type="primary" htmlType="submit" form={formId} loading={pushWaiting} disabled={pushWaiting}>
            {startPush.isPending ? t('push.sending') : pushState && pushState !== 'waiting' ? t('push.again') : t('push.send')}
          </Button>
        ) : (
          <Button key="submit" type="primary" htmlType="submit" form={formId} loading={verify.isPending}>
            {verify.isPending ? t('checking') : t('submit')}
          </Button>
        ),
      ]}
    >
      <p>{t('intro')}</p>
      {!hasDevices && !hasBypass ? (
        <>
          <p>{t('no_factor')}</p>
          <ServiceDeskContact />
        </>
      ) : null}
      <Form<StepUpForm>
        name={formId}
        form={form}
        layout="vertical"
        initialValues={{ method: 'passcode', code: '', deviceId: pushPhones[0]?.id ?? '' }}
        onFinish={submit}
        onValuesChange={(changed: Partial<StepUpForm>) => {
          if (changed.method) {
            startedOnPreferred.current = true; // the person's own choice stands
            setMethod(changed.method);
            form.setFieldValue('code', '');
            resetPush();
          }
        }}
        requiredMark={false}
      >
        <Form.Item name="method" label={t('method.label')}>
          <Radio.Group>
            {canPasskey ? <Radio value="webauthn">{t('method.webauthn')}</Radio> : null}
            {offersPasscode ? <Radio value="passcode">{t('method.passcode')}</Radio> : null}
            {offersBypass ? <Radio value="bypass">{t('method.bypass')}</Radio> : null}
            {pushPhones.length > 0 ? <Radio value="push">{t('method.push')}</Radio> : null}
          </Radio.Group>
        </Form.Item>
        {method === 'webauthn' ? <p>{t('webauthn.body')}</p> : null}
        {method === 'push' ? (
          pushPhones.length > 1 ? (
            <Form.Item name="deviceId" label={t('push.phone_label')}>
              <NativeSelect options={pushPhones.map((d) => ({ value: d.id, label: labels.label(d) }))} disabled={pushWaiting} />
            </Form.Item>
          ) : (
            <p>{pushPhones[0] ? t('push.to_phone', { name: labels.label(pushPhones[0]) }) : null}</p>
          )
        ) : null}
        <Form.Item
          hidden={method === 'push' || method === 'webauthn'}
          name="code"
          label={method === 'passcode' ? t('code.passcode_label') : t('code.bypass_label')}
          extra={method === 'passcode' ? t('code.passcode_help') : t('code.bypass_help')}
          rules={[
            { required: method !== 'push' && method !== 'webauthn', message: t('code.required') },
            {
              pattern: method === 'passcode' ? /^\s*\d{6}\s*$/ : method === 'bypass' ? /^\s*\d(?:[ -]?\d){8}\s*$/ : /.*/,
              message: method === 'passcode' ? t('code.passcode_format') : t('code.bypass_format'),
            },
          ]}
        >
          <Input autoComplete="one-time-code" inputMode="numeric" autoFocus data-autofocus />
        </Form.Item>
      </Form>
      {verify.error ? <ErrorAlert error={verify.error} title={t('failed')} /> : null}
      {method === 'webauthn' && webauthn.error ? <ErrorAlert error={webauthn.error} title={t('webauthn.failed')} /> : null}
      {method === 'push' && pushState && pushPhone ? (
        <PushResult
          state={pushState}
          deviceName={pushPhone.name}
          timeoutSeconds={PUSH_TIMEOUT_SECONDS}
          verificationCode={startPush.data?.verificationCode}
          portalAuthenticator={inApp}
        />
      ) : null}
      {method === 'push' && startPush.error ? <ErrorAlert error={startPush.error} title={t('push.failed')} /> : null}
      {method === 'push' && push.error ? <ErrorAlert error={push.error} title={t('push.failed')} /> : null}
    </Modal>
  );
}
