import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button, Form, Input } from 'antd';
import { DEVICE_NAME_MAX_LENGTH, HARDWARE_TOKEN_TYPES } from '@mfa-portal/shared';
import { returnPathOf } from '../../../lib/main-routes';
import { stepUpOutcome } from '../../../lib/step-up/step-up';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useFlash } from '../../../lib/ui/flash';
import { normaliseOtp, OTP_INPUT_PROPS, otpRules } from '../../../lib/ui/otp';
import { Page } from '../../../lib/ui/Page';
import { useClaimHardwareToken } from '../api/claim-hardware-token';
import '../devices.css';

interface ClaimForm {
  serial: string;
  first: string;
  second: string;
  name?: string;
}

const TOKEN_TYPE = HARDWARE_TOKEN_TYPES[0];

/**
 * Adding a Duo D100 hardware token: where to find its serial number (in words), then the serial and two
 * consecutive codes as proof that the user holds it.
 */
export function AddTokenPage() {
  const { t } = useTranslation('devices');
  const claim = useClaimHardwareToken();
  const navigate = useNavigate();
  const location = useLocation();
  const { showSuccess } = useFlash();
  const submit = async (values: ClaimForm) => {
    const name = values.name?.trim();
    try {
      const device = await claim.mutateAsync({
        serial: values.serial.trim(),
        codes: [normaliseOtp(values.first), normaliseOtp(values.second)],
        ...(name ? { name } : {}),
      });
      showSuccess(t('token.done', { name: device.name }));
      void navigate(returnPathOf(location.state));
    } catch {
      // shown below from claim.error
    }
  };
  const { error, cancelled } = stepUpOutcome(claim);
  return (
    <Page title={t('token.title', { type: TOKEN_TYPE })} intro={<p>{t('token.intro', { type: TOKEN_TYPE })}</p>}>
      <div className="panel guidance">
        <h2 className="guidance__title">{t('token.serial_where_title')}</h2>
        <p>{t('token.serial_where_body')}</p>
        <h2 className="guidance__title">{t('token.codes_how_title')}</h2>
        <p>{t('token.codes_how_body')}</p>
      </div>
      <Form<ClaimForm>
        name="claim-token"
        layout="vertical"
        onFinish={(values) => void submit(values)}
        requiredMark={false}
        className="narrow-form"
      >
        <Form.Item
          name="serial"
          label={t('token.serial_label')}
          extra={t('token.serial_help')}
          rules={[
            { required: true, whitespace: true, message: t('token.serial_required') },
            { pattern: /^\s*[A-Za-z0-9-]{1,32}\s*$/, message: t('token.serial_format') },
          ]}
        >
          <Input autoComplete="off" spellCheck={false} />
        </Form.Item>
        <Form.Item name="first" label={t('token.first_label')} rules={otpRules(t, t('token.first_label'))}>
          <Input {...OTP_INPUT_PROPS} />
        </Form.Item>
        <Form.Item
          name="second"
          label={t('token.second_label')}
          extra={t('token.second_help')}
          rules={otpRules(t, t('token.second_label'))}
        >
          <Input {...OTP_INPUT_PROPS} />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('token.name_label')}
          extra={t('token.name_help')}
          rules={[{ max: DEVICE_NAME_MAX_LENGTH, message: t('rename.name_too_long', { max: DEVICE_NAME_MAX_LENGTH }) }]}
        >
          <Input maxLength={DEVICE_NAME_MAX_LENGTH} autoComplete="off" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={claim.isPending}>
          {claim.isPending ? t('token.submitting') : t('token.submit')}
        </Button>
      </Form>
      {cancelled ? <p className="form-note">{t('token.not_confirmed')}</p> : null}
      {error ? <ErrorAlert error={error} title={t('token.failed')} className="after-form" /> : null}
    </Page>
  );
}
