import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input } from 'antd';
import type { AdminLostDeviceProgress, Device } from '@mfa-portal/shared';
import { formatTime } from '../../../lib/ui/format';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { useCapabilities } from '../../../lib/capabilities/get-capabilities';
import { useDeviceLabels } from '../../../lib/devices/device-labels';
import { normaliseOtp, OTP_INPUT_PROPS, otpRules } from '../../../lib/ui/otp';
import { useVerifyIdentity } from '../api/verify-identity';
import { AdminErrorAlert } from './AdminErrorAlert';
import { pushPhones, VerifyPushPanel } from './VerifyPushPanel';

/** Devices that can show a passcode (authenticator apps, hardware tokens, phones with the passcode capability). */
export const passcodeDevices = (devices: readonly Device[]) => devices.filter((d) => d.capabilities.includes('passcode'));

/**
 * How a device is named in the administrator's choices: as everywhere (a phone in the portal's app is
 * "Portal Authenticator on Pixel 8"), with its serial when the name does not already say it (Duo's tokens
 * are named by type and serial: "Duo D100 (D100-0001)").
 */
export function useDeviceChoiceLabel(): (d: Pick<Device, 'name' | 'serial' | 'kind' | 'capabilities' | 'app'>) => string {
  const { label } = useDeviceLabels();
  return (d) => (d.serial && !d.name.includes(d.serial) ? `${label(d)} (${d.serial})` : label(d));
}

/**
 * "Is it really them?": the caller reads a passcode from one of their devices and the server checks
 * it (the attempt and its result are audited). Where the MFA service can send pushes and the user has
 * a phone that takes them, a verification push is offered too (see VerifyPushPanel); an approval
 * counts exactly as a right passcode. The latest successful check by this administrator (from the
 * server, so it survives a reload) is shown above the form.
 */
export function VerifyIdentityPanel({
  upn,
  devices,
  identityCheck,
  disabledReason,
  onVerified,
  formName = 'verify-identity',
  showLastCheck = true,
  offerPush = true,
  pushDeviceHelp,
  prepare,
  showSuccess = true,
  compact = false,
}: {
  upn: string;
  devices: readonly Device[];
  identityCheck: AdminLostDeviceProgress['identityCheck'] | undefined;
  /** Why the caller may not verify this user (a translated policy reason), or null. */
  disabledReason: string | null;
  onVerified?: (deviceId: string) => void;
  formName?: string;
  /** Show the caller's latest check above the form (not when testing a new device). */
  showLastCheck?: boolean;
  /** Offer a verification push too, where the MFA service can send one (not when testing a new device). */
  offerPush?: boolean;
  /** Help under the push's phone list. */
  pushDeviceHelp?: string;
  /**
   * Runs before a check is sent: the call's ticket to record with it, or null to send nothing (the
   * call's own fields said why).
   */
  prepare?: () => Promise<{ ticket?: string } | null>;
  /** Say a right code here (false where the page says it once, in its own summary). */
  showSuccess?: boolean;
  /** Fields side by side, without the device help (the helpdesk's page, where space is short). */
  compact?: boolean;
}) {
  const { t, i18n } = useTranslation(['admin', 'errors']);
  const [form] = Form.useForm<{ deviceId: string; code: string }>();
  const verify = useVerifyIdentity(upn);
  const usable = passcodeDevices(devices);
  const phones = offerPush ? pushPhones(devices) : [];
  // Asked only when there is a phone to push to; until the answer, no push is offered.
  const capabilities = useCapabilities({ enabled: phones.length > 0 && !disabledReason });
  const canPush = phones.length > 0 && capabilities.data?.push === true;
  const language = i18n.resolvedLanguage;
  const choiceLabel = useDeviceChoiceLabel();
  const { label } = useDeviceLabels();
  const nameOf = (id: string | null) => {
    const device = devices.find((d) => d.id === id);
    return device ? label(device) : t('admin:verify.a_device');
  };

  if (disabledReason) return <Alert role="note" type="info" showIcon title={t('admin:verify.unavailable')} description={disabledReason} />;

  const submit = async (values: { deviceId: string; code: string }) => {
    const call = prepare ? await prepare() : {};
    if (!call) return;
    verify.mutate(
      { deviceId: values.deviceId, code: normaliseOtp(values.code), ...(call.ticket ? { ticket: call.ticket } : {}) },
      {
        onSuccess: (result) => {
          form.resetFields(['code']);
          if (result.verified) onVerified?.(values.deviceId);
        },
      },
    );
  };
  const result = verify.data;
  const submitButton = (
    <Button type="primary" htmlType="submit" loading={verify.isPending}>
      {verify.isPending ? t('admin:verify.checking') : t('admin:verify.submit')}
    </Button>
  );
  return (
    <>
      {!showLastCheck ? null : identityCheck ? (
        <p className="verified-note">
          <span className="badge badge--ok">{t('admin:verify.verified_badge')}</span>{' '}
          {t('admin:verify.last_check', { time: formatTime(identityCheck.checkedAt, language), device: nameOf(identityCheck.deviceId) })}
        </p>
      ) : (
        <p className="form-note">{t('admin:verify.not_yet')}</p>
      )}
      {canPush ? (
        <h3 id={`${formName}-code-heading`} className="verify-way__title">
          {t('admin:verify.code_heading')}
        </h3>
      ) : null}
      {usable.length === 0 ? (
        canPush ? (
          <p>{t('admin:verify.no_code_device')}</p>
        ) : (
          <Alert
            role="note"
            type="warning"
            showIcon
            title={t('admin:verify.no_device_title')}
            description={t('admin:verify.no_device_body')}
          />
        )
      ) : (
        <Form
          name={formName}
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ deviceId: usable[0]!.id, code: '' }}
          onFinish={(values) => void submit(values)}
          className={compact ? 'verify-code-form verify-code-form--compact' : 'narrow-form'}
        >
          <Form.Item name="deviceId" label={t('admin:verify.device_label')} extra={compact ? undefined : t('admin:verify.device_help')}>
            <NativeSelect options={usable.map((d) => ({ value: d.id, label: choiceLabel(d) }))} />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('admin:verify.code_label')}
            extra={compact ? undefined : t('admin:verify.code_help')}
            rules={otpRules(t)}
          >
            <Input {...OTP_INPUT_PROPS} />
          </Form.Item>
          {compact ? <div className="verify-code-form__submit">{submitButton}</div> : submitButton}
        </Form>
      )}
      <div role="status" className="verify-result">
        {result?.verified && showSuccess ? (
          <div className="success-box">
            <span className="success-box__mark" aria-hidden="true">
              ✓
            </span>
            <div>
              <p className="success-box__title">{t('admin:verify.success_title')}</p>
              <p>{t('admin:verify.success_body', { device: nameOf(result.deviceId), time: formatTime(result.checkedAt, language) })}</p>
            </div>
          </div>
        ) : result && !result.verified ? (
          <Alert
            type="error"
            showIcon
            title={t('admin:verify.failure_title')}
            description={
              result.reason && i18n.exists(`errors:${result.reason}`) ? t(`errors:${result.reason}`) : t('admin:verify.failure_body')
            }
          />
        ) : null}
      </div>
      {verify.error ? <AdminErrorAlert error={verify.error} title={t('admin:verify.failed')} className="after-form" /> : null}
      {canPush ? (
        <section className="verify-way" aria-labelledby={`${formName}-push-heading`}>
          <h3 id={`${formName}-push-heading`} className="verify-way__title">
            {t('admin:verify.push_heading')}
          </h3>
          <VerifyPushPanel
            upn={upn}
            phones={phones}
            formName={`${formName}-push`}
            deviceHelp={pushDeviceHelp}
            onVerified={onVerified}
            prepare={prepare}
            showSuccess={showSuccess}
          />
        </section>
      ) : null}
    </>
  );
}
